import { expect } from '@esm-bundle/chai';
import type { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import type { DkErrorEvent } from '../events/dk-error.ts';
import { defaultStrings } from '../default-strings.ts';
import type { DkResultsEvent } from '../events/dk-results.ts';
import type { DkSearchEvent } from '../events/dk-search.ts';
import { FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { FakeClock } from '../test-support/fake-clock.ts';
import { fixture, nextEvent, part, rows, settle, sleep, text, type, untilState } from '../test-support/fixtures.ts';
import type { WidgetDomain } from '../types.ts';
import './domain-search.ts';

const COFFEE: WidgetDomain[] = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffeebeans.io', available: true, price_cents: 1999, currency: 'USD' },
  { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
];

describe('<dk-domain-search>', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('starts in the initial state with a labelled combobox controlling a hidden grid', async () => {
    const search = await fixture('dk-domain-search', { label: 'Find a name' });
    const input = part<HTMLInputElement>(search, '[part="input"]');
    expect(search.dataset.state).to.equal('initial');
    expect(input.getAttribute('role')).to.equal('combobox');
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(input.labels?.[0]?.textContent).to.equal('Find a name');
    const listbox = search.shadowRoot!.getElementById(input.getAttribute('aria-controls')!);
    expect(listbox?.getAttribute('role')).to.equal('grid');
    expect(input.getAttribute('aria-haspopup')).to.equal('grid');
    expect(listbox?.hidden).to.equal(true);
    expect(stub.calls).to.have.length(0);
  });

  it('moved in the page before its first render, renders once where it lands and searches (search() before it too)', async () => {
    const from = document.body.appendChild(document.createElement('div'));
    const to = document.body.appendChild(document.createElement('div'));
    const search = document.createElement('dk-domain-search');
    search.setAttribute('debounce', '5');
    from.append(search);
    search.search('coffee');
    to.append(search);
    await search.updateComplete;
    expect(search.shadowRoot!.querySelectorAll('[part="input"]'), 'one search box').to.have.length(1);
    // The move cancelled the search in flight (as any move does); it is sent again where the box landed.
    const again = await stub.call(1);
    expect(again.url.searchParams.get('q')).to.equal('coffee');
    again.respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    expect(rows(search)).to.have.length(COFFEE.length);
    type(search, 'coffee beans');
    expect((await stub.call(2)).url.searchParams.get('q')).to.equal('coffee beans');
    from.remove();
    to.remove();
  });

  it('waits for a pause in typing, then sends one search for the latest text', async () => {
    const search = await fixture('dk-domain-search', { debounce: '20' });
    type(search, 'co');
    type(search, 'cof');
    type(search, 'coffee ');
    expect(stub.calls, 'no request before the debounce elapsed').to.have.length(0);
    const call = await stub.call(0);
    expect(call.url.pathname).to.equal('/dk/search');
    expect(call.url.searchParams.get('q')).to.equal('coffee');
    await settle(search);
    expect(stub.calls, 'one request for three keystrokes').to.have.length(1);
  });

  it('does not search below min-length, and going back below it clears the results', async () => {
    const search = await fixture('dk-domain-search', { debounce: '5', 'min-length': '3' });
    type(search, ' co ');
    await sleep(50);
    expect(stub.calls).to.have.length(0);
    expect(search.dataset.state).to.equal('initial');

    type(search, 'cof');
    (await stub.call(0)).respond(200, { query: 'cof', results: COFFEE });
    await untilState(search, 'results');

    type(search, 'co');
    await untilState(search, 'initial');
    expect(rows(search)).to.have.length(0);
    expect(part(search, '[part="input"]').getAttribute('aria-expanded')).to.equal('false');
  });

  it('shows the too-short hint once typing pauses, not on each of the first keys, and hides it at once', async () => {
    const search = await fixture('dk-domain-search', { debounce: '300', 'min-length': '3' });
    const hint = part(search, '[part="message"]');
    type(search, 'c');
    await search.updateComplete;
    expect(hint.hidden, 'no hint while the visitor is still typing').to.equal(true);
    type(search, 'co');
    await search.updateComplete;
    expect(hint.hidden, 'no hint while the visitor is still typing').to.equal(true);
    await sleep(700);
    await search.updateComplete;
    expect(hint.hidden, 'the hint once typing paused').to.equal(false);
    expect(hint.textContent).to.equal(defaultStrings.tooShort(3));
    type(search, 'cof');
    await search.updateComplete;
    expect(hint.hidden, 'gone with the third character').to.equal(true);
  });

  it('aborts the request in flight when a newer one starts, and drops its late answer', async () => {
    stub.restore();
    stub = new FetchStub({ honourAbort: false }); // the old answer arrives anyway
    const search = await fixture('dk-domain-search', { debounce: '0' });
    type(search, 'tea');
    const older = await stub.call(0);
    type(search, 'coffee');
    const newer = await stub.call(1);
    expect(older.signal?.aborted, 'older request aborted').to.equal(true);
    expect(newer.signal?.aborted).to.equal(false);

    older.respond(200, {
      query: 'tea',
      results: [{ domain: 'teatime.com', available: true, price_cents: 100, currency: 'USD' }],
    });
    await settle(search);
    expect(search.dataset.state, 'the stale answer is not shown').to.equal('loading');

    newer.respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    expect(rows(search).map((row) => row.dataset.domain)).to.deep.equal(COFFEE.map((r) => r.domain));
  });

  it('keeps the newest results when an older answer arrives after them', async () => {
    stub.restore();
    stub = new FetchStub({ honourAbort: false });
    const search = await fixture('dk-domain-search', { debounce: '0' });
    type(search, 'tea');
    const older = await stub.call(0);
    type(search, 'coffee');
    const newer = await stub.call(1);
    newer.respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    older.respond(200, { query: 'tea', results: [] });
    await settle(search);
    expect(search.dataset.state).to.equal('results');
    expect(rows(search)).to.have.length(3);
  });

  it('shows each result with availability, a locale-formatted price and a Buy button when available', async () => {
    const search = await fixture('dk-domain-search', {
      api: 'https://shop.example/dk/',
      debounce: '0',
      locale: 'en-US',
    });
    type(search, 'coffee');
    const call = await stub.call(0);
    expect(call.url.href).to.equal('https://shop.example/dk/search?q=coffee');
    expect(search.dataset.state).to.equal('loading');
    await search.updateComplete;
    expect(text(part(search, '[part="message"]'))).to.equal('Searching…');
    call.respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');

    const [house, beans, shop] = rows(search);
    expect(house?.getAttribute('role')).to.equal('row');
    expect(house?.querySelector('[role="gridcell"]')).to.not.equal(null);
    expect(house?.dataset.domain).to.equal('coffeehouse.com');
    expect(text(house?.querySelector('[part="price"]'))).to.equal('$2,500');
    expect(text(beans?.querySelector('[part="price"]'))).to.equal('$19.99');
    expect(text(house?.querySelector('[part~="availability"]'))).to.equal('Available');
    expect(text(shop?.querySelector('[part~="availability"]'))).to.equal('Taken');
    expect(shop?.querySelector('[part="price"]')).to.equal(null);
    expect(shop?.querySelector('[part="buy-button"]'), 'no Buy button for a taken domain').to.equal(null);

    const button = house?.querySelector('[part="buy-button"]');
    expect(button?.localName).to.equal('button');
    expect(button?.getAttribute('aria-label')).to.equal('Buy coffeehouse.com');
    expect(button?.getAttribute('tabindex'), 'reached with the arrow keys, not Tab').to.equal('-1');
    expect(text(button)).to.equal('Buy');

    expect(part(search, '[part="input"]').getAttribute('aria-expanded')).to.equal('true');
    expect(part(search, '[part="results"]').hidden).to.equal(false);
    expect(text(part(search, '[part="status"]'))).to.equal('3 domains found');
  });

  it('formats prices for the nearest lang attribute when no locale is set', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    search.parentElement!.lang = 'de-DE';
    type(search, 'coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    expect(text(rows(search)[0]?.querySelector('[part="price"]'))).to.equal('2.500\u00a0$');
  });

  it('says so when nothing matches', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    type(search, 'zzzz');
    (await stub.call(0)).respond(200, { query: 'zzzz', results: [] });
    await untilState(search, 'empty');
    // The query is isolated (FSI … PDI) inside the sentence.
    expect(text(part(search, '[part="message"]'))).to.equal('No domains match “\u2068zzzz\u2069”.');
    expect(text(part(search, '[part="status"]'))).to.equal('No domains match “\u2068zzzz\u2069”.');
    expect(rows(search)).to.have.length(0);
    expect(part(search, '[part="input"]').getAttribute('aria-expanded')).to.equal('false');
  });

  it("shows the error code's string (not the BFF's English message) with a Retry button that repeats the search", async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const errorEvent = nextEvent(document, 'dk-error');
    type(search, 'coffee');
    (await stub.call(0)).respond(502, {
      error: { code: 'upstream_error', message: 'The marketplace is unavailable right now.' },
    });
    await untilState(search, 'error');
    expect(text(part(search, '[part="error-message"]'))).to.equal(defaultStrings.unknownError);
    expect(text(part(search, '[part="status"]'))).to.equal(defaultStrings.unknownError);
    const event: DkErrorEvent = await errorEvent;
    expect(event.detail).to.deep.equal({ code: 'upstream_error', message: defaultStrings.unknownError });

    part<HTMLButtonElement>(search, '[part="retry-button"]').click();
    const retry = await stub.call(1);
    expect(retry.url.searchParams.get('q')).to.equal('coffee');
    retry.respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    expect(rows(search)).to.have.length(3);
    expect(part(search, '[part="error"]').hidden).to.equal(true);
  });

  it('when the BFF is busy, counts down its retry_after and then searches again by itself', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const clock = new FakeClock();
    search.clock = clock;
    const errorEvent = nextEvent(document, 'dk-error');
    search.search('coffee');
    (await stub.call(0)).respond(
      503,
      { error: { code: 'busy', message: 'Too many searches; try again in 3 s.', retry_after: 3 } },
      { 'Retry-After': '3' },
    );
    await untilState(search, 'busy');
    expect(text(part(search, '[part="error-message"]'))).to.equal('Busy right now. Trying again in 3 s…');
    expect(part(search, '[part="retry-button"]').hidden, 'no Retry while waiting').to.equal(true);
    const announced = text(part(search, '[part="status"]'));
    expect(announced).to.equal('Busy right now. Trying again in 3 s…');
    // The page hears the same time (issue 23, defect 6: never "try again shortly").
    expect((await errorEvent).detail).to.deep.equal({ code: 'busy', message: 'Busy right now. Trying again in 3 s…' });

    clock.advance(1000);
    await search.updateComplete;
    expect(text(part(search, '[part="error-message"]'))).to.equal('Busy right now. Trying again in 2 s…');
    expect(text(part(search, '[part="status"]')), 'the live region does not tick').to.equal(announced);
    clock.advance(1000);
    await search.updateComplete;
    expect(text(part(search, '[part="error-message"]'))).to.equal('Busy right now. Trying again in 1 s…');
    expect(stub.calls).to.have.length(1);

    clock.advance(1000);
    const again = await stub.call(1);
    expect(again.url.searchParams.get('q')).to.equal('coffee');
    again.respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
  });

  it('waits out a 429 rate_limited the same way, then searches again', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const clock = new FakeClock();
    search.clock = clock;
    const errorEvent = nextEvent(document, 'dk-error');
    search.search('coffee');
    (await stub.call(0)).respond(
      429,
      { error: { code: 'rate_limited', message: 'Slow down.', retry_after: 2 } },
      { 'Retry-After': '2' },
    );
    await untilState(search, 'busy');
    expect((await errorEvent).detail.message).to.equal('Busy right now. Trying again in 2 s…');
    clock.advance(2000);
    (await stub.call(1)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
  });

  it('goes offline when the BFF cannot be reached, and searches again once the browser is back online', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const errorEvent = nextEvent(document, 'dk-error');
    type(search, 'coffee');
    (await stub.call(0)).failNetwork();
    await untilState(search, 'offline');
    expect(text(part(search, '[part="error-message"]'))).to.equal(
      'Could not reach the domain service. Check your connection.',
    );
    expect((await errorEvent).detail.code).to.equal('network_error');

    window.dispatchEvent(new Event('online'));
    (await stub.call(1)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
  });

  it('does not even try while the browser says it is offline', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      type(search, 'coffee');
      await untilState(search, 'offline');
      expect(text(part(search, '[part="error-message"]'))).to.equal(
        'You are offline. The search resumes once you are back.',
      );
      expect(stub.calls).to.have.length(0);
    } finally {
      delete (navigator as { onLine?: boolean }).onLine;
    }
    window.dispatchEvent(new Event('online'));
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
  });

  it('answers a query searched a moment ago from the page cache, without asking the BFF again', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const clock = new FakeClock();
    search.clock = clock;
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
    search.search('tea');
    (await stub.call(1)).respond(200, { query: 'tea', results: [] });
    await untilState(search, 'empty');

    const results = nextEvent(search, 'dk-results');
    search.search('coffee');
    expect(search.status, 'no loading state for a cached answer').to.equal('results');
    expect((await results).detail.results).to.deep.equal(COFFEE);
    expect(stub.calls).to.have.length(2);

    clock.advance(61_000); // older than a minute: asked again
    search.search('coffee');
    (await stub.call(2)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');
  });

  it('does not search while an IME is composing, then searches the composed text', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const input = part<HTMLInputElement>(search, '[part="input"]');
    input.value = 'こーひー';
    input.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, isComposing: true, inputType: 'insertCompositionText' }),
    );
    input.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, composed: true }),
    );
    await sleep(20);
    expect(stub.calls, 'nothing sent mid-composition').to.have.length(0);
    input.dispatchEvent(new CompositionEvent('compositionend', { data: 'こーひー', bubbles: true, composed: true }));
    expect((await stub.call(0)).url.searchParams.get('q')).to.equal('こーひー');
  });

  it('highlights the matched part of each name with <mark part="match">', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    type(search, 'Coffee');
    (await stub.call(0)).respond(200, { query: 'Coffee', results: COFFEE });
    await untilState(search, 'results');
    const marks = [...rows(search)[0]!.querySelectorAll('mark[part="match"]')].map((m) => m.textContent);
    expect(marks).to.deep.equal(['coffee']);
    expect(text(rows(search)[0]!.querySelector('[part="name"]'))).to.equal('coffeehouse.com');
  });

  it('searches at once on Enter, without waiting for the debounce', async () => {
    const search = await fixture('dk-domain-search', { debounce: '60000' });
    type(search, 'coffee');
    part(search, '[part="input"]').dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }),
    );
    expect((await stub.call(0)).url.searchParams.get('q')).to.equal('coffee');
  });

  it('fires dk-search and dk-results, bubbling and composed, with their detail', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0' });
    const searchEvent = nextEvent(document, 'dk-search');
    const resultsEvent = nextEvent(document, 'dk-results');
    type(search, '  coffee  ');
    const started: DkSearchEvent = await searchEvent;
    expect(started.detail).to.deep.equal({ query: 'coffee' });
    expect(started.target).to.equal(search);
    expect([started.bubbles, started.composed]).to.deep.equal([true, true]);

    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    const answered: DkResultsEvent = await resultsEvent;
    expect(answered.detail).to.deep.equal({ query: 'coffee', results: COFFEE });
  });

  it("buys from a result: POSTs the row's domain and fires dk-checkout-start out of the shadow root", async () => {
    const search = await fixture('dk-domain-search', { api: '/partner-dk', debounce: '0' });
    type(search, 'coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results: COFFEE });
    await untilState(search, 'results');

    const checkoutStart = new Promise<DkCheckoutStartEvent>((resolve) =>
      document.addEventListener(
        'dk-checkout-start',
        (event) => {
          event.preventDefault(); // synchronously, while dispatching: the test page must not navigate
          resolve(event);
        },
        { once: true },
      ),
    );
    const selected = nextEvent(document, 'dk-select');
    rows(search)[1]!.querySelector<HTMLButtonElement>('[part="buy-button"]')!.click();
    expect((await selected).detail).to.deep.equal({ domain: 'coffeebeans.io', result: COFFEE[1] });
    const post = await stub.call(1);
    expect([post.method, post.url.pathname]).to.deep.equal(['POST', '/partner-dk/checkout']);
    expect(post.json).to.deep.equal({ domain: 'coffeebeans.io' });
    post.respond(201, { checkout_url: 'https://market.example/checkout?pt=t1', expires_at: '2030-01-01T00:00:00Z' });

    const event = await checkoutStart;
    expect(event.target, 'retargeted to the search element').to.equal(search);
    expect(event.detail).to.deep.equal({
      domain: 'coffeebeans.io',
      checkoutUrl: 'https://market.example/checkout?pt=t1',
    });
  });
});
