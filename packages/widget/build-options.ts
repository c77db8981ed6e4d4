/**
 * The script-tag build, shared by `build.ts` (which writes `dist/domainkit.min.js`) and `bench/size.ts` (which
 * bundles a trivial Lit element the same way to compare):
 *
 * 1. esbuild bundles and minifies: Lit itself included, Lit's `html` and `css` templates minified by
 *    {@link minifyTemplatesPlugin}, internal `_x` members renamed short;
 * 2. terser compresses the result once more;
 * 3. the license comments of what is bundled (Lit's) go to `domainkit.min.js.LEGAL.txt` next to the file; a
 *    one-line banner gives the package's version and license, and the license of what it bundles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { minify } from 'terser';
import { minifyTemplatesPlugin } from './minify-templates.ts';

/** Browsers the builds target: evergreen browsers from 2022 on (native class fields and private methods). */
export const target = ['es2022', 'chrome100', 'edge100', 'firefox100', 'safari15.4'];

/** Name of the script-tag file in `dist/`. */
export const SCRIPT_TAG_FILE = 'domainkit.min.js';

/**
 * The script-tag build's further files, beside {@link SCRIPT_TAG_FILE}: modules the entry imports on first use
 * (`import('./domainkit-order.min.js')`, resolved against the entry's own URL), keyed by their source in `src/`.
 * The MoR order flow loads on first use of `mode="order"`, the alternate-TLD list with the `siblings` attribute,
 * the hosted-checkout flow on the first Buy, the result rows before the first results (each prefetched when the
 * browser is idle and the element will need it), and the reading of a failed answer (`api-errors.ts`: the BFF's
 * error body, the console diagnosis of a BFF set up wrong) on the first failed answer.
 */
export const LAZY_FILES: Readonly<Record<string, string>> = {
  'purchase/checkout-flow.ts': 'domainkit-checkout.min.js',
  'purchase/order-flow.ts': 'domainkit-order.min.js',
  'domain-search/results.ts': 'domainkit-results.min.js',
  'domain-search/siblings.ts': 'domainkit-siblings.min.js',
  'api-errors.ts': 'domainkit-errors.min.js',
};

/**
 * The language sets, built as script-tag files beside {@link SCRIPT_TAG_FILE} but never imported by it: a page
 * that wants one imports it itself (`import fr from './domainkit-fr.min.js'`) and sets `element.strings`. Keyed by
 * their source in `src/`; each `export default`s a complete `DkStrings`.
 */
export const STRING_FILES: Readonly<Record<string, string>> = {
  'locales/fr.ts': 'domainkit-fr.min.js',
  'locales/ar.ts': 'domainkit-ar.min.js',
};

/**
 * Standalone elements, built as script-tag files beside {@link SCRIPT_TAG_FILE} but never imported by it (the entry
 * has no room): a page that uses one adds its own `<script type="module" src="…/domainkit-broker.min.js">`, or
 * imports it when it first needs it. Each bundles its own Lit (Lit runs fine twice on a page; the entry exports
 * nothing to share). Keyed by their source in `src/`.
 */
export const STANDALONE_FILES: Readonly<Record<string, string>> = {
  'broker-button/broker-button.ts': 'domainkit-broker.min.js',
  'order-status/order-status.ts': 'domainkit-order-status.min.js',
};

/** Points the entry's dynamic imports of {@link LAZY_FILES} at the files beside it (never bundled into it). */
const lazyExternal: Plugin = {
  name: 'lazy-external',
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = Object.keys(LAZY_FILES).find((key) => join(args.resolveDir, args.path).endsWith(key));
      if (!source) throw new Error(`${args.path}: a dynamic import must be one of LAZY_FILES in build-options.ts`);
      return { path: `./${LAZY_FILES[source]}`, external: true };
    });
  },
};

/** The esbuild options: one self-contained minified ES module, Lit bundled, its templates and styles minified. */
export function scriptTagOptions(root: string): BuildOptions {
  return {
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target,
    // Collected into the `.LEGAL.txt` file (see `bundleScriptTag`), not repeated in the script.
    legalComments: 'external',
    // Members named `_x` are internal (never public API, never a wire field): short names.
    mangleProps: /^_[a-z]/i,
    logLevel: 'warning',
    outfile: join(root, 'dist', SCRIPT_TAG_FILE),
    write: false,
    plugins: [lazyExternal, minifyTemplatesPlugin(join(root, 'src'))],
  };
}

/**
 * The one-line banner every script-tag file starts with: the package, its version (from `package.json`) and its
 * license, and Lit's license when it bundles Lit (whose license text is in `domainkit.min.js.LEGAL.txt` beside it;
 * the banner stays short, as every visitor downloads it).
 */
export function versionBanner(root: string, bundlesLit = true): string {
  const { name, version, license } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license: string;
  };
  const legal = bundlesLit ? ', Lit BSD-3-Clause' : '';
  return `/*! ${name} ${version} ${license}${legal} */`;
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
 * runs terser over it (3 compress passes, safe options only: it also reuses a few short local names more
 * often than esbuild, which gzip rewards).
 */
export async function bundleScriptTag(
  root: string,
  input: { entry: string } | { source: string },
): Promise<ScriptTagBundle> {
  const result = await build({
    ...scriptTagOptions(root),
    ...('entry' in input
      ? { entryPoints: [input.entry] }
      : { stdin: { contents: input.source, resolveDir: root, loader: 'js' } }),
    metafile: true,
  });
  const text = (ending: string): string =>
    (result.outputFiles ?? []).find((file) => file.path.endsWith(ending))?.text ?? '';
  const legal = text('.LEGAL.txt');
  const { code } = await minify(text('.js'), {
    module: true,
    ecma: 2020,
    compress: { passes: 3 },
    format: {
      comments: false,
      preamble: versionBanner(root, legal !== ''),
    },
  });
  return { code: `${code}\n`, legal, metafile: result.metafile };
}
