import { expect } from '@esm-bundle/chai';
import '../buy-button/buy-button.ts';
import type { DkBuyButton } from '../buy-button/buy-button.component.ts';
import '../domain-search/domain-search.ts';
import type { DkErrorEvent } from '../events/dk-error.ts';
import type { DkOrderCreatedEvent } from '../events/dk-order-created.ts';
import type { DkQuoteEvent } from '../events/dk-quote.ts';
import { FakeClock } from '../test-support/fake-clock.ts';
import { type FetchStub, useFetchStub, type FetchCall } from '../test-support/fetch-stub.ts';
import { fixture, nextEvent, part, rows, settle, text, untilPurchase, untilState } from '../test-support/fixtures.ts';
import type { OrderDetails } from '../types.ts';

const T0 = Date.parse('2030-01-01T12:00:00Z');
const QUOTE = {
  quote_id: 'q_1',
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
  expires_at: new Date(T0 + 10 * 60_000).toISOString(),
};
const ORDER = {
  order_id: 'ord_1',
  order_token: 'tok_secret_1',
  status: 'EXTERNALLY_PAID',
  domain: 'coffeehouse.com',
  sale_price_cents: 250000,
  currency: 'USD',
  created_at: '2030-01-01T12:01:00Z',
};
const DETAILS: OrderDetails = {
  buyer: { email: 'ada@example.com', name: 'Ada', country: 'GB' },
  payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
};

/** A buy button in order mode with a fake clock and a payment form in its `payment` slot. */
async function orderButton(): Promise<{ el: DkBuyButton; clock: FakeClock; form: HTMLFormElement }> {
  const el = await fixture('dk-buy-button', { domain: 'coffeehouse.com', mode: 'order', locale: 'en-US' });
  const clock = new FakeClock(T0);
  el.clock = clock;
  const form = document.createElement('form');
  form.slot = 'payment';
  form.innerHTML = '<label>Card <input name="card" value="4242 4242 4242 4242"></label><button>Pay</button>';
  el.append(form);
  return { el, clock, form };
}

/** Clicks Buy and answers the quote. */
async function quoted(stub: FetchStub, el: DkBuyButton, index = 0, quote: object = QUOTE): Promise<FetchCall> {
  part<HTMLButtonElement>(el, '[part="buy-button"]').click();
  const call = await stub.call(index);
  call.respond(201, quote);
  await untilPurchase(el, 'quoted');
  return call;
}

