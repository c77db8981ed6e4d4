import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { fixture, rows, settle, untilState } from '../test-support/fixtures.ts';
import type { WidgetDomain } from '../types.ts';
import './domain-search.ts';

/**
 * On a narrow search box (a phone) a row does not fit on one line: the price and its Buy move to the second line
 * together, whatever the name's length, so every row reads the same (never the price beside the name and Buy alone
 * below it).
 */
describe('<dk-domain-search> on a narrow box: each price on the line of its Buy', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  const RESULTS: WidgetDomain[] = [
    { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
    { domain: 'coffeeshop.co', available: true, price_cents: 74900, currency: 'USD' },
    { domain: 'mycoffee.app', available: true, price_cents: 39900, currency: 'USD' },
  ];

  /** Per row: whether the price sits on its Buy's line, and whether that line is below the name's. */
  async function lines(width: string): Promise<Array<{ priceBesideBuy: boolean; belowName: boolean }>> {
    const search = await fixture('dk-domain-search');
    search.style.display = 'block';
    search.style.width = width;
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: RESULTS });
    await untilState(search, 'results');
    await settle(search);
    return rows(search).map((row) => {
      const middle = (part: string) => {
        const box = row.querySelector(`[part~="${part}"]`)!.getBoundingClientRect();
        return Math.round(box.top + box.height / 2);
      };
      const name = row.querySelector('[part="name"]')!.getBoundingClientRect();
      return {
        priceBesideBuy: middle('price') === middle('buy-button'),
        belowName: middle('buy-button') > name.bottom,
      };
    });
  }

  it('a phone-wide box: price and Buy on one line in every row, below the name', async () => {
    expect(await lines('380px')).to.deep.equal(RESULTS.map(() => ({ priceBesideBuy: true, belowName: true })));
  });

  it('a wide box: each row on one line, as before', async () => {
    expect(await lines('640px')).to.deep.equal(RESULTS.map(() => ({ priceBesideBuy: true, belowName: false })));
  });
});
