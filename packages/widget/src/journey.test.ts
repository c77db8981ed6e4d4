/**
 * The visitor's journey around the widget: leaving for the hosted checkout and coming back (back/forward cache),
 * refining a search while results are shown, and typing at a phone's pace.
 */
import { expect } from '@esm-bundle/chai';
import './checkout-return/checkout-return.ts';
import './domain-search/domain-search.ts';
import { FakeClock } from './test-support/fake-clock.ts';
import { FetchStub } from './test-support/fetch-stub.ts';
import {
  cleanup,
  fixture,
  part,
  rows,
  settle,
  text,
  type,
  until,
  untilPurchase,
  untilState,
} from './test-support/fixtures.ts';
import type { WidgetDomain } from './types.ts';

const COFFEE: WidgetDomain[] = [
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

  it('back on the partner page, the confirmation speaks the language set even when it loads after the check', async () => {
    const before = location.href;
    history.replaceState(null, '', `${location.pathname}?checkout_session_id=cs_1&status=complete&sig=v1.abc`);
    const container = document.createElement('div');
    const el = document.createElement('dk-checkout-return');
    container.append(el);
    document.body.append(container);
    try {
      const verify = await stub.call(0);
      expect(verify.url.pathname).to.equal('/dk/checkout/return');
      verify.respond(200, {
        checkout_session_id: 'cs_1',
        status: 'complete',
        domain: 'coffeehouse.com',
        price_cents: 250000,
        currency: 'USD',
      });
      await until(() => el.dataset.state === 'confirmed', 'the sale is confirmed');
      // The page's French set arrives only now.
      el.strings = { checkoutConfirmed: (domain, price) => `Merci ! ${domain} est à vous pour ${price}.` };
      await el.updateComplete;
      expect(text(part(el, '[part="message"]'))).to.match(/^Merci ! .*coffeehouse\.com.* est à vous pour /);
    } finally {
      container.remove();
      history.replaceState(null, '', before);
    }
  });

  it('keeps the results, dimmed and aria-busy, while a refinement loads: the element never shrinks', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    const grid = part(search, '[part="results"]');
    const height = search.getBoundingClientRect().height;
    expect(grid.getAttribute('aria-busy')).to.equal('false');
    type(search, 'coffee house');
    const refinement = await stub.call(1);
    await untilState(search, 'loading');
    expect(
      rows(search).map((row) => row.dataset.domain),
      'the previous results stay',
    ).to.deep.equal(['coffeehouse.com', 'coffeebeans.io']);
    expect(grid.hidden).to.equal(false);
    expect(grid.getAttribute('aria-busy')).to.equal('true');
    expect(getComputedStyle(grid).opacity).to.equal('0.6');
    expect(search.getBoundingClientRect().height, 'no collapse while loading').to.be.at.least(height);
    expect(part(search, '[part="message"]').hidden, 'no "Searching…" line pushing the results down').to.equal(true);
    refinement.respond(200, { query: 'coffee house', results: COFFEE.slice(0, 1) });
    await untilState(search, 'results');
    expect(rows(search)).to.have.length(1);
    expect(grid.getAttribute('aria-busy')).to.equal('false');
  });

  it('searches from the third character by default (shorter is no domain name worth a search)', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const clock = new FakeClock(Date.parse('2030-01-01T12:00:00Z'));
    search.clock = clock;
    for (const typed of ['c', 'co']) {
      type(search, typed);
      clock.advance(2000);
      await settle(search);
    }
    expect(stub.calls, 'nothing searched for one or two characters').to.have.length(0);
    type(search, 'cof');
    clock.advance(2000);
    expect((await stub.call(0)).url.searchParams.get('q')).to.equal('cof');
  });

  it('a typist at 320 ms a key over ten words causes at most 2 searches a word', async () => {
    const search = await fixture('dk-domain-search');
    const clock = new FakeClock(Date.parse('2030-01-01T12:00:00Z'));
    search.clock = clock;
    const words = ['coffee', 'garden', 'studio', 'river', 'cloud', 'market', 'green', 'honey', 'bakery', 'travel'];
    const perWord: number[] = [];
    for (const word of words) {
      const before = stub.calls.length;
      for (let i = 1; i <= word.length; i++) {
        type(search, word.slice(0, i));
        clock.advance(320);
        await settle(search);
      }
      clock.advance(1500); // the visitor reads the results
      await settle(search);
      for (const call of stub.calls.slice(before))
        call.respond(200, { query: call.url.searchParams.get('q'), results: COFFEE });
      await settle(search);
      perWord.push(stub.calls.length - before);
    }
    expect(Math.max(...perWord), `searches per word: ${perWord.join(', ')}`).to.be.at.most(2);
    expect(Math.min(...perWord), 'every word is searched').to.be.at.least(1);
    expect(stub.calls.at(-1)!.url.searchParams.get('q')).to.equal('travel');
  });
});
