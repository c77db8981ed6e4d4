/**
 * Importing the npm build has no side effect beyond defining the elements, and touches no `window`,
 * `document`, `location` or storage at import: it is safe to import during server rendering. Each entry is
 * imported in a fresh `node` process without any DOM (Lit's Node build brings its own `customElements`),
 * with those globals replaced by getters that record who reads them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

/** What one import did, as the child process reports it. */
interface ImportReport {
  /** `<global> <first stack frame>` for each read of a browser global. */
  readonly touched: string[];
  /** Globals that did not exist before the import. */
  readonly newGlobals: string[];
  /** Tags defined in `customElements` after the import. */
  readonly defined: string[];
  readonly exports: string[];
}

const probe = `
const touched = [];
for (const name of ['window', 'document', 'location', 'self', 'localStorage', 'sessionStorage']) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() { touched.push(name + ' ' + (new Error().stack.split('\\n')[2] ?? '').trim()); return undefined; },
  });
}
const before = new Set(Object.getOwnPropertyNames(globalThis));
const module = await import(process.argv[1]);
const defined = ['dk-domain-search', 'dk-buy-button'].filter((tag) => globalThis.customElements?.get(tag));
const newGlobals = Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name));
console.log(JSON.stringify({ touched, newGlobals, defined, exports: Object.keys(module) }));
`;

async function importInNode(entry: string): Promise<ImportReport> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    probe,
    new URL(entry, `file://${dist}`).href,
  ]);
  return JSON.parse(stdout) as ImportReport;
}

/** What Lit's Node build itself adds to `globalThis` (its DOM shim and version markers). */
const LIT_GLOBALS = [
  'customElements',
  'litPropertyMetadata',
  'reactiveElementVersions',
  'litHtmlVersions',
  'litElementVersions',
  'litServerRoot',
];

describe('importing @domainkit/widget without a DOM', () => {
  beforeAll(() => {
    if (!existsSync(`${dist}index.js`))
      throw new Error('dist/index.js is missing: run `pnpm --filter @domainkit/widget build` first.');
  });

  it('the bundle entry defines both elements and nothing else; only Lit itself looks for a document', async () => {
    const report = await importInNode('index.js');
    expect(report.defined).toEqual(['dk-domain-search', 'dk-buy-button']);
    expect(report.exports).toContain('DkDomainSearch');
    expect(report.exports).toContain('DkSelectEvent');
    expect(
      report.touched.filter((read) => !/node_modules\/(lit-html|lit-element|@lit)\//.test(read)),
      'browser globals read by our code',
    ).toEqual([]);
    expect(
      report.newGlobals.filter((name) => !LIT_GLOBALS.includes(name)),
      'globals added beyond Lit’s',
    ).toEqual([]);
  });

  it('each element entry defines only its own element', async () => {
    expect((await importInNode('domain-search/domain-search.js')).defined).toEqual(['dk-domain-search']);
    expect((await importInNode('buy-button/buy-button.js')).defined).toEqual(['dk-buy-button']);
  });

  it('the events entry defines no element and touches no browser global', async () => {
    const report = await importInNode('events/events.js');
    expect(report.defined).toEqual([]);
    expect(report.touched).toEqual([]);
    expect(report.exports).toEqual(
      expect.arrayContaining(['DkQuoteEvent', 'DkOrderCreatedEvent', 'DkCheckoutStartEvent']),
    );
  });
});
