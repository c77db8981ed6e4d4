#!/usr/bin/env node
/**
 * `pnpm lint:packages`: lints every publishable package (each `packages/*` that is not private) as it would be
 * published. `publint` checks the packed `package.json` and files (`--pack pnpm`, so `publishConfig` and the
 * `workspace:*` rewrite apply), and `@arethetypeswrong/cli` resolves every entry point of the `pnpm pack` tarball
 * under `moduleResolution` node10, node16 and bundler. The packages are ESM only, so attw's
 * `cjs-resolves-to-esm` (a `require()` consumer needs a dynamic import) is expected and ignored.
 *
 * Builds `dist/` first unless `--no-build`. Exits non-zero when either tool reports a problem.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
const attw = join(root, 'node_modules', '.bin', 'attw');

/** Runs a command, echoing it; returns whether it exited 0. */
function run(command: string, args: string[], cwd: string): boolean {
  console.log(`\n$ (${cwd.slice(root.length + 1) || '.'}) ${[command, ...args].join(' ')}`);
  return spawnSync(command, args, { cwd, stdio: 'inherit' }).status === 0;
}

const publishable = readdirSync(packagesDir).filter((name) => {
  const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as { private?: boolean };
  return manifest.private !== true;
});

const failed: string[] = [];
if (!process.argv.includes('--no-build') && !run('pnpm', ['-r', '--filter', './packages/*', 'build'], root)) {
  failed.push('build');
}
const packs = mkdtempSync(join(tmpdir(), 'domainkit-lint-packages-'));
try {
  for (const name of publishable) {
    const dir = join(packagesDir, name);
    if (!run('pnpm', ['exec', 'publint', '--strict', '--pack', 'pnpm'], dir)) failed.push(`publint ${name}`);
    const before = new Set(readdirSync(packs));
    if (!run('pnpm', ['pack', '--pack-destination', packs], dir)) {
      failed.push(`pack ${name}`);
      continue;
    }
    const tarball = readdirSync(packs).find((file) => !before.has(file) && file.endsWith('.tgz'));
    // A stylesheet subpath (the widget's `domainkit.css`) has no types or JavaScript for attw to resolve.
    const { exports = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      exports?: Record<string, unknown>;
    };
    const stylesheets = Object.keys(exports).filter((subpath) => subpath.endsWith('.css'));
    const skip = stylesheets.length > 0 ? ['--exclude-entrypoints', ...stylesheets] : [];
    if (!tarball || !run(attw, [join(packs, tarball), '--ignore-rules', 'cjs-resolves-to-esm', ...skip], root)) {
      failed.push(`attw ${name}`);
    }
  }
} finally {
  rmSync(packs, { recursive: true, force: true });
}
console.log(
  failed.length > 0
    ? `\npackages: problems in ${failed.join(', ')}`
    : `\npackages: ${publishable.length} clean (publint, attw)`,
);
process.exit(failed.length > 0 ? 1 : 0);
