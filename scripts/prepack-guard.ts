#!/usr/bin/env node
/**
 * The `prepack` guard of every publishable package. In the workspace a package's `package.json` points `exports`
 * (and `bin`) at `src/*.ts` and depends on its siblings with `workspace:*`; `pnpm pack` and `pnpm publish` swap in
 * `publishConfig` and real version ranges while packing, `npm pack` and `npm publish` do not and would ship a
 * package nobody can install. So this refuses, with a message, unless pnpm runs it, and refuses when `dist/` has not
 * been built.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = process.cwd();
const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string };
const agent = process.env.npm_config_user_agent ?? '';
const problems: string[] = [];

if (!agent.startsWith('pnpm/')) {
  problems.push(
    `${manifest.name} must be packed with pnpm: \`pnpm pack\` / \`pnpm publish\` (or \`pnpm changeset publish\`). ` +
      `This package.json points at src/ and uses workspace:* ranges that only pnpm rewrites while packing ` +
      `(agent here: ${agent.split(' ')[0] || 'unknown'}).`,
  );
}
if (!existsSync(join(root, 'dist', 'index.js'))) {
  problems.push(`${manifest.name} has no dist/ build: run \`pnpm --filter ${manifest.name} build\` first.`);
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`prepack refused: ${problem}`);
  process.exit(1);
}
