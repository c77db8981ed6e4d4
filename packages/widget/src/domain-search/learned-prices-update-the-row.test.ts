/**
 * A price the BFF gives for a domain after the search listed it (a checkout session's, a quote's: the marketplace's
 * current one) replaces the row's price at once, and the search forgets its cached answers, which may hold the old
 * one: asking again goes to the BFF, whose cache the same price corrected.
 */
import { expect } from '@esm-bundle/chai';
import { FakeClock } from '../test-support/fake-clock.ts';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { fixture, part, rows, untilPurchase, untilState } from '../test-support/fixtures.ts';
import type { WidgetDomain } from '../types.ts';
import type { DkDomainSearch } from './domain-search.component.ts';
import './domain-search.ts';

const T0 = Date.parse('2030-01-01T12:00:00Z');
const COFFEE: WidgetDomain[] = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffeebeans.io', available: true, price_cents: 1999, currency: 'USD' },
];

const priceOf = (search: DkDomainSearch, i: number) => rows(search)[i]!.querySelector('[part="price"]')!.textContent;

describe('<dk-domain-search> shows a price learned after the search', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('from the checkout session', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0', target: '_blank', locale: 'en-US' });
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    expect(priceOf(search, 0)).to.contain('2,500');
    search.addEventListener('dk-checkout-start', (event) => event.preventDefault()); // the test page stays

    rows(search)[0]!.querySelector<HTMLButtonElement>('[part="buy-button"]')!.click();
    (await stub.call(1)).respond(201, {
      checkout_url: 'https://market.example/checkout?pt=t1',
      expires_at: '2030-01-08T00:00:00Z',
      price_cents: 275000,
      currency: 'USD',
    });
    await untilPurchase(search, 'idle');
    await search.updateComplete;

    expect(priceOf(search, 0)).to.contain('2,750');
    expect(priceOf(search, 1)).to.contain('19.99');
    search.search('coffee'); // the cached answer held the old price: asked again
    const again = await stub.call(2);
    expect(again.url.searchParams.get('q')).to.equal('coffee');
  });

  it('from a quote', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0', mode: 'order', locale: 'en-US' });
    search.clock = new FakeClock(T0);
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');

    rows(search)[0]!.click();
    (await stub.call(1)).respond(201, {
      quote_id: 'q_1',
      domain: 'coffeehouse.com',
      price_cents: 275000,
      currency: 'USD',
      expires_at: new Date(T0 + 10 * 60_000).toISOString(),
    });
    await untilPurchase(search, 'quoted');
    part<HTMLButtonElement>(search, '[part="cancel-button"]').click();
    await untilPurchase(search, 'idle');

    expect(priceOf(search, 0)).to.contain('2,750');
  });
});
