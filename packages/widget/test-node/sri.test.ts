/**
 * Subresource Integrity of the script-tag release files (needs `pnpm build` first):
 *
 * - the README's table (written by `pnpm sri`) gives the `sha384` hash of exactly the built files, so it never goes
 *   stale;
 * - in headless Chromium, a page on one origin loads the widget from another origin (served with
 *   `Access-Control-Allow-Origin`) with `integrity` and `crossorigin="anonymous"` on the entry and the hashes of the
 *   files beside it in an import map, as the README shows: the search shows results. A wrong hash for the result rows'
 *   file makes the search fail instead (SRI covers the files the entry imports), and a wrong hash on the entry means
 *   the elements never appear.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_TAG_FILE } from '../build-options.ts';
import { RELEASE_FILES, integrity, markedTable, normalizeTable, sriTable } from '../scripts/sri.ts';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
/** How long a state may take to show: loading a page and a file beside the entry, on a busy CI machine. */
const BUSY_MACHINE = { timeout: 10_000 };
const readme = fileURLToPath(new URL('../README.md', import.meta.url));

describe("the README's SRI table", () => {
  it('gives the sha384 hash of every built release file (run `pnpm sri` after a change)', async () => {
    const table = markedTable(await readFile(readme, 'utf8'));
    expect(table, 'README.md has no sri:start … sri:end section').toBeDefined();
    expect(normalizeTable(table!), 'stale: run `pnpm --filter @domainkit/widget sri`').toBe(
      normalizeTable(await sriTable(dist)),
    );
    for (const file of RELEASE_FILES) expect(table).toContain(`\`${file}\``);
  });
});

/** A server on 127.0.0.1, port 0; returns its origin. */
async function listen(handler: RequestListener): Promise<[Server, string]> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return [server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`];
}

describe('SRI in the browser, the widget on another origin', () => {
  let cdn: Server;
  let site: Server;
  let cdnOrigin: string;
  let siteOrigin: string;
  let browser: Browser;
  const hashes = new Map<string, string>();

  beforeAll(async () => {
    for (const file of RELEASE_FILES) hashes.set(file, integrity(await readFile(`${dist}${file}`)));
    [cdn, cdnOrigin] = await listen((request, response) => {
      const file = new URL(request.url ?? '/', 'http://x').pathname.slice('/widget/'.length);
      if (!RELEASE_FILES.includes(file)) return void response.writeHead(404).end();
      void readFile(`${dist}${file}`).then((body) =>
        response.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*' }).end(body),
      );
    });
    [site, siteOrigin] = await listen((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/dk/search') {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            query: 'coffee',
            results: [{ domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' }],
          }),
        );
        return;
      }
      if (url.pathname !== '/') return void response.writeHead(404).end();
      // `?wrong=<file>`: the page pins a hash that is not that file's.
      const wrong = url.searchParams.get('wrong');
      const pinned = (file: string): string =>
        file === wrong ? integrity(Buffer.from('not the file')) : hashes.get(file)!;
      const map = {
        integrity: Object.fromEntries(
          RELEASE_FILES.filter((file) => file !== SCRIPT_TAG_FILE).map((file) => [
            `${cdnOrigin}/widget/${file}`,
            pinned(file),
          ]),
        ),
      };
      response.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html>
<html lang="en-US"><head><meta charset="utf-8"><title>SRI</title>
<script type="importmap">${JSON.stringify(map)}</script>
<script type="module" src="${cdnOrigin}/widget/${SCRIPT_TAG_FILE}" integrity="${pinned(SCRIPT_TAG_FILE)}" crossorigin="anonymous"></script>
</head><body><dk-domain-search api="/dk" debounce="0"></dk-domain-search></body></html>`);
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => cdn?.close(resolve));
    await new Promise((resolve) => site?.close(resolve));
  });

  /** Searches "coffee" on the page (`?wrong=` as given); returns the search's state and the result names shown. */
  async function search(wrong = ''): Promise<{ state: string | null; names: string[] }> {
    const page = await browser.newPage();
    await page.goto(`${siteOrigin}/${wrong && `?wrong=${wrong}`}`);
    await page.locator('dk-domain-search [part="input"]').fill('coffee');
    const host = page.locator('dk-domain-search');
    await expect.poll(() => host.getAttribute('data-state'), BUSY_MACHINE).toMatch(/^(results|error)$/);
    const result = {
      state: await host.getAttribute('data-state'),
      names: await page.locator('dk-domain-search [part="option"] [part="name"]').allTextContents(),
    };
    await page.close();
    return result;
  }

  it('with the right hashes (entry attribute, import map for the files beside it) the search shows results', async () => {
    expect(await search()).toEqual({ state: 'results', names: ['coffeehouse.com'] });
  });

  it('a wrong hash for the result rows file: it is refused, the search shows an error instead', async () => {
    expect(await search('domainkit-results.min.js')).toEqual({ state: 'error', names: [] });
  });

  it('a wrong hash on the entry: it is refused, the element never appears', async () => {
    const page = await browser.newPage();
    const refused = page.waitForEvent('console', (message) => /integrity/i.test(message.text()));
    await page.goto(`${siteOrigin}/?wrong=${SCRIPT_TAG_FILE}`);
    await refused;
    expect(await page.evaluate(() => customElements.get('dk-domain-search'))).toBeUndefined();
    await page.close();
  });
});
