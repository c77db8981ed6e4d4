/**
 * `pnpm --filter @domainkit/e2e screenshots`: the visitor's journey beyond the widget, shot in headless Chromium
 * against the real demo stack (sandbox marketplace + BFF + the example pages, on 127.0.0.1 ports of its own and a
 * fresh data folder), into `docs/screenshots/`:
 *
 * - `checkout-phone.png`, `checkout-phone-dark.png`, `checkout-phone-ar.png`: the marketplace's hosted checkout on a
 *   390 px phone (light, dark, and in Arabic for a browser that asks for it: right to left); `checkout.png` at
 *   1280 px; `checkout-email-error-phone.png` (390 px) and `checkout-email-error.png` (1280 px): an e-mail address
 *   that is not one, and what to fix.
 * - `receipt-phone-dark.png`, `receipt-phone-ar.png` (390 px), `receipt.png` (1280 px): the receipt after Pay, its
 *   automatic return to the shop announced, with the Stay button.
 * - `return-confirmed.png` (1280 px), `return-confirmed-phone-dark.png` (390 px, dark): back on the partner page
 *   after paying, the confirmation `<dk-checkout-return>` shows once the BFF verified the sale.
 * - `mor-ordered.png` (1280 px), `mor-ordered-phone-dark.png` (390 px, dark): the React SPA as Merchant of Record,
 *   the placed order's thank-you view.
 * - `prices-ar-phone.png` (390 px, the search full screen), `prices-ar.png` (1280 px, dark, the results over the
 *   page): the script-tag page in Arabic, right to left.
 * - `verdict-taken-phone.png`, `verdict-taken-phone-dark.png` (390 px), `verdict-taken.png` (1280 px): a whole name
 *   typed that someone registered, its holder looked up, above the partial matches;
 *   `verdict-unregistered-phone-dark.png` (390 px): a name nobody registered.
 *
 * The widget's own states (stubbed BFF) are shot by `packages/widget/scripts/screenshots.ts`. Build the widget and
 * the SPA first (`pnpm --filter @domainkit/widget build && pnpm --filter @domainkit/example-spa build`).
 * Chromium is the system's: CHROME_PATH, default /usr/bin/chromium.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '@domainkit/example-demo';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const out = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
/** The test card the sandbox's hosted checkout accepts. */
const TEST_CARD = '4242 4242 4242 4242';
/** The buyer's e-mail on the hosted checkout. */
const EMAIL = 'ada@example.com';

/** Screen sizes: a phone and a laptop. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const dataDir = await mkdtemp(join(tmpdir(), 'dk-shots-'));
const demo = await startDemo({ port: 0, sandboxPort: 0, dataDir, quiet: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});

/** A fresh visitor: a browser context at `viewport` in `scheme` (and `locale`: Accept-Language), animations reduced. */
async function visitor(
  viewport: { width: number; height: number },
  scheme: 'light' | 'dark',
  locale = 'en-US',
): Promise<BrowserContext> {
  return browser.newContext({ viewport, colorScheme: scheme, locale, deviceScaleFactor: 2, reducedMotion: 'reduce' });
}

/** Types `word` into the page's search and waits for its results. */
async function search(page: Page, word: string): Promise<void> {
  const input = page.locator('dk-domain-search [part="input"]');
  await input.fill('');
  await input.pressSequentially(word, { delay: 20 });
  await page.waitForFunction(
    () => document.querySelector('dk-domain-search')?.getAttribute('data-state') === 'results',
  );
}

/** Clicks Buy on the first available result of `word`; resolves on the hosted checkout. */
async function buyFirst(page: Page, word: string): Promise<void> {
  await search(page, word);
  const lander = page.getByTestId('lander-domain');
  // A "busy" answer (the shop's write budget is shared by every shot) is waited out, as a visitor would.
  for (let attempt = 1; ; attempt++) {
    await page.locator('dk-domain-search [part="option"] [part="buy-button"]').first().click();
    await lander.or(page.locator('dk-domain-search [part="buy-error"]')).first().waitFor();
    if (await lander.isVisible()) return;
    if (attempt === 5) throw new Error(`buying a "${word}" result: the shop stayed busy`);
    await page.waitForTimeout(15_000);
  }
}