describe('order mode (MoR)', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('locks the price, counts down mm:ss, shows the payment slot and fires dk-quote', async () => {
    const { el, clock, form } = await orderButton();
    const quoteEvent = nextEvent(el, 'dk-quote');
    const post = await quoted(stub, el);
    expect([post.method, post.url.pathname]).to.deep.equal(['POST', '/dk/quotes']);
    expect(post.json).to.deep.equal({ domain: 'coffeehouse.com' });

    const event: DkQuoteEvent = await quoteEvent;
    expect(event.detail).to.deep.equal({
      quoteId: 'q_1',
      domain: 'coffeehouse.com',
      priceCents: 250000,
      currency: 'USD',
      expiresAt: QUOTE.expires_at,
    });
    expect([event.bubbles, event.composed]).to.deep.equal([true, true]);
    expect(text(part(el, '[part="order-title"]'))).to.equal('coffeehouse.com for $2,500');
    expect(text(part(el, '[part="countdown"]'))).to.equal('Price locked for 10:00');
    expect(part(el, '[part="payment"]').hidden).to.equal(false);
    expect(part<HTMLSlotElement>(el, 'slot[name="payment"]').assignedElements()).to.deep.equal([form]);
    expect(part(el, '[part="buy-button"]').hidden, 'the panel replaces the Buy button').to.equal(true);

    clock.advance(1500);
    await el.updateComplete;
    expect(text(part(el, '[part="countdown"]'))).to.equal('Price locked for 09:59');
    clock.advance(5 * 60_000);
    await el.updateComplete;
    expect(text(part(el, '[part="countdown"]'))).to.equal('Price locked for 04:59');
  });

  it('places the order with the quote id, buyer and payment (never a price), fires dk-order-created, then polls its status', async () => {
    const { el, clock } = await orderButton();
    await quoted(stub, el);
    const created = nextEvent(el, 'dk-order-created');
    const placing = el.placeOrder(DETAILS);
    const post = await stub.call(1);
    expect([post.method, post.url.pathname]).to.deep.equal(['POST', '/dk/orders']);
    expect(post.json).to.deep.equal({ quote_id: 'q_1', buyer: DETAILS.buyer, payment: DETAILS.payment });
    await untilPurchase(el, 'ordering');
    expect(text(part(el, '[part="order-message"]'))).to.equal('Placing your order…');
    expect(await el.placeOrder(DETAILS), 'a second submit while placing is ignored').to.equal(null);
    post.respond(201, ORDER);

    const detail = {
      orderId: 'ord_1',
      status: 'EXTERNALLY_PAID',
      domain: 'coffeehouse.com',
      salePriceCents: 250000,
      currency: 'USD',
    };
    expect(await placing).to.deep.equal(detail);
    const event: DkOrderCreatedEvent = await created;
    expect(event.detail, 'no order token in the event').to.deep.equal(detail);
    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order ord_1 for coffeehouse.com: Paid');
    expect(part(el, '[part="payment"]').hidden).to.equal(true);

    clock.advance(5000);
    const poll = await stub.call(2);
    expect([poll.method, poll.url.pathname, poll.headers.get('x-order-token')]).to.deep.equal([
      'GET',
      '/dk/orders/ord_1',
      'tok_secret_1',
    ]);
    poll.respond(200, { ...ORDER, status: 'TRANSFER_IN_PROGRESS', updated_at: '2030-01-01T12:02:00Z' });
    await settle(el);
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order ord_1 for coffeehouse.com: Transfer in progress');

    for (let i = 3; i <= 4; i++) {
      clock.advance(5000);
      (await stub.call(i)).respond(200, { ...ORDER, status: 'TRANSFER_IN_PROGRESS' });
      await settle(el);
    }
    clock.advance(60_000);
    await settle(el);
    expect(stub.calls, 'three polls, then only on demand').to.have.length(5);
    part<HTMLButtonElement>(el, '[part="order-button"]').click();
    (await stub.call(5)).respond(200, { ...ORDER, status: 'TRANSFER_COMPLETED' });
    await settle(el);
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order ord_1 for coffeehouse.com: Transfer completed');
  });

  it('shows a 202 PROCESSING order (paid, record still being retried) and polls until it is recorded', async () => {
    const { el, clock } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(202, { ...ORDER, status: 'PROCESSING' });
    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order ord_1 for coffeehouse.com: Processing');
    clock.advance(5000);
    (await stub.call(2)).respond(200, { ...ORDER, status: 'EXTERNALLY_PAID' });
    await settle(el);
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order ord_1 for coffeehouse.com: Paid');
  });

  it('retries a purchase whose answer was lost with the same purchase key; a declined one gets a new key', async () => {
    sessionStorage.clear();
    const { el } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    const first = await stub.call(1);
    const key = first.headers.get('idempotency-key');
    expect(key).to.match(/^[0-9a-f-]{36}$/);
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com'), 'kept across a reload').to.equal(key);
    first.failNetwork();
    await untilPurchase(el, 'quoted');

    void el.placeOrder(DETAILS);
    const retry = await stub.call(2);
    expect(retry.headers.get('idempotency-key'), 'the same attempt').to.equal(key);
    retry.respond(402, { error: { code: 'payment_declined', message: 'Declined.' } });
    await untilPurchase(el, 'quoted');
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com'), 'the attempt ended').to.equal(null);

    void el.placeOrder(DETAILS);
    const next = await stub.call(3);
    expect(next.headers.get('idempotency-key')).to.match(/^[0-9a-f-]{36}$/);
    expect(next.headers.get('idempotency-key'), 'a new attempt').to.not.equal(key);
    next.respond(201, ORDER);
    await untilPurchase(el, 'ordered');
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com')).to.equal(null);
  });

  it('shows the status of an order already in flight for the quote instead of offering a new quote', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(409, {
      error: { code: 'conflict', message: 'Wait for its status.', order_id: 'oi_7', status: 'PROCESSING' },
    });
    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order oi_7 for coffeehouse.com: Processing');
  });

  it('shows the order a re-quote finds in flight for the open purchase attempt, never a new price to pay', async () => {
    sessionStorage.clear();
    const first = await orderButton();
    const buy = await quoted(stub, first.el);
    expect(buy.headers.get('idempotency-key'), 'no attempt open yet').to.equal(null);
    void first.el.placeOrder(DETAILS);
    const lost = await stub.call(1);
    const key = lost.headers.get('idempotency-key');
    lost.failNetwork(); // the answer is lost: the attempt stays open
    await untilPurchase(first.el, 'quoted');
    first.el.remove();

    // The visitor reloads and presses Buy again.
    const { el, clock } = await orderButton();
    const created = nextEvent(el, 'dk-order-created');
    part<HTMLButtonElement>(el, '[part="buy-button"]').click();
    const requote = await stub.call(2);
    expect([requote.method, requote.url.pathname, requote.headers.get('idempotency-key')]).to.deep.equal([
      'POST',
      '/dk/quotes',
      key,
    ]);
    requote.respond(200, { ...ORDER, order_id: 'oi_7', order_token: 'tok_fresh_7', status: 'PROCESSING' });

    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order oi_7 for coffeehouse.com: Processing');
    expect(part(el, '[part="payment"]').hidden, 'nothing to pay').to.equal(true);
    expect((await created).detail).to.deep.equal({
      orderId: 'oi_7',
      status: 'PROCESSING',
      domain: 'coffeehouse.com',
      salePriceCents: 250000,
      currency: 'USD',
    });
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com'), 'the order is shown').to.equal(null);
    clock.advance(5000);
    const poll = await stub.call(3);
    expect([poll.url.pathname, poll.headers.get('x-order-token')]).to.deep.equal(['/dk/orders/oi_7', 'tok_fresh_7']);
    poll.respond(200, { ...ORDER, order_id: 'oi_7', status: 'EXTERNALLY_PAID', updated_at: '2030-01-01T12:02:00Z' });
    await settle(el);
    expect(text(part(el, '[part="order-status"]'))).to.equal('Order oi_7 for coffeehouse.com: Paid');
  });

  it('takes the order from a bubbling dk-place-order event dispatched by the slotted form', async () => {
    const { el, form } = await orderButton();
    await quoted(stub, el);
    form.dispatchEvent(new CustomEvent('dk-place-order', { bubbles: true, detail: DETAILS }));
    const post = await stub.call(1);
    expect(post.json).to.deep.equal({ quote_id: 'q_1', buyer: DETAILS.buyer, payment: DETAILS.payment });
  });

  it('expires the lock when the countdown ends and offers a fresh quote', async () => {
    const { el, clock } = await orderButton();
    await quoted(stub, el);
    clock.advance(10 * 60_000);
    await untilPurchase(el, 'expired');
    expect(text(part(el, '[part="order-message"]'))).to.equal('The price lock has expired.');
    expect(part(el, '[part="payment"]').hidden, 'no payment without a locked price').to.equal(true);
    expect(await el.placeOrder(DETAILS)).to.equal(null);
    expect(stub.calls).to.have.length(1);

    part<HTMLButtonElement>(el, '[part="order-button"]').click();
    const again = await stub.call(1);
    expect(again.url.pathname).to.equal('/dk/quotes');
    again.respond(201, { ...QUOTE, quote_id: 'q_2', expires_at: new Date(clock.now() + 10 * 60_000).toISOString() });
    await untilPurchase(el, 'quoted');
    expect(text(part(el, '[part="countdown"]'))).to.equal('Price locked for 10:00');
  });

  it('offers a fresh quote when the BFF answers quote_expired', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    const failed = nextEvent(el, 'dk-error');
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(422, { error: { code: 'quote_expired', message: 'The quote has expired.' } });
    expect((await failed).detail.code).to.equal('quote_expired');
    await untilPurchase(el, 'expired');
    expect(part(el, '[part="order-button"]').textContent?.trim()).to.equal('Get a new price');
  });

  it('shows a changed price and charges nothing until the visitor confirms it', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    const result = el.placeOrder(DETAILS);
    (await stub.call(1)).respond(422, {
      error: { code: 'price_mismatch', message: 'The price has changed.', price_cents: 270000 },
    });
    expect(await result).to.equal(null);
    await untilPurchase(el, 'mismatch');
    expect(text(part(el, '[part="order-message"]'))).to.equal('The price is now $2,700. Nothing was charged.');
    expect(text(part(el, '[part="order-button"]'))).to.equal('Buy for $2,700');
    await settle(el);
    expect(stub.calls, 'nothing more is sent without confirmation').to.have.length(2);

    part<HTMLButtonElement>(el, '[part="order-button"]').click();
    const requote = await stub.call(2);
    expect(requote.url.pathname).to.equal('/dk/quotes');
    requote.respond(201, { ...QUOTE, quote_id: 'q_2', price_cents: 270000 });
    const order = await stub.call(3);
    expect(order.json, 'the same buyer and payment, the new quote').to.deep.equal({
      quote_id: 'q_2',
      buyer: DETAILS.buyer,
      payment: DETAILS.payment,
    });
    order.respond(201, { ...ORDER, sale_price_cents: 270000 });
    await untilPurchase(el, 'ordered');
  });

  it('asks again when the fresh quote is at yet another price', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(422, {
      error: { code: 'price_mismatch', message: 'The price has changed.', price_cents: 270000 },
    });
    await untilPurchase(el, 'mismatch');
    part<HTMLButtonElement>(el, '[part="order-button"]').click();
    (await stub.call(2)).respond(201, { ...QUOTE, quote_id: 'q_2', price_cents: 290000 });
    await untilPurchase(el, 'mismatch');
    expect(text(part(el, '[part="order-button"]'))).to.equal('Buy for $2,900');
    await settle(el);
    expect(stub.calls).to.have.length(3);
  });

  it('says a declined payment charged nothing and lets the visitor try again', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    const failed = nextEvent(el, 'dk-error');
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(402, { error: { code: 'payment_declined', message: 'card_declined' } });
    const event: DkErrorEvent = await failed;
    expect(event.detail.code).to.equal('payment_declined');
    await untilPurchase(el, 'quoted');
    const message = 'Payment declined; nothing was charged. Check the details or try another card.';
    expect(text(part(el, '[part="order-error"]'))).to.equal(message);
    expect(event.detail.message).to.equal(message);
    expect(part(el, '[part="payment"]').hidden, 'the payment form stays').to.equal(false);

    void el.placeOrder(DETAILS);
    (await stub.call(2)).respond(201, ORDER);
    await untilPurchase(el, 'ordered');
    expect(el.shadowRoot!.querySelector('[part="order-error"]')).to.equal(null);
  });

  it('shows why a quote was refused (sold meanwhile) under the Buy button', async () => {
    const { el } = await orderButton();
    part<HTMLButtonElement>(el, '[part="buy-button"]').click();
    (await stub.call(0)).respond(409, { error: { code: 'conflict', message: 'This domain was just sold.' } });
    await untilPurchase(el, 'idle');
    expect(text(part(el, '[part="error"]'))).to.equal('This domain was just sold.');
    expect(part(el, '[part="buy-button"]').hidden).to.equal(false);
  });

  it('Cancel drops the quote and brings the Buy button back', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    part<HTMLButtonElement>(el, '[part="cancel-button"]').click();
    await untilPurchase(el, 'idle');
    expect(el.shadowRoot!.querySelector('[part="order"]')).to.equal(null);
    expect(part(el, '[part="buy-button"]').hidden).to.equal(false);
  });

  it('runs the same flow from a search result, with the payment slot on <dk-domain-search>', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0', mode: 'order', locale: 'en-US' });
    search.clock = new FakeClock(T0);
    const form = document.createElement('form');
    form.slot = 'payment';
    search.append(form);
    search.search('coffee');
    (await stub.call(0)).respond(200, {
      query: 'coffee',
      results: [{ domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' }],
    });
    await untilState(search, 'results');
    rows(search)[0]!.click();
    const post = await stub.call(1);
    expect([post.url.pathname, post.json]).to.deep.equal(['/dk/quotes', { domain: 'coffeehouse.com' }]);
    post.respond(201, QUOTE);
    await untilPurchase(search, 'quoted');
    expect(part(search, '[part="results"]').hidden, 'the results make room for the order panel').to.equal(true);
    expect(part(search, '[part="input"]').getAttribute('aria-expanded')).to.equal('false');
    expect(part<HTMLSlotElement>(search, 'slot[name="payment"]').assignedElements()).to.deep.equal([form]);

    const created = nextEvent(search, 'dk-order-created');
    void search.placeOrder(DETAILS);
    (await stub.call(2)).respond(201, ORDER);
    expect((await created).detail.orderId).to.equal('ord_1');
    part<HTMLButtonElement>(search, '[part="cancel-button"]').click(); // "Done"
    await untilPurchase(search, 'idle');
    expect(part(search, '[part="results"]').hidden).to.equal(false);

    search.search('coffee');
    await untilState(search, 'loading'); // the sale emptied the page cache: availability is asked again
  });
});
