/**
 * The widget diagnoses its BFF in a real browser: a page on one origin whose `api` points at a BFF on another
 * origin that does not allow it (no `allowedOrigins`) fires `dk-error` with `bff_unreachable` (not the visitor's
 * "offline"), warns the developer in the console naming the origin to allow, and the BFF logs the refused origin at
 * warn. An `api` that answers a static 404 page is `bff_misconfigured`.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBff, type RunningBff } from '@domainkit/bff';
import express from 'express';
import type { Browser } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';

const widgetDist = dirname(fileURLToPath(import.meta.resolve('@domainkit/widget/domainkit.min.js')));
let browser: Browser;
let bff: RunningBff;
let page: Server;
let pageUrl: string;
const bffLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  bff = await startBff({
    port: 0,
    // Never reached: the browser refuses the answer before the widget could use it.
    marketplace: {
      baseUrl: 'http://127.0.0.1:9',
      keyId: 'pk_test_diagnosis00000000000000',
      secret: `sk_test_${'d'.repeat(40)}`,
    },
    checkCredential: false,
    siblings: false,
    logger: pino({ level: 'info' }, { write: (l: string) => void bffLines.push(JSON.parse(l)) }),
  });
  const app = express();
  app.use('/widget', express.static(widgetDist, { index: false }));
  app.get('/shop', (req, res) => {
    const api = req.query.api === 'missing' ? '/no-bff-here' : bff.url;
    res.type('html').send(`<!doctype html><html><body>
<script>window.__errors = []; document.addEventListener('dk-error', (e) => window.__errors.push(e.detail));</script>
<script type="module" src="/widget/domainkit.min.js"></script>
<dk-domain-search api="${api}" debounce="0"></dk-domain-search>
</body></html>`);
  });
  page = createServer(app).listen(0, '127.0.0.1');
  await once(page, 'listening');
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await bff?.close();
  await new Promise((r) => page?.close(r));
});

async function searchOn(path: string) {
  const tab = await browser.newPage();
  const warnings: string[] = [];
  tab.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await tab.goto(`${pageUrl}${path}`);
  await tab.locator('dk-domain-search [part="input"]').fill('coffee');
  // The failure arrives after the typing pause, the refused request and the lazily loaded error words: on a busy
  // machine that is more than expect.poll's default second, so it is given the time a visitor would wait.
  await expect
    .poll(() => tab.evaluate(() => (window as unknown as { __errors: unknown[] }).__errors.length), { timeout: 15_000 })
    .toBe(1);
  const [detail] = await tab.evaluate(() => (window as unknown as { __errors: unknown[] }).__errors);
  const state = await tab.locator('dk-domain-search').getAttribute('data-state');
  await tab.close();
  return { detail: detail as { code: string; message: string }, state, warnings };
}

it('a BFF that does not allow the page origin: dk-error bff_unreachable, a console warning, a warn line', async () => {
  const { detail, state, warnings } = await searchOn('/shop');
  expect(detail.code).toBe('bff_unreachable');
  expect(state).toBe('error');
  expect(state).not.toBe('offline');
  expect(warnings.join('\n')).toContain(`add "${pageUrl}" to its allowedOrigins`);
  await expect
    .poll(() => bffLines.find((l) => l.level === 40 && l.origin === pageUrl))
    .toMatchObject({ msg: expect.stringContaining('add this origin to allowedOrigins') });
});

it('an api URL that is not a BFF: dk-error bff_misconfigured', async () => {
  const { detail, state } = await searchOn('/shop?api=missing');
  expect(detail.code).toBe('bff_misconfigured');
  expect(state).toBe('error');
});
