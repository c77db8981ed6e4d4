/**
 * axe-core on every state of both elements, in the light and dark themes, left-to-right and right-to-left,
 * and in each size: no violation of WCAG 2.x A/AA or of axe's best practices (colour contrast included).
 */
import { expect } from '@esm-bundle/chai';
import './index.ts';
import type { DkBuyButton } from './buy-button/buy-button.component.ts';
import type { DkDomainSearch } from './domain-search/domain-search.component.ts';
import { expectNoAxeViolations } from './test-support/axe.ts';
import { FakeClock } from './test-support/fake-clock.ts';
import { FetchStub, useFetchStub } from './test-support/fetch-stub.ts';
import { cleanup, fixture, part, settle, until, untilPurchase, untilState } from './test-support/fixtures.ts';

const RESULTS = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffeebeans.io', available: true, price_cents: 1999, currency: 'USD' },
  { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
];
/** Alternate TLDs (`siblings`): a hidden listing price, registrations with prices. */
const SIBLINGS = [
  {
    domain: 'coffee.net',
    tld: 'net',
    status: 'for_sale',
    available: true,
    price_cents: null,
    currency: null,
    kind: 'listing',
  },
  {
    domain: 'coffee.io',
    tld: 'io',
    status: 'available',
    available: true,
    price_cents: 3900,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.ai',
    tld: 'ai',
    status: 'available',
    available: true,
    price_cents: 16000,
    currency: 'USD',
    kind: 'registration',
  },
];
const T0 = Date.parse('2030-01-01T12:00:00Z');
const QUOTE = {
  quote_id: 'q_1',
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
  expires_at: '2030-01-01T12:10:00Z',
};
const ORDER = {
  order_id: 'ord_1',
  order_token: 't',
  status: 'EXTERNALLY_PAID',
  domain: 'coffeehouse.com',
  sale_price_cents: 250000,
  currency: 'USD',
  created_at: '2030-01-01T12:01:00Z',
};
const DETAILS = { buyer: { email: 'ada@example.com' }, payment: { method: 'test_card' } };

/** Each way a partner may show the widget. */
const VARIANTS: Array<{ name: string; attributes: Record<string, string>; dir?: string }> = [
  { name: 'light', attributes: { theme: 'light' } },
  { name: 'dark', attributes: { theme: 'dark' } },
  { name: 'RTL', attributes: {}, dir: 'rtl' },
  { name: 'dark RTL, small', attributes: { theme: 'dark', size: 'small' }, dir: 'rtl' },
  { name: 'large', attributes: { size: 'large' } },
];

/** Drives a search element into each state and checks it; `label` names the state in failures. */
type Step = (search: DkDomainSearch, stub: FetchStub, clock: FakeClock) => Promise<void>;

