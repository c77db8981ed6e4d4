import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { part, until } from '../test-support/fixtures.ts';
import type { DkBrokerButton } from './broker-button.component.ts';
import './broker-button.ts';

/** The BFF's answer for a name its brokers can take on (tier `managed`, minimum budget $500). */
function eligible(domain: string, displayName = domain) {
  return {
    domain,
    display_name: displayName,
    eligible: true,
    reason: null,
    tier: 'managed',
    currency: 'USD',
    min_budget_cents: 50000,
  };
}

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
    call.respond(200, eligible('xn--mnchen-3ya.de', 'münchen.de'));
    await until(() => element!.state === 'eligible', 'the offer is shown');
    await element.updateComplete;
    expect(part(element, '[part="message"]').textContent).to.equal(
      "münchen.de isn't for sale here, but our brokers can contact its owner for you.",
    );
  });
});

describe('<dk-broker-button>: the budget is read as typed, never rounded nor guessed', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });
  let element: DkBrokerButton | undefined;
  afterEach(() => element?.remove());

  /** An element for `domain` in `locale`, its form open (minimum budget $500). */
  async function openForm(locale: string): Promise<DkBrokerButton> {
    element = document.createElement('dk-broker-button') as DkBrokerButton;
    element.setAttribute('locale', locale);
    element.setAttribute('domain', 'teashop.com');
    document.body.append(element);
    (await stub.call(0)).respond(200, eligible('teashop.com'));
    await until(() => element!.state === 'eligible', 'the offer is shown');
    await element.updateComplete;
    part<HTMLButtonElement>(element, '[part="offer-button"]').click();
    await element.updateComplete;
    return element;
  }

  /** Types `budget` (and a valid e-mail, consent) and sends the form. */
  async function send(el: DkBrokerButton, budget: string): Promise<void> {
    const type = (selector: string, value: string) => {
      const input = part<HTMLInputElement>(el, selector);
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    };
    type('#email', 'ada@example.com');
    type('#budget', budget);
    const consent = part<HTMLInputElement>(el, '#consent');
    if (!consent.checked) consent.click();
    part<HTMLButtonElement>(el, '[part="submit-button"]').click();
    await el.updateComplete;
  }

  const refusals: Array<[string, string]> = [
    ['99.999', 'Enter the budget in figures, such as 1,500.50.'],
    ['1e3', 'Enter the budget in figures, such as 1,500.50.'],
    ['$1,500', 'Enter the budget in figures, such as 1,500.50.'],
    ['1,50', 'Enter the budget in figures, such as 1,500.50.'],
    ['499.99', 'Enter a budget of at least $500.'],
    ['99999999999999999', 'Enter a budget of at most $21,474,836.47.'],
  ];
  for (const [typed, says] of refusals) {
    it(`refuses ${JSON.stringify(typed)} in the form, saying why, and sends nothing`, async () => {
      const el = await openForm('en-US');
      await send(el, typed);
      expect(part(el, '#problem').textContent).to.equal(says);
      expect(part<HTMLInputElement>(el, '#budget').getAttribute('aria-invalid')).to.equal('true');
      expect(stub.calls.length, 'only the eligibility was asked').to.equal(1);
    });
  }

  const accepted: Array<[string, string, number]> = [
    ['en-US', '1,500.50', 150050],
    ['en-US', '500', 50000],
    ['fr', '1 500,50', 150050],
  ];
  for (const [locale, typed, cents] of accepted) {
    it(`sends ${JSON.stringify(typed)} in ${locale} as ${cents} cents`, async () => {
      const el = await openForm(locale);
      await send(el, typed);
      const call = await stub.call(1);
      expect(call.method).to.equal('POST');
      expect((call.json as { budget_cents: number }).budget_cents).to.equal(cents);
    });
  }
});
