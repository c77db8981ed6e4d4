import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { part, until } from '../test-support/fixtures.ts';
import type { DkBrokerButton } from './broker-button.component.ts';
import './broker-button.ts';

describe('<dk-broker-button>: an internationalised name', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });
  let element: DkBrokerButton | undefined;
  afterEach(() => element?.remove());

  it('asks about a name typed in Unicode by its ASCII form, and names it as the BFF does', async () => {
    element = document.createElement('dk-broker-button') as DkBrokerButton;
    element.setAttribute('locale', 'en-US');
    element.setAttribute('domain', 'München.de');
    document.body.append(element);
    const call = await stub.call(0);
    expect(call.url.pathname).to.equal('/dk/brokerage/eligibility');
    expect(call.url.searchParams.get('domain'), 'the form the BFF takes').to.equal('xn--mnchen-3ya.de');
    call.respond(200, {
      domain: 'xn--mnchen-3ya.de',
      display_name: 'münchen.de',
      eligible: true,
      reason: null,
      tier: 'managed',
      currency: 'USD',
      min_budget_cents: 50000,
    });
    await until(() => element!.state === 'eligible', 'the offer is shown');
    await element.updateComplete;
    expect(part(element, '[part="message"]').textContent).to.equal(
      "münchen.de isn't for sale here, but our brokers can contact its owner for you.",
    );
  });
});
