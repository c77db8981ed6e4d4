/**
 * The visitor's journey around the widget: leaving for the hosted checkout and coming back (back/forward cache),
 * refining a search while results are shown, and typing at a phone's pace.
 */
import { expect } from '@esm-bundle/chai';
import './domain-search/domain-search.ts';
import { FetchStub } from './test-support/fetch-stub.ts';
import { cleanup, fixture, rows, settle, untilPurchase, untilState } from './test-support/fixtures.ts';
import type { DomainResult } from './types.ts';

const COFFEE: DomainResult[] = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffeebeans.io', available: true, price_cents: 1999, currency: 'USD' },
];

describe('the journey', () => {
  let stub: FetchStub;
  beforeEach(() => {
    stub = new FetchStub();
  });
  afterEach(() => {
    cleanup();
    stub.restore();
  });

  it('back from the hosted checkout (bfcache): the purchase is reset and every Buy works again', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const visited: string[] = [];
    search.navigate = (url) => visited.push(url);
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    rows(search)[0]!.querySelector<HTMLButtonElement>('[part="buy-button"]')!.click();
    (await stub.call(1)).respond(201, { checkout_url: 'https://market.example/checkout/cs_1', expires_at: null });
    await untilPurchase(search, 'pending'); // the page is unloading
    await settle(search);
    expect(visited).to.deep.equal(['https://market.example/checkout/cs_1']);
    // The visitor presses Back on the checkout page: the page comes back from the back/forward cache.
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await untilPurchase(search, 'idle');
    const buttons = rows(search).map((row) => row.querySelector('[part="buy-button"]')!);
    expect(buttons.map((b) => b.getAttribute('aria-disabled'))).to.deep.equal(['false', 'false']);
    expect(search.shadowRoot!.querySelector('[part="option"] [part="spinner"]'), 'no spinner left').to.equal(null);
    rows(search)[1]!.querySelector<HTMLButtonElement>('[part="buy-button"]')!.click();
    const again = await stub.call(2);
    expect([again.url.pathname, again.json]).to.deep.equal(['/dk/checkout', { domain: 'coffeebeans.io' }]);
  });
});