/**
 * Saves the part of the page `selector` covers, with `pad` CSS pixels of the page around it, as `name`; the search
 * box's results, which open over the page below it, are taken in too.
 */
async function shootPart(page: Page, selector: string, name: string, pad = 24): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await page.locator(selector).first().boundingBox())!;
  const popup = await page.evaluate(() => {
    const pieces = document.querySelector('dk-domain-search')?.shadowRoot?.querySelectorAll('.pop > *') ?? [];
    return Math.max(0, ...[...pieces].map((piece) => piece.getBoundingClientRect().bottom));
  });
  box.height = Math.max(box.height, popup - box.y);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const x = Math.max(0, box.x - pad);
  const clip = {
    x,
    y: Math.max(0, box.y - pad),
    width: Math.min(width - x, box.width + 2 * pad),
    height: box.height + 2 * pad,
  };
  await page.screenshot({ path: join(out, name), fullPage: true, clip, animations: 'disabled', caret: 'initial' });
  console.log(`docs/screenshots/${name}`);
}

/** On the hosted checkout: fills the e-mail and the card, then presses Pay. */
async function fillAndPay(page: Page, email: string, pay = true): Promise<void> {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="card_number"]').fill(TEST_CARD);
  if (pay) await page.locator('button[type="submit"]').first().click();
}

/** Waits for the receipt's announced automatic return (shot before it returns, 10 s later). */
async function onReceipt(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (document.querySelector('[data-testid="lander-auto-return"]')?.textContent ?? '') !== '',
  );
}

/** Saves the page (whole when `fullPage`, else the viewport) as `name`. */
async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(out, name), fullPage, animations: 'disabled', caret: 'initial' });
  console.log(`docs/screenshots/${name}`);
}