const SEARCH_STATES: Array<[string, Step]> = [
  ['initial', async () => {}],
  [
    'loading',
    async (search) => {
      search.search('coffee');
      await untilState(search, 'loading');
    },
  ],
  [
    'results, a row active',
    async (search, stub) => {
      search.search('coffee');
      (await stub.call(0)).respond(200, { query: 'coffee', results: RESULTS });
      await untilState(search, 'results');
      const input = part(search, '[part="input"]');
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, composed: true }));
      await search.updateComplete;
      expect(input.getAttribute('aria-activedescendant')).to.equal('cell-0');
    },
  ],
  [
    'results with siblings, a row active',
    async (search, stub) => {
      search.siblings = true;
      search.search('coffee');
      (await stub.call(0)).respond(200, { query: 'coffee', results: RESULTS });
      await untilState(search, 'results');
      (await stub.call(1)).respond(200, { query: 'coffee', siblings: SIBLINGS });
      await until(() => !!search.shadowRoot!.querySelector('[part="siblings"]'), 'the siblings are shown');
      const input = part(search, '[part="input"]');
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, composed: true }));
      await search.updateComplete;
      expect(input.getAttribute('aria-activedescendant')).to.equal('cell-0');
    },
  ],
  [
    'empty with siblings',
    async (search, stub) => {
      search.siblings = true;
      search.search('zzzz');
      (await stub.call(0)).respond(200, { query: 'zzzz', results: [] });
      await untilState(search, 'empty');
      (await stub.call(1)).respond(200, { query: 'zzzz', siblings: SIBLINGS });
      await until(() => !!search.shadowRoot!.querySelector('[part="siblings"]'), 'the siblings are shown');
    },
  ],
  [
    'empty',
    async (search, stub) => {
      search.search('zzzz');
      (await stub.call(0)).respond(200, { query: 'zzzz', results: [] });
      await untilState(search, 'empty');
    },
  ],
  [
    'error',
    async (search, stub) => {
      search.search('coffee');
      (await stub.call(0)).respond(502, {
        error: { code: 'upstream_error', message: 'The marketplace is unavailable right now.' },
      });
      await untilState(search, 'error');
    },
  ],
  [
    'busy',
    async (search, stub) => {
      search.search('coffee');
      (await stub.call(0)).respond(503, { error: { code: 'busy', message: 'Busy.', retry_after: 5 } });
      await untilState(search, 'busy');
    },
  ],
  [
    'offline',
    async (search, stub) => {
      search.search('coffee');
      (await stub.call(0)).failNetwork();
      await untilState(search, 'offline');
    },
  ],
  [
    'a result being bought, then failed',
    async (search, stub) => {
      search.search('coffee');
      (await stub.call(0)).respond(200, { query: 'coffee', results: RESULTS });
      await untilState(search, 'results');
      search.shadowRoot!.querySelector<HTMLElement>('[part="option"]')!.click();
      await untilPurchase(search, 'pending');
      await expectNoAxeViolations(search, 'pending purchase');
      (await stub.call(1)).respond(409, { error: { code: 'conflict', message: 'This domain was just sold.' } });
      // Sold, or held by another buyer's lock? The widget asks: sold.
      (await stub.call(2)).respond(200, {
        domain: RESULTS[0]!.domain,
        available: false,
        price_cents: null,
        currency: null,
      });
      await untilPurchase(search, 'idle');
    },
  ],
  [
    'order: quoted with a payment form',
    async (search, stub) => {
      await quoteFromSearch(search, stub);
    },
  ],
  [
    'order: payment declined',
    async (search, stub) => {
      await quoteFromSearch(search, stub);
      void search.placeOrder(DETAILS);
      (await stub.call(2)).respond(402, { error: { code: 'payment_declined', message: 'declined' } });
      await untilPurchase(search, 'quoted');
      await search.updateComplete;
    },
  ],
  [
    'order: price changed',
    async (search, stub) => {
      await quoteFromSearch(search, stub);
      void search.placeOrder(DETAILS);
      (await stub.call(2)).respond(422, { error: { code: 'price_mismatch', message: 'changed', price_cents: 260000 } });
      await untilPurchase(search, 'mismatch');
    },
  ],
  [
    'order: expired',
    async (search, stub, clock) => {
      await quoteFromSearch(search, stub);
      clock.advance(600_000);
      await untilPurchase(search, 'expired');
    },
  ],
  [
    'order: placed',
    async (search, stub) => {
      await quoteFromSearch(search, stub);
      void search.placeOrder(DETAILS);
      (await stub.call(2)).respond(201, ORDER);
      await untilPurchase(search, 'ordered');
    },
  ],
  [
    'order: sold meanwhile, payment refunded',
    async (search, stub) => {
      await quoteFromSearch(search, stub);
      void search.placeOrder(DETAILS);
      (await stub.call(2)).respond(409, { error: { code: 'conflict', message: 'sold', money: 'refunded' } });
      await untilPurchase(search, 'failed');
    },
  ],
  [
    'order: processing, then refunded',
    async (search, stub, clock) => {
      await quoteFromSearch(search, stub);
      void search.placeOrder(DETAILS);
      (await stub.call(2)).respond(202, { ...ORDER, status: 'PROCESSING' });
      await untilPurchase(search, 'ordered');
      clock.advance(5000);
      (await stub.call(3)).respond(200, { ...ORDER, status: 'REFUNDED', money: 'refunded' });
      await settle(search);
    },
  ],
];

