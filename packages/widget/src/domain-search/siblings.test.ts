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
