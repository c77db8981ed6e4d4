import { expect } from '@esm-bundle/chai';
import type { DkDomainSearch } from './domain-search.component.ts';
import { FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { fixture, part, rows, settle, text, untilState, until } from '../test-support/fixtures.ts';
import type { WidgetDomain, Sibling } from '../types.ts';
import './domain-search.ts';

const COFFEE: WidgetDomain[] = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
];

const SIBLINGS: Sibling[] = [
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
  // Also among the partner results: not listed twice.
  {
    domain: 'coffee.shop',
    tld: 'shop',
    status: 'available',
    available: true,
    price_cents: 2900,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.dev',
    tld: 'dev',
    status: 'for_sale',
    available: true,
    price_cents: 120000,
    currency: 'USD',
    kind: 'listing',
  },
];

/** The "Also available" list items, or none. */
const items = (search: DkDomainSearch): HTMLElement[] => [
  ...search.shadowRoot!.querySelectorAll<HTMLElement>('[part="sibling"]'),
];

describe('<dk-domain-search siblings>', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  /** Searches "coffee" and answers the partner results; resolves once they are shown. */
  async function searchCoffee(search: DkDomainSearch, results: WidgetDomain[] = COFFEE): Promise<void> {
    search.search('coffee');
    (await stub.call(0)).respond(200, { query: 'coffee', results });
    await untilState(search, results.length ? 'results' : 'empty');
  }

  it('asks for no siblings without the attribute (the default)', async () => {
    const search = await fixture('dk-domain-search', { locale: 'en-US' });
    expect(search.siblings).to.equal(false);

    await searchCoffee(search);
    await settle(search);

    expect(stub.calls).to.have.length(1);
    expect(search.shadowRoot!.querySelector('[part="siblings"]')).to.equal(null);
  });

  it('shows the results first, then lists the alternate TLDs under them, outside the grid', async () => {
    const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });

    await searchCoffee(search);
    expect(rows(search), 'the results do not wait for the siblings').to.have.length(2);
    expect(items(search)).to.have.length(0);
    const call = await stub.call(1);
    expect(call.method).to.equal('GET');
    expect(call.url.pathname).to.equal('/dk/siblings');
    expect(call.url.searchParams.get('q')).to.equal('coffee');
    call.respond(200, { query: 'coffee', siblings: SIBLINGS });
    await until(() => items(search).length > 0, 'the siblings are shown');
    await search.updateComplete;

    const section = part(search, '[part="siblings"]');
    const title = part(search, '[part="siblings-title"]');
    expect(text(title)).to.equal('Also available');
    const list = section.querySelector('ul')!;
    expect(search.shadowRoot!.getElementById(list.getAttribute('aria-labelledby')!)).to.equal(title);
    expect(part(search, '[role="grid"]').contains(section), 'not inside the grid').to.equal(false);
    expect(items(search).map((li) => li.dataset.domain)).to.deep.equal(['coffee.net', 'coffee.io', 'coffee.dev']);
    const [net, io, dev] = items(search);
    expect(text(net!.querySelector('[part="sibling-name"]'))).to.equal('coffee.net');
    expect(text(net!.querySelector('[part="sibling-status"]'))).to.equal('Marketplace listing');
    expect(net!.querySelector('[part="sibling-price"]'), 'a hidden price is not shown').to.equal(null);
    // No row without an action: a listing has its Buy; a name nobody registered says where it can be had instead,
    // without the registry price (this shop cannot sell it) and without a Buy.
    expect(text(io!.querySelector('[part="sibling-status"]'))).to.equal(
      'Not registered yet: any registrar can register it',
    );
    expect(io!.querySelector('[part="sibling-price"]'), 'no price this shop cannot honour').to.equal(null);
    expect(io!.querySelector('button'), 'nothing to buy here').to.equal(null);
    expect(text(dev!.querySelector('[part="sibling-price"]'))).to.equal('$1,200');
    for (const listing of [net!, dev!])
      expect(listing.querySelector('[part~="sibling-buy"]')?.getAttribute('aria-label')).to.equal(
        `Buy ${listing.dataset.domain}`,
      );
    expect(rows(search)).to.have.length(2);
  });

  it('shows siblings under "no results" too', async () => {
    const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });

    await searchCoffee(search, []);
    (await stub.call(1)).respond(200, { query: 'coffee', siblings: SIBLINGS.slice(0, 2) });
    await until(() => items(search).length === 2, 'the siblings are shown');

    expect(search.dataset.state).to.equal('empty');
    expect(part(search, '[part="message"]').hidden).to.equal(false);
  });

  for (const [name, answer] of [
    [
      'a 502',
      (call: Awaited<ReturnType<FetchStub['call']>>) =>
        call.respond(502, { error: { code: 'upstream_error', message: 'The marketplace could not be reached.' } }),
    ],
    [
      'a 404 (siblings off in the BFF)',
      (call: Awaited<ReturnType<FetchStub['call']>>) =>
        call.respond(404, { error: { code: 'not_found', message: 'No such endpoint' } }),
    ],
    ['a network failure', (call: Awaited<ReturnType<FetchStub['call']>>) => call.failNetwork()],
    [
      'an answer of the wrong shape',
      (call: Awaited<ReturnType<FetchStub['call']>>) =>
        call.respond(200, { query: 'coffee', siblings: [{ domain: 'coffee.io', price_cents: -1 }] }),
    ],
  ] as const) {
    it(`keeps the results as they are after ${name} for the siblings`, async () => {
      const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });
      const errors: Event[] = [];
      search.addEventListener('dk-error', (event) => errors.push(event));

      await searchCoffee(search);
      answer(await stub.call(1));
      await settle(search);

      expect(search.dataset.state).to.equal('results');
      expect(rows(search)).to.have.length(2);
      expect(search.shadowRoot!.querySelector('[part="siblings"]')).to.equal(null);
      expect(part(search, '[part="error"]').hidden).to.equal(true);
      expect(errors).to.have.length(0);
    });
  }

  it('aborts the siblings lookup when a newer search starts, and drops its late answer', async () => {
    stub.restore();
    stub = new FetchStub({ honourAbort: false }); // the old answer arrives anyway
    const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });

    await searchCoffee(search);
    const older = await stub.call(1);
    search.search('tea');
    const tea = await stub.call(2);
    expect(older.signal?.aborted).to.equal(true);
    tea.respond(200, {
      query: 'tea',
      results: [{ domain: 'teahouse.com', available: true, price_cents: 5000, currency: 'USD' }],
    });
    await untilState(search, 'results');
    const teaSiblings = await stub.call(3);
    expect(teaSiblings.url.searchParams.get('q')).to.equal('tea');

    older.respond(200, { query: 'coffee', siblings: SIBLINGS });
    await settle(search);
    expect(items(search), 'the siblings of "coffee" never show under "tea"').to.have.length(0);

    teaSiblings.respond(200, {
      query: 'tea',
      siblings: [
        {
          domain: 'tea.io',
          tld: 'io',
          status: 'available',
          available: true,
          price_cents: 3900,
          currency: 'USD',
          kind: 'registration',
        },
      ],
    });
    await until(() => items(search).length === 1, 'the siblings of "tea" are shown');
    expect(items(search)[0]!.dataset.domain).to.equal('tea.io');
  });

  it('answers a repeated query, siblings included, from the page cache', async () => {
    const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });
    await searchCoffee(search);
    (await stub.call(1)).respond(200, { query: 'coffee', siblings: SIBLINGS });
    await until(() => items(search).length === 3, 'the siblings are shown');

    search.search('');
    await untilState(search, 'initial');
    expect(items(search)).to.have.length(0);
    search.search('coffee');
    await untilState(search, 'results');
    await settle(search);

    expect(items(search)).to.have.length(3);
    expect(stub.calls).to.have.length(2);
  });

  it('hides the siblings with the results (Escape)', async () => {
    const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });
    await searchCoffee(search);
    (await stub.call(1)).respond(200, { query: 'coffee', siblings: SIBLINGS });
    await until(() => items(search).length === 3, 'the siblings are shown');

    part(search, '[part="input"]').dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
    );
    await search.updateComplete;

    expect(search.shadowRoot!.querySelector('[part="siblings"]')).to.equal(null);
  });

  it('keeps a listing’s price on its Buy’s line when the row wraps', async () => {
    const search = await fixture('dk-domain-search', { locale: 'en-US', siblings: '' });
    search.style.display = 'block';
    search.style.width = '460px';
    await searchCoffee(search);
    (await stub.call(1)).respond(200, { query: 'coffee', siblings: SIBLINGS });
    await until(() => items(search).length === 3, 'the siblings are shown');
    await search.updateComplete;

    const dev = items(search)[2]!;
    const middle = (el: Element) => {
      const box = el.getBoundingClientRect();
      return Math.round(box.top + box.height / 2);
    };
    const name = dev.querySelector('[part="sibling-name"]')!.getBoundingClientRect();
    const buy = dev.querySelector('button')!;
    expect([
      middle(dev.querySelector('[part="sibling-price"]')!) === middle(buy),
      middle(buy) > name.bottom,
    ]).to.deep.equal([true, true]);
  });

  it('takes its texts from strings', async () => {
    const search = await fixture('dk-domain-search', { locale: 'de-DE', siblings: '' });
    search.strings = {
      siblingsTitle: 'Auch verfügbar',
      siblingRegistration: 'Neu registrieren',
      siblingListing: 'Zum Verkauf',
    };
    await searchCoffee(search);
    (await stub.call(1)).respond(200, { query: 'coffee', siblings: SIBLINGS });
    await until(() => items(search).length === 3, 'the siblings are shown');

    expect(text(part(search, '[part="siblings-title"]'))).to.equal('Auch verfügbar');
    expect(items(search).map((li) => text(li.querySelector('[part="sibling-status"]')))).to.deep.equal([
      'Zum Verkauf',
      'Neu registrieren',
      'Zum Verkauf',
    ]);
    expect(text(items(search)[2]!.querySelector('[part="sibling-price"]'))).to.match(/^1\.200\s\$$/);
  });
});

