/**
 * Renders the widget's states into `docs/screenshots/*.png` (run with `node scripts/screenshots.ts [name…]` after
 * `pnpm build`; names pick shots): light, dark, right-to-left, the recent searches, the full-screen search on a
 * phone (light, dark, and Arabic with the recent searches), error, busy, and the MoR order flow with its countdown
 * and the placed order.
 *
 * Each shot is a small partner page built here, loading the script-tag build; every request is answered by
 * Playwright's router (the page, `domainkit.min.js`, and a stubbed BFF), so nothing listens on a port.
 * Chromium is the system's (CHROME_PATH, default /usr/bin/chromium); nothing is downloaded.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Page, type Route } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const out = join(root, '..', '..', 'docs', 'screenshots');
const ORIGIN = 'http://partner.test';

const RESULTS = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffeebeans.io', available: true, price_cents: 189900, currency: 'USD' },
  { domain: 'coffeeshop.co', available: true, price_cents: 74900, currency: 'USD' },
  { domain: 'mycoffee.app', available: true, price_cents: 39900, currency: 'USD' },
  { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
];

/** One screenshot: the page around the widget, the stubbed BFF's behaviour, and what the visitor does. */
interface Shot {
  readonly name: string;
  readonly dark?: boolean;
  readonly dir?: 'rtl';
  readonly lang?: string;
  readonly attributes?: string;
  /** A page script run before the widget loads (e.g. replacement strings). */
  readonly setup?: string;
  readonly search: 'results' | 'error' | 'busy';
  /** A phone (390 × 844 CSS px, touch): the shot is the screen, where the search opens full screen. */
  readonly phone?: boolean;
  readonly act: (page: Page) => Promise<void>;
}

/** The visitor's recent searches, as the element keeps them in localStorage. */
const RECENT = `localStorage.setItem('dk-recent-searches', JSON.stringify(['coffee', 'studio', 'garden']));`;
const AR = `import ar from '/domainkit-ar.min.js';
    customElements.whenDefined('dk-domain-search').then(() => {
      document.querySelector('dk-domain-search').strings = ar;
    });`;

const input = (page: Page) => page.locator('dk-domain-search [part="input"]');
const state = (page: Page, value: string) =>
  page.waitForFunction((v) => document.querySelector('dk-domain-search')?.getAttribute('data-state') === v, value);

async function typeAndWait(page: Page, query: string, expected: string): Promise<void> {
  await input(page).fill(query);
  await state(page, expected);
}

const SHOTS: Shot[] = [
  {
    name: 'light',
    search: 'results',
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'results');
      await input(page).press('ArrowDown');
      await input(page).press('ArrowDown');
    },
  },
  {
    name: 'dark',
    dark: true,
    attributes: 'theme="dark"',
    search: 'results',
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'results');
      await input(page).press('ArrowDown');
    },
  },
  {
    name: 'rtl',
    dir: 'rtl',
    lang: 'ar',
    search: 'results',
    // The Arabic language set shipped beside the entry (`domainkit-ar.min.js`), as a partner page would use it.
    setup: AR,
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'results');
      await input(page).press('ArrowDown');
    },
  },
  {
    name: 'recent-searches',
    search: 'results',
    setup: RECENT,
    act: async (page) => {
      await input(page).focus();
      await page.locator('dk-domain-search [part="recent"]').waitFor();
    },
  },
  {
    name: 'phone-panel',
    phone: true,
    search: 'results',
    act: async (page) => {
      await input(page).tap();
      await typeAndWait(page, 'coffee', 'results');
    },
  },
  {
    name: 'phone-panel-dark',
    phone: true,
    dark: true,
    attributes: 'theme="dark"',
    search: 'results',
    act: async (page) => {
      await input(page).tap();
      await typeAndWait(page, 'coffee', 'results');
    },
  },
  {
    name: 'phone-recent-rtl',
    phone: true,
    dir: 'rtl',
    lang: 'ar',
    search: 'results',
    setup: `${RECENT}\n${AR}`,
    act: async (page) => {
      await input(page).tap();
      await page.locator('dk-domain-search [part="recent"]').waitFor();
    },
  },
  {
    name: 'error',
    search: 'error',
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'error');
    },
  },
  {
    name: 'busy',
    search: 'busy',
    attributes: 'size="small"',
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'busy');
    },
  },
  {
    name: 'mor-countdown',
    search: 'results',
    attributes: 'mode="order"',
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'results');
      await input(page).press('ArrowDown');
      await input(page).press('Enter');
      await page.waitForFunction(
        () => document.querySelector('dk-domain-search')?.getAttribute('data-purchase') === 'quoted',
      );
      await page.waitForTimeout(1200); // let the countdown tick once
    },
  },
  {
    name: 'mor-dark-ordered',
    dark: true,
    search: 'results',
    attributes: 'mode="order" theme="dark"',
    act: async (page) => {
      await typeAndWait(page, 'coffee', 'results');
      await input(page).press('ArrowDown');
      await input(page).press('Enter');
      await page.waitForFunction(
        () => document.querySelector('dk-domain-search')?.getAttribute('data-purchase') === 'quoted',
      );
      await page.locator('#pay button').click();
      await page.waitForFunction(
        () => document.querySelector('dk-domain-search')?.getAttribute('data-purchase') === 'ordered',
      );
    },
  },
];

