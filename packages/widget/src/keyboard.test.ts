/**
 * Keyboard-only search and purchase, with real key presses (Playwright through @web/test-runner-commands),
 * following the WAI-ARIA combobox pattern with a grid popup.
 */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import './index.ts';
import type { DkDomainSearch } from './domain-search/domain-search.component.ts';
import { FakeClock } from './test-support/fake-clock.ts';
import { type FetchStub, useFetchStub } from './test-support/fetch-stub.ts';
import { fixture, nextEvent, part, rows, settle, untilPurchase, untilState } from './test-support/fixtures.ts';
import type { WidgetDomain } from './types.ts';

const COFFEE: WidgetDomain[] = [
  { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
  { domain: 'coffeebeans.io', available: true, price_cents: 1999, currency: 'USD' },
  { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
];

/** The active result as the combobox exposes it: the row containing the `aria-activedescendant` cell. */
function activeDomain(search: DkDomainSearch): string | null {
  const input = part(search, '[part="input"]');
  const id = input.getAttribute('aria-activedescendant');
  if (id === null) return null;
  const row = search.shadowRoot!.getElementById(id)?.closest<HTMLElement>('[role="row"]');
  expect(row?.getAttribute('aria-selected'), 'the active row is marked selected').to.equal('true');
  return row?.dataset.domain ?? null;
}

async function press(search: DkDomainSearch, key: string): Promise<void> {
  await sendKeys({ press: key });
  await search.updateComplete;
}

async function typedSearch(stub: FetchStub, attributes: Record<string, string> = {}): Promise<DkDomainSearch> {
  const search = await fixture('dk-domain-search', { debounce: '60000', locale: 'en-US', ...attributes });
  part(search, '[part="input"]').focus();
  await sendKeys({ type: 'coffee' });
  await sendKeys({ press: 'Enter' }); // searches at once
  const call = await stub.call(0);
  expect(call.url.searchParams.get('q')).to.equal('coffee');
  call.respond(200, { query: 'coffee', results: COFFEE });
  await untilState(search, 'results');
  return search;
}

describe('keyboard', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('moves through results with ArrowDown/ArrowUp (wrapping), Home and End, while focus stays in the box', async () => {
    const search = await typedSearch(stub);
    const input = part(search, '[part="input"]');
    expect(activeDomain(search)).to.equal(null);
    await press(search, 'ArrowDown');
    expect(activeDomain(search)).to.equal('coffeehouse.com');
    await press(search, 'ArrowDown');
    expect(activeDomain(search)).to.equal('coffeebeans.io');
    await press(search, 'ArrowDown');
    await press(search, 'ArrowDown');
    expect(activeDomain(search), 'wraps to the first').to.equal('coffeehouse.com');
    await press(search, 'ArrowUp');
    expect(activeDomain(search), 'wraps to the last').to.equal('coffee.shop');
    await press(search, 'Home');
    expect(activeDomain(search)).to.equal('coffeehouse.com');
    await press(search, 'End');
    expect(activeDomain(search)).to.equal('coffee.shop');
    expect(search.shadowRoot!.activeElement).to.equal(input);
    expect(rows(search).filter((row) => row.getAttribute('aria-selected') === 'true')).to.have.length(1);
  });

  it('Escape closes the results, a second Escape clears the box; ArrowDown reopens them', async () => {
    const search = await typedSearch(stub);
    const input = part<HTMLInputElement>(search, '[part="input"]');
    await press(search, 'ArrowDown');
    await press(search, 'Escape');
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(input.hasAttribute('aria-activedescendant')).to.equal(false);
    expect(part(search, '[part="results"]').hidden).to.equal(true);
    await press(search, 'ArrowDown');
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    expect(activeDomain(search)).to.equal('coffeehouse.com');
    await press(search, 'Escape');
    await press(search, 'Escape');
    expect(input.value).to.equal('');
    expect(search.dataset.state).to.equal('initial');
  });

  it('Enter on the active result fires dk-select and buys it (checkout mode): navigates to checkout_url', async () => {
    const search = await typedSearch(stub);
    const visited: string[] = [];
    search.navigate = (url) => visited.push(url);
    const selected = nextEvent(search, 'dk-select');
    await press(search, 'ArrowDown');
    await press(search, 'ArrowDown');
    await press(search, 'Enter');
    expect((await selected).detail.domain).to.equal('coffeebeans.io');
    const post = await stub.call(1);
    // The element's locale goes with it: the hosted checkout speaks the page's language.
    expect([post.url.pathname, post.json]).to.deep.equal([
      '/dk/checkout',
      { domain: 'coffeebeans.io', locale: 'en-US' },
    ]);
    post.respond(201, { checkout_url: 'https://market.example/checkout?pt=k1', expires_at: null });
    await untilPurchase(search, 'pending'); // stays busy while the page unloads
    await settle(search);
    expect(visited).to.deep.equal(['https://market.example/checkout?pt=k1']);
  });

  it('Enter on a taken domain selects it but buys nothing; a cancelled dk-select buys nothing either', async () => {
    const search = await typedSearch(stub);
    await press(search, 'ArrowUp');
    expect(activeDomain(search)).to.equal('coffee.shop');
    await press(search, 'Enter');
    await settle(search);
    expect(stub.calls).to.have.length(1);
    search.addEventListener('dk-select', (event) => event.preventDefault(), { once: true });
    await press(search, 'Home');
    await press(search, 'Enter');
    await settle(search);
    expect(stub.calls).to.have.length(1);
  });

  it('buys in order mode without a mouse: Enter locks the price, focus moves to the panel, Tab reaches the payment form', async () => {
    const search = await typedSearch(stub, { mode: 'order' });
    search.clock = new FakeClock(Date.parse('2030-01-01T12:00:00Z'));
    const form = document.createElement('form');
    form.slot = 'payment';
    form.innerHTML = '<label>Email <input name="email" type="email"></label><button>Pay</button>';
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const email = (form.elements.namedItem('email') as HTMLInputElement).value;
      form.dispatchEvent(
        new CustomEvent('dk-place-order', {
          bubbles: true,
          detail: { buyer: { email }, payment: { method: 'test_card', card_number: '4242 4242 4242 4242' } },
        }),
      );
    });
    search.append(form);

    await press(search, 'ArrowDown');
    await press(search, 'Enter');
    (await stub.call(1)).respond(201, {
      quote_id: 'q_1',
      domain: 'coffeehouse.com',
      price_cents: 250000,
      currency: 'USD',
      expires_at: '2030-01-01T12:10:00Z',
    });
    await untilPurchase(search, 'quoted');
    await search.updateComplete;
    expect(search.shadowRoot!.activeElement, 'focus moved to the order panel').to.equal(part(search, '[part="order"]'));

    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(form.querySelector('input'));
    await sendKeys({ type: 'ada@example.com' });
    await sendKeys({ press: 'Enter' });
    const order = await stub.call(2);
    expect(order.json).to.deep.equal({
      quote_id: 'q_1',
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    });
    order.respond(201, {
      order_id: 'ord_9',
      order_token: 't',
      status: 'EXTERNALLY_PAID',
      domain: 'coffeehouse.com',
      sale_price_cents: 250000,
      currency: 'USD',
      created_at: '2030-01-01T12:01:00Z',
    });
    await untilPurchase(search, 'ordered');
  });
});