try {
  await mkdir(out, { recursive: true });

  // Merchant of Record on the React SPA: locked price, the partner's payment form, the placed order.
  for (const [viewport, dark, word, name] of [
    [DESKTOP, false, 'river', 'mor-ordered.png'],
    [PHONE, true, 'market', 'mor-ordered-phone-dark.png'],
  ] as const) {
    const context = await visitor(viewport, dark ? 'dark' : 'light');
    const page = await context.newPage();
    await page.goto(new URL('spa/', demo.url).href);
    await page.getByLabel('Buying flow').selectOption('order');
    if (dark) await page.getByLabel('Dark theme').check();
    await search(page, word);
    await page.locator('dk-domain-search [part="option"] [part="buy-button"]').first().click();
    await page.waitForFunction(
      () => document.querySelector('dk-domain-search')?.getAttribute('data-purchase') === 'quoted',
    );
    // The shop's write budget (a burst of 5, then 20 a minute) is shared by every shot: a "busy" answer is waited
    // out and Pay pressed again, as a visitor would.
    for (let attempt = 1; ; attempt++) {
      await page.locator('form.payment button[type="submit"]').click();
      const state = await page
        .waitForFunction(() => {
          const host = document.querySelector('dk-domain-search');
          const busy = /busy/i.test(host?.shadowRoot?.querySelector('[part="order"]')?.textContent ?? '');
          return host?.getAttribute('data-purchase') === 'ordered' ? 'ordered' : busy && 'busy';
        })
        .then((handle) => handle.jsonValue());
      if (state === 'ordered') break;
      if (attempt === 5) throw new Error(`${name}: the shop stayed busy`);
      await page.waitForTimeout(15_000);
    }
    await shootPart(page, 'dk-domain-search', name, dark ? 12 : 24);
    await context.close();
  }

  // The hosted checkout on a phone, light and dark; then pay and come back to the partner page.
  for (const scheme of ['light', 'dark'] as const) {
    const context = await visitor(PHONE, scheme);
    const page = await context.newPage();
    await page.goto(demo.url);
    await buyFirst(page, scheme === 'light' ? 'coffee' : 'garden');
    await fillAndPay(page, EMAIL, false);
    await shoot(page, scheme === 'light' ? 'checkout-phone.png' : 'checkout-phone-dark.png', true);
    if (scheme === 'light') {
      await fillAndPay(page, 'ada.example.com');
      await page.getByTestId('lander-form-error').waitFor();
      await shoot(page, 'checkout-email-error-phone.png', true);
    }
    if (scheme === 'dark') {
      await page.locator('button[type="submit"]').first().click();
      await onReceipt(page);
      await shoot(page, 'receipt-phone-dark.png', true);
      await page.getByTestId('lander-return').click();
      await page.waitForFunction(
        () => document.querySelector('dk-checkout-return')?.getAttribute('data-state') === 'confirmed',
      );
      await shoot(page, 'return-confirmed-phone-dark.png');
    }
    await context.close();
  }
  {
    // An Arabic-speaking visitor's browser: the hosted checkout answers its Accept-Language, right to left.
    const context = await visitor(PHONE, 'light', 'ar');
    const page = await context.newPage();
    await page.goto(new URL('?lang=ar', demo.url).href);
    await buyFirst(page, 'coffee');
    await fillAndPay(page, EMAIL, false);
    await shoot(page, 'checkout-phone-ar.png', true);
    await page.locator('button[type="submit"]').first().click();
    await onReceipt(page);
    await shoot(page, 'receipt-phone-ar.png', true);
    await context.close();
  }
  {
    const context = await visitor(DESKTOP, 'light');
    const page = await context.newPage();
    await page.goto(demo.url);
    await buyFirst(page, 'studio');
    await fillAndPay(page, EMAIL, false);
    await shoot(page, 'checkout.png');
    await fillAndPay(page, 'ada.example.com');
    await page.getByTestId('lander-form-error').waitFor();
    await shoot(page, 'checkout-email-error.png');
    await fillAndPay(page, EMAIL);
    await onReceipt(page);
    await shoot(page, 'receipt.png');
    await page.getByTestId('lander-return').click();
    await page.waitForFunction(
      () => document.querySelector('dk-checkout-return')?.getAttribute('data-state') === 'confirmed',
    );
    await shoot(page, 'return-confirmed.png');
    await context.close();
  }

  // Arabic prices, right to left: the script-tag page's language switch (?lang=ar).
  for (const [viewport, scheme, name] of [
    [PHONE, 'light', 'prices-ar-phone.png'],
    [DESKTOP, 'dark', 'prices-ar.png'],
  ] as const) {
    const context = await visitor(viewport, scheme);
    const page = await context.newPage();
    await page.goto(new URL('?lang=ar', demo.url).href);
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await search(page, 'cloud');
    // On a phone the search is full screen: the shot is the screen.
    if (viewport === PHONE) await shoot(page, name);
    else await shootPart(page, '#search', name, 16);
    await context.close();
  }

  // A whole name typed gets its verdict above the partial matches: live-site.com is taken (its holder looked up),
  // zebra-garden.com nobody registered.
  for (const [viewport, scheme, word, name] of [
    [PHONE, 'light', 'live-site.com', 'verdict-taken-phone.png'],
    [DESKTOP, 'light', 'live-site.com', 'verdict-taken.png'],
    [PHONE, 'dark', 'live-site.com', 'verdict-taken-phone-dark.png'],
    [PHONE, 'dark', 'zebra-garden.com', 'verdict-unregistered-phone-dark.png'],
  ] as const) {
    const context = await visitor(viewport, scheme);
    const page = await context.newPage();
    await page.goto(demo.url);
    await search(page, word);
    const verdict = page.locator('dk-domain-search [part="verdict"]');
    // The Public API's word comes after the results: until then the verdict says only "not listed here".
    await page.waitForFunction(() => {
      const shown = document.querySelector('dk-domain-search')?.shadowRoot?.querySelector('[part="verdict"]');
      return shown !== null && shown !== undefined && shown.getAttribute('data-verdict') !== 'unlisted';
    });
    if (word === 'live-site.com') {
      await verdict.locator('[part="whois-button"]').click();
      await page.locator('dk-domain-search [part="whois"]').waitFor();
    }
    if (viewport === PHONE) await shoot(page, name);
    else await shootPart(page, '#search', name, 16);
    await context.close();
  }
} finally {
  await browser.close();
  await demo.close();
  await rm(dataDir, { recursive: true, force: true });
}
