#!/usr/bin/env node
/**
 * `pnpm lint` (part): the shape the BFF keeps so a newcomer can read it (issue 21): no source file of
 * `packages/bff/src` over 500 lines; `createBff` (the Express adapter) and `createBffHandler` (the web-standard
 * handler) each at most 100 lines, from `export function` to its closing brace, as they only compose; and every
 * feature folder with its one entry, `index.ts` (which feature folders there are: the dependency-cruiser rule
 * `bff-feature-only-through-its-entry`). Prints each breach with what to do; exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const src = join(root, 'packages', 'bff', 'src');
const MAX_FILE_LINES = 500;
const MAX_FACTORY_LINES = 100;
const FACTORIES: ReadonlyArray<readonly [file: string, name: string]> = [
  ['router.ts', 'createBff'],
  ['handler.ts', 'createBffHandler'],
];

/** The feature folders the dependency-cruiser rule names (one source of truth for which folders are features). */
function featureFolders(): string[] {
  const config = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
  const rule = /name: 'bff-feature-only-through-its-entry'[\s\S]*?src\/\(([a-z|]+)\)\//.exec(config);
  if (rule === null) throw new Error('.dependency-cruiser.cjs: no rule bff-feature-only-through-its-entry');
  return rule[1]!.split('|');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const breaches: string[] = [];
for (const file of sourceFiles(src)) {
  const lines = readFileSync(file, 'utf8').split('\n').length - 1;
  if (lines > MAX_FILE_LINES)
    breaches.push(`${relative(root, file)}: ${lines} lines (at most ${MAX_FILE_LINES}); split it by what it does`);
}
for (const [file, name] of FACTORIES) {
  const lines = readFileSync(join(src, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(`export function ${name}(`));
  const end = lines.findIndex((line, i) => i > start && line === '}');
  if (start === -1 || end === -1) breaches.push(`${file}: no \`export function ${name}(\` ending in a \`}\` line`);
  else if (end - start + 1 > MAX_FACTORY_LINES)
    breaches.push(
      `${file}: ${name} is ${end - start + 1} lines (at most ${MAX_FACTORY_LINES}); it composes: move the work into a feature`,
    );
}
for (const feature of featureFolders()) {
  const entries = readdirSync(join(src, feature)).filter((name) => /^index\.[cm]?[jt]sx?$/.test(name));
  if (entries.length !== 1 || entries[0] !== 'index.ts')
    breaches.push(`packages/bff/src/${feature}/: its one entry is index.ts (found: ${entries.join(', ') || 'none'})`);
}
if (breaches.length > 0) {
  console.error(`The BFF's shape:\n  ${breaches.join('\n  ')}`);
  process.exit(1);
}