function pageHtml(shot: Shot): string {
  return `<!doctype html><html lang="${shot.lang ?? 'en-US'}" dir="${shot.dir ?? 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/page.css"><script type="module" src="/domainkit.min.js"></script><script type="module" src="/app.js"></script></head>
<body><main class="frame"><p class="eyebrow">${shot.dir ? 'أسماء أكمي' : 'Acme Domains'}</p>
<dk-domain-search api="/dk" debounce="0" ${shot.attributes ?? ''}>
<form slot="payment" id="pay" class="pay"><label>Email<input name="email" value="ada@example.com"></label><label>Card number<input name="card" value="4242 4242 4242 4242"></label><button>Pay $2,500</button></form>
</dk-domain-search></main>
</body></html>`;
}

function pageCss(shot: Shot): string {
  const dark = shot.dark === true;
  return `body{margin:0;font-family:system-ui,"Segoe UI",Roboto,"Noto Sans Arabic",sans-serif;background:${dark ? '#0b0f17' : '#f6f4ee'};color:${dark ? '#e5e7eb' : '#14213d'}}
.frame{box-sizing:border-box;width:min(640px,100%);padding:28px 32px 32px}
.eyebrow{margin:0 0 12px;font-size:13px;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:${dark ? '#8ab4ff' : '#0f766e'}}
.pay{display:grid;gap:8px;max-width:320px}.pay label{display:grid;gap:2px;font-size:14px}
.pay input{font:inherit;padding:7px 9px;border-radius:6px;${dark ? 'background:#0d1117;color:#e6e9ef;border:1px solid #3d4653' : 'background:#fff;color:#14213d;border:1px solid #c4cad3'}}
.pay button{justify-self:start;font:inherit;font-weight:600;padding:7px 16px;border:0;border-radius:6px;color:#fff;background:#0f766e}`;
}

const APP = `const form = document.getElementById('pay');
form.addEventListener('submit', (e) => { e.preventDefault(); form.dispatchEvent(new CustomEvent('dk-place-order', { bubbles: true,
  detail: { buyer: { email: 'ada@example.com' }, payment: { method: 'test_card', card_number: '4242 4242 4242 4242' } } })); });`;

async function serve(route: Route, shot: Shot, widget: Buffer): Promise<void> {
  const url = new URL(route.request().url());
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body), headers });
  // The files beside the entry: those it loads on first use, and the language sets.
  if (/^\/domainkit-[a-z]+\.min\.js$/.test(url.pathname))
    return route.fulfill({ contentType: 'text/javascript', body: await readFile(join(root, 'dist', url.pathname)) });
  switch (url.pathname) {
    case '/':
      return route.fulfill({ contentType: 'text/html', body: pageHtml(shot) });
    case '/page.css':
      return route.fulfill({ contentType: 'text/css', body: pageCss(shot) });
    case '/app.js':
      return route.fulfill({ contentType: 'text/javascript', body: `${shot.setup ?? ''}\n${APP}` });
    case '/domainkit.min.js':
      return route.fulfill({ contentType: 'text/javascript', body: widget });
    case '/dk/search':
      if (shot.search === 'error')
        return json(502, {
          error: {
            code: 'upstream_error',
            message: 'The marketplace is unavailable right now; please try again shortly.',
          },
        });
      if (shot.search === 'busy')
        return json(503, { error: { code: 'busy', message: 'Busy.', retry_after: 30 } }, { 'Retry-After': '30' });
      return json(200, { query: url.searchParams.get('q'), results: RESULTS });
    case '/dk/quotes':
      return json(201, {
        quote_id: 'q_1',
        domain: 'coffeehouse.com',
        price_cents: 250000,
        currency: 'USD',
        expires_at: new Date(Date.now() + 600_000).toISOString(),
      });
    case '/dk/orders':
      return json(201, {
        order_id: 'ord_7Q2K',
        order_token: 't',
        status: 'EXTERNALLY_PAID',
        domain: 'coffeehouse.com',
        sale_price_cents: 250000,
        currency: 'USD',
        created_at: new Date().toISOString(),
      });
  }
  return route.fulfill({ status: 404, body: '' });
}

const widget = await readFile(join(root, 'dist', 'domainkit.min.js')).catch(() => {
  throw new Error('dist/domainkit.min.js is missing: run `pnpm --filter @domainkit/widget build` first.');
});
await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  // `node scripts/screenshots.ts mor-countdown mor-dark-ordered` renders only those shots.
  const only = process.argv.slice(2);
  for (const shot of SHOTS.filter((s) => only.length === 0 || only.includes(s.name))) {
    const context = await browser.newContext({
      viewport: shot.phone ? { width: 390, height: 844 } : { width: 640, height: 720 },
      ...(shot.phone ? { hasTouch: true, isMobile: true } : {}),
      deviceScaleFactor: 2,
      colorScheme: 'light',
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.route(`${ORIGIN}/**`, (route) => serve(route, shot, widget));
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => customElements.get('dk-domain-search') !== undefined);
    await shot.act(page);
    const path = join(out, `${shot.name}.png`);
    if (shot.phone) await page.screenshot({ path, animations: 'disabled' });
    else {
      // The results open over the page, under the frame's bottom edge: the shot takes them in too.
      const frame = (await page.locator('.frame').boundingBox())!;
      const popup = await page.evaluate(() => {
        const boxes = [...document.querySelector('dk-domain-search')!.shadowRoot!.querySelectorAll('.pop > *')];
        return Math.max(0, ...boxes.map((box) => box.getBoundingClientRect().bottom));
      });
      const height = Math.max(frame.y + frame.height, popup + 32) - frame.y;
      await page.setViewportSize({ width: 640, height: Math.ceil(Math.max(720, frame.y + height)) });
      await page.screenshot({ path, clip: { ...frame, height }, animations: 'disabled' });
    }
    console.log(`docs/screenshots/${shot.name}.png`);
    await context.close();
  }
} finally {
  await browser.close();
}
