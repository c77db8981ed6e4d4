import { expect } from '@esm-bundle/chai';
import { FetchStub } from './test-support/fetch-stub.ts';
import { cleanup, fixture, rows, type, untilState } from './test-support/fixtures.ts';
import './domain-search/domain-search.ts';

/**
 * The host page's inherited text styles (a centred, uppercase, letter-spaced body, as starter templates and
 * resets ship) do not leak into the elements; the page's direction still does.
 */
describe('host page styles', () => {
  let stub: FetchStub;
  let style: HTMLStyleElement;
  beforeEach(() => {
    stub = new FetchStub();
    style = document.head.appendChild(document.createElement('style'));
    style.textContent =
      'body { text-align: center; text-transform: uppercase; letter-spacing: 3px; line-height: 3; font-weight: 700; white-space: nowrap; }';
  });
  afterEach(() => {
    cleanup();
    stub.restore();
    style.remove();
  });

  it('a result row keeps its own alignment, case, spacing and weight on a centred, uppercase page', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    type(search, 'coffee');
    (await stub.call(0)).respond(200, {
      query: 'coffee',
      results: [{ domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' }],
    });
    await untilState(search, 'results');
    const row = rows(search)[0]!;
    const host = getComputedStyle(search);
    const cell = getComputedStyle(row);
    expect(getComputedStyle(document.body).textAlign, 'the page is centred').to.equal('center');
    expect(host.textAlign).to.equal('start');
    expect(cell.textAlign).to.not.equal('center');
    expect(cell.textTransform).to.equal('none');
    expect(cell.letterSpacing).to.equal('normal');
    expect(cell.whiteSpace).to.not.equal('nowrap');
    expect(host.fontWeight).to.equal('400');
    expect(host.lineHeight).to.not.equal(getComputedStyle(document.body).lineHeight);
  });

  it('the page direction still inherits (right-to-left pages)', async () => {
    document.documentElement.dir = 'rtl';
    try {
      const search = await fixture('dk-domain-search', {});
      expect(getComputedStyle(search).direction).to.equal('rtl');
    } finally {
      document.documentElement.removeAttribute('dir');
    }
  });
});
