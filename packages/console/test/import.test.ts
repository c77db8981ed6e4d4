// @vitest-environment node
/**
 * `@domainkit/console/vue` is safe to import during server rendering (Nuxt, Vite SSR): imported from the npm build in
 * a fresh `node` process without any DOM, it defines no element and our code reads no `window`, `document`,
 * `location`, `self`, storage or `customElements` (those globals are replaced by accessors that record who reads
 * them; Lit's Node build reads some and brings its own `customElements`, which is Lit's, not ours).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '..', 'dist');

const TAGS = [
  'dk-console',
  'dk-console-overview',
  'dk-console-orders',
  'dk-console-settlements',
  'dk-console-commissions',
  'dk-console-brokerage',
  'dk-console-links',
  'dk-console-events',
  'dk-console-chart',
];

/** What one import did, as the child process reports it. */
interface ImportReport {
  /** `<global> <first stack frame>` for each read of a browser global. */
  readonly touched: string[];
  /** Console tags defined in whatever `customElements` exists after the import. */
  readonly defined: string[];
  readonly exports: string[];
}

const probe = `
const touched = [];
const values = {};
for (const name of ['window', 'document', 'location', 'self', 'localStorage', 'sessionStorage', 'customElements']) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() { touched.push(name + ' ' + (new Error().stack.split('\\n')[2] ?? '').trim()); return values[name]; },
    set(value) { values[name] = value; },
  });
}
const module = await import(process.argv[1]);
const registry = values.customElements;
const defined = ${JSON.stringify(TAGS)}.filter((tag) => registry?.get(tag));
console.log(JSON.stringify({ touched, defined, exports: Object.keys(module).sort() }));
`;

async function importInNode(entry: string): Promise<ImportReport> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    probe,
    pathToFileURL(join(dist, entry)).href,
  ]);
  return JSON.parse(stdout) as ImportReport;
}

describe('importing @domainkit/console/vue without a DOM', () => {
  beforeAll(() => {
    if (!existsSync(join(dist, 'vue/index.js')))
      throw new Error('dist/vue/index.js is missing: run `pnpm --filter @domainkit/console build` first.');
  });

  it('defines no element and reads no browser global of its own', async () => {
    const report = await importInNode('vue/index.js');
    expect(report.exports).toEqual(['DomainkitConsole', 'compilerOptions', 'isCustomElement']);
    expect(report.defined, 'elements defined at import').toEqual([]);
    expect(
      report.touched.filter((read) => !/node_modules\/(lit|lit-html|lit-element|@lit|@lit-labs)\//.test(read)),
      'browser globals read by our code',
    ).toEqual([]);
  });
});
