/**
 * A newer answer replacing the results shown (a refinement typed while they were open) moves nothing on screen: its
 * rows are new rows, not the old ones with their name, badge and price rewritten and pushed sideways. A shift counted
 * as Cumulative Layout Shift when the answer lands more than 500 ms after the last keystroke (issue 23).
 */
import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { fixture, rows, untilState } from '../test-support/fixtures.ts';
import type { WidgetDomain } from '../types.ts';
import './domain-search.ts';

const FIRST: WidgetDomain[] = [
  { domain: 'coffee.io', available: true, price_cents: 95000, currency: 'USD' },
  { domain: 'coffeeshop.com', available: true, price_cents: 1999, currency: 'USD' },
  { domain: 'coffeebar.net', available: false, price_cents: null, currency: null },
];
const SECOND: WidgetDomain[] = [
  { domain: 'coffeestudio.com', available: true, price_cents: 12500000, currency: 'USD' },
  { domain: 'coffee-studio-and-roastery.io', available: false, price_cents: null, currency: null },
  { domain: 'studiocoffee.co', available: true, price_cents: 250000, currency: 'USD' },
];

const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

describe('<dk-domain-search> new results', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('replace the rows shown without shifting anything', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0', locale: 'en-US' });
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: FIRST });
    await untilState(search, 'results');
    await frames();
    const before = rows(search)[0];

    let shift = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) shift += entry.value;
    });
    observer.observe({ type: 'layout-shift' });
    search.search('coffee studio');
    await frames();
    (await stub.call(1)).respond(200, { query: 'coffee studio', results: SECOND });
    await untilState(search, 'results');
    await frames();
    await frames();
    observer.disconnect();

    expect(rows(search).map((row) => row.dataset.domain)).to.deep.equal(SECOND.map((r) => r.domain));
    expect(shift.toFixed(4)).to.equal('0.0000');
    expect(rows(search)[0]).not.to.equal(before);
  });

  it('mark a newer query in the rows shown without shifting anything', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0', locale: 'en-US' });
    search.search('cof');
    (await stub.call(0)).respond(200, { query: 'cof', results: FIRST });
    await untilState(search, 'results');
    await frames();

    let shift = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) shift += entry.value;
    });
    observer.observe({ type: 'layout-shift' });
    // The refinement is searched: the rows shown meanwhile mark its longer match.
    search.search('coffees');
    await search.updateComplete;
    await frames();
    await frames();
    observer.disconnect();

    expect(rows(search)[1]!.querySelector('mark')!.textContent).to.equal('coffees');
    expect(shift.toFixed(4)).to.equal('0.0000');
  });
});