describe('<dk-domain-search>: the verdict on a whole domain typed', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  /** The verdict's sentence as read, without the isolates around the domain (FSI … PDI). */
  const said = (search: DkDomainSearch): string =>
    text(part(search, '[part="verdict-text"]')).replace(/[\u2066-\u2069]/g, '');

  const verdictOf = (search: DkDomainSearch): HTMLElement | null =>
    search.shadowRoot!.querySelector<HTMLElement>('[part="verdict"]');

  /** Searches `query`, answers `results`, then the siblings lookup with the typed name's `status`. */
  async function typed(search: DkDomainSearch, query: string, results: WidgetDomain[], status: string | null) {
    search.search(query);
    (await stub.call(0)).respond(200, { query, results });
    await untilState(search, results.length ? 'results' : 'empty');
    const lookup = await stub.call(1);
    expect(lookup.url.pathname).to.equal('/dk/siblings');
    expect(lookup.url.searchParams.get('q')).to.equal(query);
    lookup.respond(200, { query, siblings: [], domain: status && { domain: query, status } });
    await until(() => verdictOf(search)?.dataset.verdict !== undefined, 'the verdict is shown');
    await settle(search);
  }

  const OLIVE: WidgetDomain[] = [{ domain: 'olive.io', available: true, price_cents: 2500000, currency: 'USD' }];

  it('says a registered name is taken, above the results, even without the siblings attribute', async () => {
    const search = await fixture('dk-domain-search');
    await typed(search, 'live-site.com', OLIVE, 'registered');

    const verdict = verdictOf(search)!;
    expect(verdict.dataset.verdict).to.equal('taken');
    expect(said(search)).to.equal('live-site.com is taken: someone has registered it, and it is not for sale here.');
    expect(part(search, '[part="verdict-text"]').getAttribute('role')).to.equal('status');
    expect(
      verdict.compareDocumentPosition(part(search, '[part="results"]')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).to.not.equal(0);
    expect(text(part(search, '[part="verdict-alternatives"]'))).to.equal('These names can be bought now:');
    expect(search.shadowRoot!.querySelector('[part="siblings"]'), 'no list without the attribute').to.equal(null);
    expect(verdict.querySelector('slot[name="offer"]'), 'the offer slot for a name not for sale').to.not.equal(null);
  });

  it('"Who holds it?" asks GET /whois and says the registrar and the date; focus moves to the answer', async () => {
    const search = await fixture('dk-domain-search');
    await typed(search, 'live-site.com', OLIVE, 'registered');

    part<HTMLButtonElement>(search, '[part="whois-button"]').click();
    const whois = await stub.call(2);
    expect(whois.url.pathname).to.equal('/dk/whois');
    expect(whois.url.searchParams.get('domain')).to.equal('live-site.com');
    await settle(search);
    expect(text(part(search, '[part="whois-button"]'))).to.equal('Looking it up…');
    whois.respond(200, {
      domain: 'live-site.com',
      registered: true,
      registrar: 'Harborline Registrar, LLC',
      registered_at: '2004-03-17T09:30:00.000Z',
    });
    await until(() => search.shadowRoot!.querySelector('[part="whois"]') !== null, 'the answer is shown');
    await settle(search);

    const answer = part(search, '[part="whois"]');
    expect(text(answer).replace(/[\u2066-\u2069]/g, '')).to.equal(
      'Registered with Harborline Registrar, LLC since March 17, 2004.',
    );
    expect(search.shadowRoot!.activeElement).to.equal(answer);
    expect(search.shadowRoot!.querySelector('[part="whois-button"]')).to.equal(null);
  });

  it('keeps "Who holds it?" to try again when the lookup fails, saying why', async () => {
    const search = await fixture('dk-domain-search');
    await typed(search, 'live-site.com', OLIVE, 'registered');

    part<HTMLButtonElement>(search, '[part="whois-button"]').click();
    (await stub.call(2)).respond(503, { error: { code: 'busy', message: 'busy', retry_after: 3 } });
    await until(() => search.shadowRoot!.querySelector('[part="whois-error"]') !== null, 'the failure is said');
    await settle(search);

    expect(text(part(search, '[part="whois-button"]'))).to.equal('Who holds it?');
    expect(text(part(search, '[part="whois-error"]'))).to.not.equal('');
  });

  it('lists a listed name first and says it is for sale here; no lookup, no offer', async () => {
    const search = await fixture('dk-domain-search');
    await typed(
      search,
      'coffeehouse.com',
      [COFFEE[1]!, COFFEE[0]!], // the partner's order: a partial match first
      'for_sale',
    );

    expect(verdictOf(search)!.dataset.verdict).to.equal('listed');
    expect(rows(search).map((row) => row.dataset.domain)).to.deep.equal(['coffeehouse.com', 'coffee.shop']);
    expect(search.shadowRoot!.querySelector('[part="whois-button"]')).to.equal(null);
    expect(search.shadowRoot!.querySelector('[part="offer"]')).to.equal(null);
  });

  it('claims no more than the results hold: a sold one among them turns "can be bought now" into "like it"', async () => {
    const search = await fixture('dk-domain-search');
    const sold: WidgetDomain = { domain: 'olive.com', available: false, price_cents: null, currency: 'USD' };
    await typed(search, 'olive-grove.com', [...OLIVE, sold], 'available');

    expect(verdictOf(search)!.dataset.verdict).to.equal('unregistered');
    expect(text(part(search, '[part="verdict-alternatives"]'))).to.equal('Names like it:');
  });

  it('says a name nobody registered cannot be sold here and where it can be had', async () => {
    const search = await fixture('dk-domain-search');
    await typed(search, 'acme-rockets.com', [], 'available');

    expect(verdictOf(search)!.dataset.verdict).to.equal('unregistered');
    expect(said(search)).to.equal(
      'Nobody has registered acme-rockets.com yet. This shop cannot sell it: any domain registrar can register it for you.',
    );
    expect(search.shadowRoot!.querySelector('[part="verdict-alternatives"]'), 'no results to offer').to.equal(null);
    const message = part(search, '[part="message"]');
    expect(message.getClientRects().length, `"${text(message)}" shown under the verdict`).to.equal(0);
  });

  it('offers a marketplace listing the results did not show with a Buy of its own', async () => {
    const search = await fixture('dk-domain-search');
    await typed(search, 'coffee.dev', [], 'for_sale');

    expect(verdictOf(search)!.dataset.verdict).to.equal('for-sale');
    const buy = part<HTMLButtonElement>(search, '[part~="verdict-buy"]');
    expect(buy.getAttribute('aria-label')).to.equal('Buy coffee.dev');
    const selected = new Promise<string>((resolve) =>
      search.addEventListener('dk-select', (event) => {
        event.preventDefault();
        resolve(event.detail.domain);
      }),
    );
    buy.click();
    expect(await selected).to.equal('coffee.dev');
  });

  it('names an internationalised domain typed in Unicode as the BFF does, matching its ASCII row', async () => {
    const search = await fixture('dk-domain-search');
    const ascii = 'xn--mnchen-3ya.de';
    search.search('münchen.de');
    (await stub.call(0)).respond(200, {
      query: ascii,
      results: [
        OLIVE[0]!,
        { domain: ascii, display_name: 'münchen.de', available: true, price_cents: 120000, currency: 'USD' },
      ],
    });
    await untilState(search, 'results');
    const lookup = await stub.call(1);
    lookup.respond(200, {
      query: ascii,
      siblings: [
        {
          domain: 'xn--mnchen-3ya.dev',
          display_name: 'münchen.dev',
          tld: 'dev',
          status: 'for_sale',
          available: true,
          price_cents: null,
          currency: null,
          kind: 'listing',
        },
      ],
      domain: { domain: ascii, display_name: 'münchen.de', status: 'for_sale' },
    });
    await until(() => verdictOf(search)?.dataset.verdict !== undefined, 'the verdict is shown');
    await settle(search);

    const verdict = verdictOf(search)!;
    expect(verdict.dataset.verdict, 'the typed name is the ASCII row').to.equal('listed');
    expect(verdict.dataset.domain, 'the value the widget sends').to.equal(ascii);
    expect(said(search)).to.equal('münchen.de is for sale here: buy it now.');
    expect(
      rows(search).map((row) => row.dataset.domain),
      'the exact name first',
    ).to.deep.equal([ascii, 'olive.io']);
    search.siblings = true;
    await settle(search);
    expect(text(part(search, '[part="sibling-name"]'))).to.equal('münchen.dev');
    expect(part(search, '[part="sibling-name"]').title).to.equal('xn--mnchen-3ya.dev');
    expect(part(search, '[part~="sibling-buy"]').getAttribute('aria-label')).to.equal('Buy münchen.dev');
  });

  it('says only "not listed here" when the BFF does not tell the name\'s standing', async () => {
    const search = await fixture('dk-domain-search');
    await typed(search, 'live-site.com', OLIVE, null);

    expect(verdictOf(search)!.dataset.verdict).to.equal('unlisted');
    expect(said(search)).to.equal('live-site.com is not listed here.');
  });
});
