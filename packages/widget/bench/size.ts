/**
 * `pnpm bench` (size): bundles the script-tag entry (`src/script-tag.ts`, what a visitor downloads before the
 * search box works) and a trivial Lit element with the same pipeline (`build-options.ts`, Lit itself bundled in
 * both) in the same run, prints both minified, gzip'd (level 9) and brotli'd (quality 11) next to each other with
 * their ratio, then the files the entry loads on first use (`LAZY_FILES`: the MoR order flow, the hosted-checkout
 * flow, the result rows, the siblings list, the reading of a failed answer), and fails (exit code 1) when the entry
 * is over its budget: 12 KB (12,288 bytes) gzip'd, Lit included. The trivial element is the "about 6 KB" baseline.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { bundleScriptTag, LAZY_FILES } from '../build-options.ts';

const root = join(import.meta.dirname, '..');
const BUDGET = 12 * 1024;

/** A Lit element as small as one gets: one reactive property, one style, one template. */
const baseline = `
import { LitElement, css, html } from 'lit';
class HelloElement extends LitElement {
  static styles = css\`:host { display: block; }\`;
  static properties = { name: {} };
  render() { return html\`<p>Hello, \${this.name}!</p>\`; }
}
customElements.define('hello-element', HelloElement);
`;

/** Bytes of a bundle: minified, then gzip'd at level 9, and brotli'd at quality 11. */
interface Size {
  readonly raw: number;
  readonly gzip: number;
  readonly brotli: number;
}

async function bundle(input: { entry: string } | { source: string }): Promise<Size> {
  const code = Buffer.from((await bundleScriptTag(root, input)).code);
  return {
    raw: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const [widget, lit, ...lazy] = await Promise.all([
  bundle({ entry: join(root, 'src', 'script-tag.ts') }),
  bundle({ source: baseline }),
  ...Object.keys(LAZY_FILES).map((source) => bundle({ entry: join(root, 'src', source) })),
]);
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`.padStart(9);
const row = (label: string, size: Size): string =>
  `  ${label.padEnd(56)}${kb(size.raw)} min ${kb(size.gzip)} gzip ${kb(size.brotli)} br`;
/** What each file beside the entry is, for its row. */
const what: Readonly<Record<string, string>> = { 'domainkit-order.min.js': 'MoR order flow' };

console.log('script-tag size (minified; gzip -9; brotli -q 11; Lit bundled)');
console.log(row('trivial Lit element (baseline)', lit));
console.log(row('domainkit.min.js', widget));
console.log(
  `  ${'widget / baseline'.padEnd(56)}${(widget.gzip / lit.gzip).toFixed(2)}x gzip; widget's own code ${kb(widget.gzip - lit.gzip).trim()} gzip`,
);
for (const [i, file] of Object.values(LAZY_FILES).entries())
  console.log(row(`${file} (${what[file] ? `${what[file]}, ` : ''}on first use)`, lazy[i]!));
console.log(
  `  ${'entry budget'.padEnd(56)}${kb(BUDGET)} gzip: ${widget.gzip <= BUDGET ? `met (${BUDGET - widget.gzip} bytes to spare)` : `EXCEEDED (${widget.gzip - BUDGET} bytes over)`}`,
);
if (widget.gzip > BUDGET) {
  console.error(`domainkit.min.js is ${widget.gzip - BUDGET} bytes over its ${BUDGET}-byte gzip budget.`);
  process.exitCode = 1;
}
