import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { fixture, settle, untilState, until } from '../test-support/fixtures.ts';
import type { WidgetDomain } from '../types.ts';
import type { DkDomainSearch } from './domain-search.component.ts';
import './domain-search.ts';
import '../broker-button/broker-button.ts';

/** With `<dk-broker-button>` defined on the page: which verdicts offer the brokers. */
describe('<dk-domain-search> verdict: the brokers are offered for a name someone holds, never for a free one', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  const OLIVE: WidgetDomain[] = [{ domain: 'olive.io', available: true, price_cents: 2500000, currency: 'USD' }];

  /** Searches `query`, answered with `results` and the typed name's standing `status`. */
  async function typed(query: string, status: string): Promise<DkDomainSearch> {
    const search = await fixture('dk-domain-search');
    search.search(query);
    (await stub.call(0)).respond(200, { query, results: OLIVE });
    await untilState(search, 'results');
    (await stub.call(1)).respond(200, { query, siblings: [], domain: { domain: query, status } });
    const verdict = () => search.shadowRoot!.querySelector<HTMLElement>('[part="verdict"]');
    await until(() => verdict()?.dataset.verdict !== undefined, 'the verdict is shown');
    await settle(search);
    return search;
  }

  it('a name nobody registered: any registrar can register it, so no broker is offered (the offer slot stays)', async () => {
    const search = await typed('acme-rockets.com', 'available');
    const verdict = search.shadowRoot!.querySelector<HTMLElement>('[part="verdict"]')!;
    expect(verdict.dataset.verdict).to.equal('unregistered');
    expect(verdict.querySelector('dk-broker-button') !== null, 'a broker offered for a free name').to.equal(false);
    expect(verdict.querySelector('slot[name="offer"]') !== null, "the partner's own offer").to.equal(true);
  });

  it('a registered name not for sale here: the brokers are offered', async () => {
    const search = await typed('live-site.com', 'registered');
    const verdict = search.shadowRoot!.querySelector<HTMLElement>('[part="verdict"]')!;
    expect(verdict.dataset.verdict).to.equal('taken');
    expect(verdict.querySelector('dk-broker-button')?.getAttribute('domain')).to.equal('live-site.com');
  });
});
