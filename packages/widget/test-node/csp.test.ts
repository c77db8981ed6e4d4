/**
 * The script-tag build under a strict Content-Security-Policy (`script-src 'self'; style-src 'self'`): a page
 * served with that header runs a search and a whole MoR order through the widget in headless Chromium, in
 * both themes, and no `securitypolicyviolation` event is reported. A deliberate inline style at the end
 * proves the probe would have seen one.
 *
 * Then under the README's example policy, which adds Trusted Types (`require-trusted-types-for 'script';
 * trusted-types lit-html`, the policy the README names): the same page searches (the result rows, rendered by a
 * file loaded on first use, appear) and places an order with no violation. With `lit-html` left out of
 * `trusted-types` the elements are never defined (the failure the README's advice prevents), which also proves the
 * page really enforces Trusted Types.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CSP = "script-src 'self'; style-src 'self'";
/**
 * The README's example: the strict policy, `connect-src` for the BFF, and Trusted Types with the one policy the
 * widget creates (Lit's, named `lit-html`).
 */
const TRUSTED_TYPES = `default-src 'self'; ${CSP}; connect-src 'self'; require-trusted-types-for 'script'; trusted-types lit-html`;
/** The same with no policy allowed: what a page gets when it leaves `lit-html` out. */
const TRUSTED_TYPES_WITHOUT_LIT = TRUSTED_TYPES.replace('trusted-types lit-html', "trusted-types 'none'");
/** How long a state may take to show under Trusted Types (files beside the entry load first), on a busy machine. */
const BUSY_MACHINE = { timeout: 10_000 };
/** The header of a page by its `?csp=` (default {@link CSP}). */
const POLICIES: Readonly<Record<string, string>> = {
  strict: CSP,
  tt: TRUSTED_TYPES,
  'tt-without-lit': TRUSTED_TYPES_WITHOUT_LIT,
};
const dist = fileURLToPath(new URL('../dist/', import.meta.url));

const PAGE = `<!doctype html>
<html lang="en-US">
<head>
  <meta charset="utf-8">
  <title>CSP check</title>
  <script src="/probe.js"></script>
  <script type="module" src="/domainkit.min.js"></script>
  <script type="module" src="/app.js"></script>
</head>
<body>
  <main>
    <h1>CSP check</h1>
    <dk-domain-search api="/dk" mode="order" debounce="0"><form slot="payment" id="pay"><label>Email <input name="email" value="ada@example.com"></label><button>Pay</button></form></dk-domain-search>
    <dk-buy-button api="/dk" domain="coffeehouse.com" theme="dark">Buy coffeehouse.com</dk-buy-button>
  </main>
</body>
</html>`;

/** Loaded first, as a classic script: records every CSP violation where the test can read it. */
const PROBE = `window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + e.sourceFile + ':' + e.lineNumber);
});`;

/** The partner's own script: hands the payment form's submission to the widget. */
const APP = `const form = document.getElementById('pay');
form.addEventListener('submit', (event) => {
  event.preventDefault();
  form.dispatchEvent(new CustomEvent('dk-place-order', { bubbles: true, detail: {
    buyer: { email: form.elements.email.value }, payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
  } }));
});`;

const json = (body: unknown): [string, string] => ['application/json', JSON.stringify(body)];
const later = new Date(Date.now() + 600_000).toISOString();

