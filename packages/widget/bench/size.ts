/**
 * `pnpm bench` (size): bundles the script-tag file (`src/script-tag.ts`) and a trivial Lit element with the
 * same esbuild options in the same run, prints both minified and gzip'd (level 9) next to each other with
 * their ratio, and fails when the widget is over its budget: 12 KB (12,288 bytes) gzip'd, Lit included.
 */
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { bundleScriptTag } from '../build-options.ts';

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

async function bundle(input: { entry: string } | { source: string }): Promise<{ raw: number; gzip: number }> {
  const code = Buffer.from((await bundleScriptTag(root, input)).code);
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const widget = await bundle({ entry: join(root, 'src', 'script-tag.ts') });
const lit = await bundle({ source: baseline });
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`.padStart(9);

console.log('script-tag size (minified; gzip -9)');
console.log(`  trivial Lit element (baseline) ${kb(lit.raw)} min ${kb(lit.gzip)} gzip`);
console.log(`  domainkit.min.js               ${kb(widget.raw)} min ${kb(widget.gzip)} gzip`);
console.log(`  widget / baseline              ${(widget.gzip / lit.gzip).toFixed(2)}x gzip; widget's own code ${kb(widget.gzip - lit.gzip)} gzip`);
console.log(`  budget                         ${kb(BUDGET)} gzip: ${widget.gzip <= BUDGET ? 'met' : 'EXCEEDED'}`);
if (widget.gzip > BUDGET) {
  console.error(`domainkit.min.js is ${widget.gzip - BUDGET} bytes over its ${BUDGET}-byte gzip budget.`);
  process.exitCode = 1;
}
