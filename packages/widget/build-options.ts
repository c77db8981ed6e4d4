/**
 * The script-tag build, shared by `build.ts` (which writes `dist/domainkit.min.js`) and `bench/size.ts` (which
 * bundles a trivial Lit element the same way to compare): esbuild bundles and minifies (Lit included, Lit's
 * templates and styles minified by {@link minifyTemplatesPlugin}), then terser compresses the result further.
 *
 * The license comments of what is bundled (Lit's) go to `domainkit.min.js.LEGAL.txt` next to the file, which
 * names it in a one-line banner.
 */
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { minify } from 'terser';
import { minifyTemplatesPlugin } from './minify-templates.ts';

/** Browsers the builds target: evergreen browsers from 2022 on (native class fields and private methods). */
export const target = ['es2022', 'chrome100', 'edge100', 'firefox100', 'safari15.4'];

/** Name of the script-tag file in `dist/`. */
export const SCRIPT_TAG_FILE = 'domainkit.min.js';

/**
 * The Lit of the script-tag build: `lit` itself (only that specifier; `lit/html.js` stays Lit's) resolves to
 * `lite/lit.ts`, lit-html as it is with the part of `LitElement` the widget uses.
 */
const liteLit = (root: string): Plugin => ({
  name: 'lite-lit',
  setup(build) {
    build.onResolve({ filter: /^lit$/ }, () => ({ path: join(root, 'lite', 'lit.ts') }));
  },
});

/** One self-contained minified ES module: Lit bundled, Lit's templates and styles minified too. */
export function scriptTagOptions(root: string): BuildOptions {
  return {
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target,
    // Collected into the `.LEGAL.txt` file (see `bundleScriptTag`), not repeated in the script.
    legalComments: 'external',
    // Internal members named `_x` (never public, never on the wire) get short names.
    mangleProps: /^_[a-z]/i,
    logLevel: 'warning',
    outfile: join(root, 'dist', SCRIPT_TAG_FILE),
    write: false,
    plugins: [liteLit(root), minifyTemplatesPlugin(join(root, 'src'))],
  };
}

/** A script-tag file: its code and the license comments of what it bundles. */
export interface ScriptTagBundle {
  readonly code: string;
  /** The `.LEGAL.txt` text (license comments of the bundled packages); `''` when there are none. */
  readonly legal: string;
  readonly metafile: Metafile;
}

/**
 * Bundles `input` (an entry file, or module source resolved from `root`) with {@link scriptTagOptions}, then
 * runs terser over it (3 compress passes, safe options only; it reuses short local names better than esbuild,
 * which gzip rewards).
 */
export async function bundleScriptTag(root: string, input: { entry: string } | { source: string }): Promise<ScriptTagBundle> {
  const result = await build({
    ...scriptTagOptions(root),
    ...('entry' in input ? { entryPoints: [input.entry] } : { stdin: { contents: input.source, resolveDir: root, loader: 'js' } }),
    metafile: true,
  });
  const text = (ending: string): string => result.outputFiles.find((file) => file.path.endsWith(ending))?.text ?? '';
  const legal = text('.LEGAL.txt');
  const banner = legal ? `/*! Bundles Lit (BSD-3-Clause); licenses: ${SCRIPT_TAG_FILE}.LEGAL.txt */` : '';
  const { code } = await minify(text('.js'), {
    module: true,
    ecma: 2020,
    compress: { passes: 3 },
    format: { comments: false, preamble: banner },
  });
  return { code: `${code}\n`, legal, metafile: result.metafile };
}