/** The stub BFF and the static files, by path. */
async function route(path: string): Promise<[string, string | Buffer] | undefined> {
  // The entry and the files it loads on first use (the order flow), from beside it.
  if (/^\/domainkit(-[a-z]+)?\.min\.js$/.test(path))
    return ['text/javascript', await readFile(`${dist}${path.slice(1)}`)];
  switch (path) {
    case '/':
      return ['text/html', PAGE];
    case '/probe.js':
      return ['text/javascript', PROBE];
    case '/app.js':
      return ['text/javascript', APP];
    case '/dk/search':
      return json({
        query: 'coffee',
        results: [
          { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
          { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
        ],
      });
    case '/dk/quotes':
      return json({
        quote_id: 'q_1',
        domain: 'coffeehouse.com',
        price_cents: 250000,
        currency: 'USD',
        expires_at: later,
      });
    case '/dk/orders':
      return json({
        order_id: 'ord_1',
        order_token: 't',
        status: 'EXTERNALLY_PAID',
        domain: 'coffeehouse.com',
        sale_price_cents: 250000,
        currency: 'USD',
        created_at: later,
      });
    default:
      return undefined;
  }
}

let server: Server;
let browser: Browser;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const requested = new URL(request.url ?? '/', 'http://x');
    const policy = POLICIES[requested.searchParams.get('csp') ?? 'strict'] ?? CSP;
    void route(requested.pathname).then((found) => {
      if (!found) return void response.writeHead(404).end();
      const status = request.method === 'POST' ? 201 : 200;
      response.writeHead(status, { 'Content-Type': found[0], 'Content-Security-Policy': policy }).end(found[1]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const violations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { violations: string[] }).violations);

describe(`the widget under Content-Security-Policy: ${CSP}`, () => {
  it('searches, locks a price and places an order with no CSP violation', async () => {
    const page = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const response = await page.goto(url);
    expect(response?.headers()['content-security-policy']).toBe(CSP);

    const search = page.locator('dk-domain-search');
    await page.locator('dk-domain-search [part="input"]').fill('coffee');
    await expect.poll(() => search.getAttribute('data-state')).toBe('results');
    await page.locator('dk-domain-search [part="input"]').press('ArrowDown');
    await page.locator('dk-domain-search [part="input"]').press('Enter');
    await expect.poll(() => search.getAttribute('data-purchase')).toBe('quoted');
    expect(await page.locator('dk-domain-search [part="countdown"]').textContent()).toMatch(
      /Price locked for (10:00|09:5\d)/,
    );
    await page.locator('#pay button').click();
    await expect.poll(() => search.getAttribute('data-purchase')).toBe('ordered');

    // The styles really applied (constructable stylesheets, not blocked inline <style>).
    const buttonBackground = await page
      .locator('dk-buy-button [part="buy-button"]')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(buttonBackground).toBe('rgb(29, 78, 216)');
    expect(await violations(page)).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);

    // The probe works: an inline style the page itself adds is reported.
    await page.evaluate(() =>
      document.head.append(Object.assign(document.createElement('style'), { textContent: 'p{}' })),
    );
    await expect.poll(() => violations(page)).toHaveLength(1);
    await page.close();
  });
});

describe(`the widget under Trusted Types (${TRUSTED_TYPES})`, () => {
  it('searches (result rows rendered), locks a price and places an order with no violation', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${url}?csp=tt`);
    expect(response?.headers()['content-security-policy']).toBe(TRUSTED_TYPES);
    expect(await page.evaluate(() => 'trustedTypes' in window)).toBe(true);

    const search = page.locator('dk-domain-search');
    const input = page.locator('dk-domain-search [part="input"]');
    await input.fill('coffee');
    await expect.poll(() => search.getAttribute('data-state'), BUSY_MACHINE).toBe('results');
    expect(await page.locator('dk-domain-search [part="option"] [part="name"]').allTextContents()).toEqual([
      'coffeehouse.com',
      'coffee.shop',
    ]);
    await input.press('ArrowDown');
    await input.press('Enter');
    await expect.poll(() => search.getAttribute('data-purchase'), BUSY_MACHINE).toBe('quoted');
    await page.locator('#pay button').click();
    await expect.poll(() => search.getAttribute('data-purchase'), BUSY_MACHINE).toBe('ordered');
    expect(await page.locator('dk-buy-button [part="buy-button"]').count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("without lit-html among the allowed policies (trusted-types 'none') the elements never appear", async () => {
    const page = await browser.newPage();
    await page.goto(`${url}?csp=tt-without-lit`);
    await expect.poll(() => violations(page), BUSY_MACHINE).toContainEqual(expect.stringMatching(/^trusted-types /));
    // Lit's policy could not be created, so the entry stopped before defining anything.
    expect(await page.evaluate(() => customElements.get('dk-domain-search'))).toBeUndefined();
    expect(await page.locator('dk-domain-search [part="input"]').count()).toBe(0);
    await page.close();
  });
});