async function quoteFromSearch(search: DkDomainSearch, stub: FetchStub): Promise<void> {
  search.mode = 'order';
  const form = document.createElement('form');
  form.slot = 'payment';
  form.innerHTML =
    '<label>Card number <input name="card_number" autocomplete="cc-number"></label> <button>Pay</button>';
  search.append(form);
  search.search('coffee');
  (await stub.call(0)).respond(200, { query: 'coffee', results: RESULTS });
  await untilState(search, 'results');
  search.shadowRoot!.querySelector<HTMLElement>('[part="option"]')!.click();
  (await stub.call(1)).respond(201, QUOTE);
  await untilPurchase(search, 'quoted');
}

const BUTTON_STATES: Array<[string, (el: DkBuyButton, stub: FetchStub) => Promise<void>]> = [
  ['idle', async () => {}],
  [
    'busy',
    async (el) => {
      void el.buy();
      await untilPurchase(el, 'pending');
    },
  ],
  [
    'error',
    async (el, stub) => {
      void el.buy();
      (await stub.call(0)).respond(502, {
        error: { code: 'upstream_error', message: 'The marketplace is unavailable right now.' },
      });
      await untilPurchase(el, 'idle');
      await el.updateComplete;
    },
  ],
  [
    'order: quoted',
    async (el, stub) => {
      el.mode = 'order';
      void el.buy();
      (await stub.call(0)).respond(201, QUOTE);
      await untilPurchase(el, 'quoted');
    },
  ],
];

for (const variant of VARIANTS) {
  describe(`axe-core, ${variant.name}`, () => {
    let stub: FetchStub;
    useFetchStub((fresh) => {
      stub = fresh;
    });

    for (const [state, step] of SEARCH_STATES) {
      it(`<dk-domain-search> ${state}`, async () => {
        const search = await fixture('dk-domain-search', { debounce: '0', locale: 'en-US', ...variant.attributes });
        if (variant.dir) search.parentElement!.dir = variant.dir;
        const clock = new FakeClock(T0);
        search.clock = clock;
        await step(search, stub, clock);
        await expectNoAxeViolations(search.parentElement!, `<dk-domain-search> ${state}`);
      });
    }

    for (const [state, step] of BUTTON_STATES) {
      it(`<dk-buy-button> ${state}`, async () => {
        const el = await fixture('dk-buy-button', {
          domain: 'coffeehouse.com',
          locale: 'en-US',
          ...variant.attributes,
        });
        if (variant.dir) el.parentElement!.dir = variant.dir;
        el.clock = new FakeClock(T0);
        el.textContent = 'Buy coffeehouse.com';
        await step(el, stub);
        await expectNoAxeViolations(el.parentElement!, `<dk-buy-button> ${state}`);
      });
    }
  });
}

describe('the axe-core check itself', () => {
  afterEach(() => cleanup());

  it('fails on a nested interactive control and on low contrast, inside a shadow root', async () => {
    const el = await fixture('dk-buy-button', {});
    const root = el.shadowRoot!;
    const bad = document.createElement('div');
    bad.innerHTML =
      '<div role="listbox" aria-label="x"><div role="option" aria-selected="false">a <button>b</button></div></div><p style="color:#ccc;background:#fff">faint</p>';
    root.append(bad);
    let message = '';
    try {
      await expectNoAxeViolations(el.parentElement!);
    } catch (error) {
      message = String(error);
    }
    expect(message).to.contain('nested-interactive');
    expect(message).to.contain('color-contrast');
  });
});

describe('RTL layout', () => {
  afterEach(() => cleanup());

  it('mirrors the search box: the spinner sits at the inline end, which is the left in RTL', async () => {
    const stub = new FetchStub();
    try {
      const search = await fixture('dk-domain-search', { debounce: '0' });
      search.parentElement!.dir = 'rtl';
      search.search('coffee');
      await untilState(search, 'loading');
      const input = part(search, '[part="input"]').getBoundingClientRect();
      const spinner = part(search, '[part="spinner"]').getBoundingClientRect();
      expect(spinner.left - input.left, 'near the left edge').to.be.lessThan(input.width / 4);
      expect(getComputedStyle(part(search, '[part="input"]')).paddingLeft).to.not.equal(
        getComputedStyle(part(search, '[part="input"]')).paddingRight,
      );
    } finally {
      stub.restore();
    }
  });
});
