import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { fixture, rows, settle, untilState } from '../test-support/fixtures.ts';
import type { WidgetDomain } from '../types.ts';
import './domain-search.ts';

/** A domain name reads left to right, yet on a right-to-left page it stands at its row's start: the right. */
describe('<dk-domain-search> on a right-to-left page: each name at the start of its row', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });
  afterEach(() => document.documentElement.removeAttribute('dir'));

  const RESULTS: WidgetDomain[] = [
    { domain: 'coffee.net', available: true, price_cents: 781000, currency: 'USD' },
    { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  ];

  /** How far the end of each row's name text lies from its row's start edge (CSS px). */
  async function gaps(dir: 'ltr' | 'rtl'): Promise<number[]> {
    document.documentElement.setAttribute('dir', dir);
    const search = await fixture('dk-domain-search');
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: RESULTS });
    await untilState(search, 'results');
    await settle(search);
    return rows(search).map((row) => {
      const cell = row.querySelector('[role="gridcell"]')!;
      const name = row.querySelector('[part="name"]')!;
      const text = document.createRange();
      text.selectNodeContents(name);
      const box = cell.getBoundingClientRect();
      const words = text.getBoundingClientRect();
      const padding = Number.parseFloat(getComputedStyle(cell).paddingInlineStart);
      return Math.abs(Math.round(dir === 'rtl' ? box.right - padding - words.right : words.left - box.left - padding));
    });
  }

  it('right to left: the name ends at the row’s right edge', async () => {
    expect(await gaps('rtl')).to.deep.equal([0, 0]);
  });

  it('left to right: the name starts at the row’s left edge, as before', async () => {
    expect(await gaps('ltr')).to.deep.equal([0, 0]);
  });
});
