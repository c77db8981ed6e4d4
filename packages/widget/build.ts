/**
 * Builds `@domainkit/widget` (run with `node build.ts`):
 *
 * 1. the npm build: every source module transpiled on its own into `dist/` (ESM, same layout as `src/`, Lit
 *    and every other import left as imports, `.ts` specifiers rewritten to `.js`), plus `.d.ts` files from
 *    `tsc -p tsconfig.build.json`;
 * 2. the script-tag build: `dist/domainkit.min.js`, one self-contained minified ES module (Lit bundled, its
 *    templates and styles minified; see `build-options.ts`), loaded with `<script type="module"
 *    src="…/domainkit.min.js">`, and `dist/domainkit.min.js.LEGAL.txt`, the license comments of the bundled Lit;
 *    Beside it, the files it loads on first use (`LAZY_FILES`) and the language sets (`STRING_FILES`);
 * 3. `dist/domainkit.css`, the boxes the elements take before they upgrade (`src/domainkit.css`, for the page's
 *    `<head>`), and `dist/custom-elements.json`, the custom-elements manifest generated from the class headers.
 *
 * Fails when the script-tag file contains something it must never contain (a credential-looking string, a
 * reference to `process.env`, or code a strict CSP refuses), then prints the sizes, raw and gzip'd.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { rewriteDeclarationSpecifiers } from '../../scripts/declarations.ts';
import {
  bundleScriptTag,
  LAZY_FILES,
  SCRIPT_TAG_FILE,
  STANDALONE_FILES,
  STRING_FILES,
  target,
} from './build-options.ts';
import { writeManifest } from './manifest.ts';

const root = import.meta.dirname;
const src = join(root, 'src');
const dist = join(root, 'dist');
const minFile = join(dist, SCRIPT_TAG_FILE);

/** Keeps every import of a module as an import (no bundling) and points `./x.ts` at the emitted `./x.js`. */
const keepImports: Plugin = {
  name: 'keep-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return { path: args.path.replace(/\.ts$/, '.js'), external: true };
    });
  },
};

await rm(dist, { recursive: true, force: true });

const modules = (await readdir(src, { recursive: true }))
  .map((file) => file.split('\\').join('/'))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('test-support/'))
  .map((file) => join(src, file));

// 1. npm build
await build({
  entryPoints: modules,
  outdir: dist,
  outbase: src,
  bundle: true,
  plugins: [keepImports],
  format: 'esm',
  platform: 'browser',
  target,
  sourcemap: true,
  logLevel: 'warning',
});
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
// tsc rewrites `.ts` specifiers in emitted JS only (rewriteRelativeImportExtensions), not in declarations.
await rewriteDeclarationSpecifiers(dist);

// React Server Components: the React entry is a Client Component only while the directive is its first statement.
if (!(await readFile(join(dist, 'react/index.js'), 'utf8')).startsWith('"use client";')) {
  throw new Error(
    'dist/react/index.js does not start with "use client": the React entry must stay a Client Component.',
  );
}

// 2. script-tag build (and the license comments of the bundled Lit, which its banner points to): the entry, and
// the modules beside it that the entry imports on first use (LAZY_FILES).
const { code, legal, metafile } = await bundleScriptTag(root, { entry: join(src, 'script-tag.ts') });
await writeFile(minFile, code);
await writeFile(`${minFile}.LEGAL.txt`, legal);
const lazyFiles: Array<[string, string]> = [];
// A lazy file runs beside the entry's Lit and elements: it must not carry a second copy of anything with identity or
// state (Lit's element and renderer, the widget's controllers and elements); it gets those through its caller.
const stateful = /reactive-element|lit-element|lit-html|\/src\/(controller|element|purchase\/purchase-controller)\.ts$/;
for (const [source, file] of Object.entries(LAZY_FILES)) {
  const lazy = await bundleScriptTag(root, { entry: join(src, source) });
  const bundled = Object.values(lazy.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  );
  const doubled = bundled.filter((input) => stateful.test(input));
  if (doubled.length) throw new Error(`${file} bundles ${doubled.join(', ')}: pass it in from the entry instead.`);
  if (!code.includes(`"./${file}"`)) throw new Error(`${SCRIPT_TAG_FILE} does not import ./${file}.`);
  await writeFile(join(dist, file), lazy.code);
  lazyFiles.push([file, lazy.code]);
}

// The language sets: files beside the entry that pages import themselves (the entry never does).
for (const [source, file] of Object.entries(STRING_FILES)) {
  const strings = await bundleScriptTag(root, { entry: join(src, source) });
  if (code.includes(file)) throw new Error(`${SCRIPT_TAG_FILE} must not import ${file}.`);
  await writeFile(join(dist, file), strings.code);
  lazyFiles.push([file, strings.code]);
}

// The standalone elements: files beside the entry that pages load themselves (the entry never does).
for (const [source, file] of Object.entries(STANDALONE_FILES)) {
  const element = await bundleScriptTag(root, { entry: join(src, source) });
  if (code.includes(file)) throw new Error(`${SCRIPT_TAG_FILE} must not import ${file}.`);
  await writeFile(join(dist, file), element.code);
  await writeFile(join(dist, `${file}.LEGAL.txt`), element.legal);
  lazyFiles.push([file, element.code]);
}

// The boxes the elements take before they upgrade, for the page's <head> (no layout shift when they do).
await writeFile(join(dist, 'domainkit.css'), await readFile(join(src, 'domainkit.css')));

// 3. the custom-elements manifest, from the class headers
const elements = await writeManifest(root);

const forbidden: Array<[RegExp, string]> = [
  [/\b[sp]k_(test|live)_[A-Za-z0-9]/, 'a credential-looking string'],
  [/process\.env/, 'a reference to process.env'],
  [/\beval\s*\(|new Function\s*\(/, 'code a strict Content-Security-Policy refuses (eval / new Function)'],
];
for (const [file, text] of [[SCRIPT_TAG_FILE, code], ...lazyFiles]) {
  for (const [pattern, what] of forbidden) {
    if (pattern.test(text!)) throw new Error(`dist/${file} contains ${what} (${pattern}); refusing to ship it.`);
  }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const sizeOf = (bytes: Buffer | string): string => {
  const raw = Buffer.byteLength(bytes);
  return `${kb(raw).padStart(9)} raw  ${kb(gzipSync(bytes, { level: 9 }).length).padStart(8)} gzip`;
};
const npmFiles = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.js') && !f.endsWith('.min.js'));
const npmCode = Buffer.concat(await Promise.all(npmFiles.map((f) => readFile(join(dist, f)))));
const inputs = Object.keys(metafile.inputs).length;

console.log(`\n@domainkit/widget built into ${relative(process.cwd(), dist) || '.'}/`);
console.log(`  npm ESM build (${npmFiles.length} modules, Lit external, not minified) ${sizeOf(npmCode)}`);
console.log(`  domainkit.min.js (script tag, ${inputs} modules, Lit bundled)    ${sizeOf(code)}`);
for (const [file, text] of lazyFiles) {
  const what = Object.values(STRING_FILES).includes(file)
    ? 'language set'
    : Object.values(STANDALONE_FILES).includes(file)
      ? 'standalone element'
      : 'loaded on first use';
  console.log(`  ${`${file} (${what})`.padEnd(58)}${sizeOf(text)}`);
}
console.log(`  custom-elements.json (${elements} element classes)`);
