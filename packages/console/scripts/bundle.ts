#!/usr/bin/env node
/**
 * The browser bundle of `@domainkit/console` (after `build-package.ts`): `dist/bundle/console.min.js`, one minified
 * ES module with Lit bundled (`<script type="module" src=".../console.min.js">` defines every element), and beside
 * it the chunks it imports on first use (uPlot, loaded when a chart is first drawn) and the French and Arabic string
 * sets (`console-fr.min.js`, `console-ar.min.js`). Prints each file's size, raw and gzip'd.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'bundle');
await rm(out, { recursive: true, force: true });
await build({
  entryPoints: {
    'console.min': join(root, 'src', 'index.ts'),
    'console-fr.min': join(root, 'src', 'locales', 'fr.ts'),
    'console-ar.min': join(root, 'src', 'locales', 'ar.ts'),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox113', 'safari16.4'],
  minify: true,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
for (const file of (await readdir(out, { recursive: true })).filter((f) => f.endsWith('.js')).sort()) {
  const bytes = await readFile(join(out, file));
  console.log(`${file}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzip`);
}
