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

/** Bidi isolates (FSI … PDI) around a value placed inside a sentence. */
const iso = (value: string): string => `\u2068${value}\u2069`;

/** The four ways the order flow says what became of the money; a message must hold exactly one of them. */
const MONEY = {
  not_charged: 'Nothing was charged.',
  refunded: 'Your payment was refunded.',
  refund_pending: 'Your payment will be refunded.',
  unknown: 'If you were charged, the order will be completed or your payment refunded automatically.',
} as const;

/** How many times the order panel's whole text speaks of the money (charged, refunded, taken). */
const moneyMentions = (panel: string): number => panel.match(/charged|refund|taken/gi)?.length ?? 0;

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

  it('places the order with the quote id, buyer and payment (never a price), fires dk-order-created, then follows it to the end, never back', async () => {
    const { el } = await orderButton();
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
    expect(text(part(el, '[part="order-heading"]'))).to.equal('Thank you for your order!');
    expect(text(part(el, '[part="order-status"]'))).to.equal(
      `You paid ${iso('$2,500')} for ${iso('coffeehouse.com')}.`,
    );
    expect(part(el, '[part="payment"]').hidden).to.equal(true);

    // A long poll at once (the BFF answers when a webhook moves the order), with the token in a header.
    const first = await stub.call(2);
    expect([first.method, first.url.pathname, first.headers.get('x-order-token')]).to.deep.equal([
      'GET',
      '/dk/orders/ord_1/status',
      'tok_secret_1',
    ]);
    expect([first.url.searchParams.get('after'), first.url.searchParams.get('wait')]).to.deep.equal([null, '12']);
    first.respond(200, { ...ORDER, version: '1', final: false });
    const moved = await stub.call(3);
    expect(moved.url.searchParams.get('after'), 'waits for a change from what it shows').to.equal('1');
    moved.respond(200, { ...ORDER, status: 'TRANSFER_IN_PROGRESS', version: '2', final: false });
    await settle(el);
    expect(text(part(el, '[part="order-next"]'))).to.equal(
      `The transfer of ${iso('coffeehouse.com')} to you has started. Watch your email for the steps.`,
    );
    // An older answer (a replayed version) never moves the view back.
    (await stub.call(4)).respond(200, { ...ORDER, status: 'EXTERNALLY_PAID', version: '1', final: false });
    await settle(el);
    expect(text(part(el, '[part="order-next"]'))).to.match(/^The transfer of .* has started/);
    (await stub.call(5)).respond(200, { ...ORDER, status: 'TRANSFER_COMPLETED', version: '3', final: false });
    await settle(el);
    expect(text(part(el, '[part="order-next"]'))).to.equal(`${iso('coffeehouse.com')} has been transferred to you.`);
    (await stub.call(6)).respond(200, { ...ORDER, status: 'SETTLED', version: '4', final: true });
    await settle(el);
    expect(stub.calls, 'no more requests once the order is final').to.have.length(7);
  });

  it('shows the placed order as thanks, the domain, the amount and the next step, and moves focus to its heading', async () => {
    const { el, form } = await orderButton();
    await quoted(stub, el);
    // The partner's form disables its Pay button while paying (focus would drop to <body>).
    const pay = form.querySelector('button')!;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      pay.disabled = true;
      void el.placeOrder(DETAILS);
    });
    pay.focus();
    pay.click();
    (await stub.call(1)).respond(201, ORDER);
    await untilPurchase(el, 'ordered');
    await settle(el);

    const heading = part(el, '[part="order-heading"]');
    expect([heading.getAttribute('role'), heading.getAttribute('aria-level')]).to.deep.equal(['heading', '2']);
    expect(el.shadowRoot!.activeElement, 'focus is on the heading, not <body>').to.equal(heading);
    expect(text(part(el, '[part="order"]'))).to.equal(
      [
        'Thank you for your order!',
        `You paid ${iso('$2,500')} for ${iso('coffeehouse.com')}.`,
        `What happens now: the marketplace transfers ${iso('coffeehouse.com')} to you. Watch your email for the transfer instructions.`,
        `Order reference: ${iso('ord_1')}`,
        'Done',
      ].join(' '),
    );
    expect(el.shadowRoot!.querySelector('[part="order-button"]'), 'no lone "Refresh status"').to.equal(null);
  });

  it('words the placed order in the strings given, with the price in the page locale', async () => {
    const { el } = await orderButton();
    el.locale = 'fr-FR';
    el.strings = { orderThanks: 'Merci pour votre commande !', orderPaid: (d, p) => `Vous avez payé ${p} pour ${d}.` };
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(201, ORDER);
    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-heading"]'))).to.equal('Merci pour votre commande !');
    expect(text(part(el, '[part="order-status"]'))).to.equal(
      `Vous avez payé ${iso('2\u202f500\u00a0$US')} pour ${iso('coffeehouse.com')}.`,
    );
  });

  it('shows a 202 PROCESSING order (paid, record still being retried) and polls until it is recorded', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(202, { ...ORDER, status: 'PROCESSING' });
    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.equal(
      `We are completing your order of ${iso('coffeehouse.com')} for ${iso('$2,500')}. If it cannot be completed, your payment will be refunded automatically.`,
    );
    expect(moneyMentions(text(part(el, '[part="order"]'))), 'the money is said once').to.equal(1);
    (await stub.call(2)).respond(200, { ...ORDER, status: 'EXTERNALLY_PAID', version: '2', final: false });
    await settle(el);
    expect(text(part(el, '[part="order-status"]'))).to.equal(
      `You paid ${iso('$2,500')} for ${iso('coffeehouse.com')}.`,
    );
  });

  it('says once what became of the money when the recorded purchase ends without an order', async () => {
    const { el, clock } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(202, { ...ORDER, status: 'PROCESSING' });
    await untilPurchase(el, 'ordered');
    // The BFF retries the record for up to 30 s: the status is followed past the usual three polls.
    for (let i = 2; i <= 6; i++) {
      (await stub.call(i)).respond(200, { ...ORDER, status: 'PROCESSING', version: String(i), final: false });
      await settle(el);
    }
    (await stub.call(7)).respond(200, { ...ORDER, status: 'REFUNDED', money: 'refunded', version: '7', final: true });
    await settle(el);
    clock.advance(60_000);
    await settle(el);
    expect(stub.calls, 'no polling once it ended').to.have.length(8);
    expect(text(part(el, '[part="order-heading"]'))).to.equal('Your order could not be completed.');
    expect(text(part(el, '[part="order-status"]'))).to.equal(MONEY.refunded);
    expect(moneyMentions(text(part(el, '[part="order"]')))).to.equal(1);
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
    expect(sessionStorage.getItem('dk-purchase-quote:coffeehouse.com'), 'with its quote').to.equal('q_1');
    first.failNetwork();
    await untilPurchase(el, 'quoted');

    void el.placeOrder(DETAILS);
    const retry = await stub.call(2);
    expect(retry.headers.get('idempotency-key'), 'the same attempt').to.equal(key);
    retry.respond(402, { error: { code: 'payment_declined', message: 'Declined.' } });
    await untilPurchase(el, 'quoted');
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com'), 'the attempt ended').to.equal(null);
    expect(sessionStorage.getItem('dk-purchase-quote:coffeehouse.com'), 'the attempt ended').to.equal(null);

    void el.placeOrder(DETAILS);
    const next = await stub.call(3);
    expect(next.headers.get('idempotency-key')).to.match(/^[0-9a-f-]{36}$/);
    expect(next.headers.get('idempotency-key'), 'a new attempt').to.not.equal(key);
    next.respond(201, ORDER);
    await untilPurchase(el, 'ordered');
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com')).to.equal(null);
  });

  it('makes a purchase key on a page that is not a secure context (no crypto.randomUUID)', async () => {
    sessionStorage.clear();
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const { el } = await orderButton();
      await quoted(stub, el);
      void el.placeOrder(DETAILS);
      const post = await stub.call(1);
      expect(post.headers.get('idempotency-key')).to.match(/^[0-9a-f]{32}$/);
      post.respond(201, ORDER);
      await untilPurchase(el, 'ordered');
    } finally {
      delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
  });

  it('shows the status of an order already in flight for the quote instead of offering a new quote', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(409, {
      error: { code: 'order_in_progress', message: 'Wait for its status.', order_id: 'oi_7', status: 'PROCESSING' },
    });
    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.match(/^We are completing your order of/);
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
    const { el } = await orderButton();
    const created = nextEvent(el, 'dk-order-created');
    part<HTMLButtonElement>(el, '[part="buy-button"]').click();
    const requote = await stub.call(2);
    expect([requote.method, requote.url.pathname, requote.headers.get('idempotency-key')]).to.deep.equal([
      'POST',
      '/dk/quotes',
      key,
    ]);
    // The key is bound to the quote it paid: the BFF answers the order only to both.
    expect(requote.json).to.deep.equal({ domain: 'coffeehouse.com', quote_id: 'q_1' });
    requote.respond(200, { ...ORDER, order_id: 'oi_7', order_token: 'tok_fresh_7', status: 'PROCESSING' });

    await untilPurchase(el, 'ordered');
    expect(text(part(el, '[part="order-status"]'))).to.match(/^We are completing your order of/);
    expect(text(part(el, '[part="order-reference"]'))).to.equal(`Order reference: ${iso('oi_7')}`);
    expect(part(el, '[part="payment"]').hidden, 'nothing to pay').to.equal(true);
    expect((await created).detail).to.deep.equal({
      orderId: 'oi_7',
      status: 'PROCESSING',
      domain: 'coffeehouse.com',
      salePriceCents: 250000,
      currency: 'USD',
    });
    expect(sessionStorage.getItem('dk-purchase-key:coffeehouse.com'), 'the order is shown').to.equal(null);
    const poll = await stub.call(3);
    expect([poll.url.pathname, poll.headers.get('x-order-token')]).to.deep.equal([
      '/dk/orders/oi_7/status',
      'tok_fresh_7',
    ]);
    poll.respond(200, { ...ORDER, order_id: 'oi_7', status: 'EXTERNALLY_PAID', version: '2', final: false });
    await settle(el);
    expect(text(part(el, '[part="order-status"]'))).to.equal(
      `You paid ${iso('$2,500')} for ${iso('coffeehouse.com')}.`,
    );
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
    expect(text(part(el, '[part="order-message"]'))).to.equal(`The price is now ${iso('$2,700')}. ${MONEY.unknown}`);
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

  it('a busy shop while confirming a new price says busy and keeps the new price, never "expired"', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    void el.placeOrder(DETAILS);
    (await stub.call(1)).respond(422, {
      error: { code: 'price_mismatch', message: 'x', price_cents: 270000, money: 'not_charged' },
    });
    await untilPurchase(el, 'mismatch');
    part<HTMLButtonElement>(el, '[part="order-button"]').click();
    (await stub.call(2)).respond(503, { error: { code: 'busy', message: 'Busy.', retry_after: 2 } });
    await settle(el);
    const panel = text(part(el, '[part="order"]'));
    expect(panel).to.not.contain('expired');
    expect(el.dataset.purchase).to.equal('mismatch');
    expect(text(part(el, '[part="order-message"]'))).to.equal(
      `The price is now ${iso('$2,700')}. ${MONEY.not_charged}`,
    );
    // The BFF's retry_after (2 s) is said: when to try again, not "shortly".
    expect(text(part(el, '[part="order-error"]'))).to.equal('Busy right now. Please try again in 2 seconds.');
    expect(moneyMentions(panel), 'the money is still said once').to.equal(1);

    part<HTMLButtonElement>(el, '[part="order-button"]').click(); // the visitor confirms again
    (await stub.call(3)).respond(201, { ...QUOTE, quote_id: 'q_2', price_cents: 270000 });
    (await stub.call(4)).respond(201, { ...ORDER, sale_price_cents: 270000 });
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
    const message = `Payment declined. Check the details or try another card. ${MONEY.not_charged}`;
    expect(text(part(el, '[part="order-error"]'))).to.equal(message);
    expect(event.detail.message).to.equal(message);
    expect(part(el, '[part="payment"]').hidden, 'the payment form stays').to.equal(false);

    void el.placeOrder(DETAILS);
    (await stub.call(2)).respond(201, ORDER);
    await untilPurchase(el, 'ordered');
    expect(el.shadowRoot!.querySelector('[part="order-error"]')).to.equal(null);
  });

  describe('says what became of the money exactly once, for every way an order can fail', () => {
    const cases = [
      {
        name: 'price changed, charge refunded',
        answer: [422, { code: 'price_mismatch', message: 'x', price_cents: 270000, money: 'refunded' }],
        phase: 'mismatch',
        shown: `The price is now ${iso('$2,700')}. ${MONEY.refunded}`,
      },
      {
        name: 'price changed, authorization released',
        answer: [422, { code: 'price_mismatch', message: 'x', price_cents: 270000, money: 'not_charged' }],
        phase: 'mismatch',
        shown: `The price is now ${iso('$2,700')}. ${MONEY.not_charged}`,
      },
      {
        name: 'declined',
        answer: [402, { code: 'payment_declined', message: 'x', money: 'not_charged' }],
        phase: 'quoted',
        shown: `Payment declined. Check the details or try another card. ${MONEY.not_charged}`,
      },
      {
        name: 'quote expired upstream after the charge',
        answer: [422, { code: 'quote_expired', message: 'x', money: 'refund_pending' }],
        phase: 'expired',
        shown: `The price lock has expired. ${MONEY.refund_pending}`,
      },
      {
        name: 'sold meanwhile',
        answer: [409, { code: 'conflict', message: 'x', money: 'refunded' }],
        phase: 'failed',
        shown: `${iso('coffeehouse.com')} was sold to someone else in the meantime. ${MONEY.refunded}`,
      },
      {
        name: 'refused upstream after the charge',
        answer: [502, { code: 'upstream_error', message: 'x', money: 'refunded' }],
        phase: 'failed',
        shown: `The marketplace could not take this order. ${MONEY.refunded}`,
      },
      {
        name: 'payment outcome unknown',
        answer: [502, { code: 'payment_error', message: 'x', money: 'unknown' }],
        phase: 'quoted',
        shown: `We could not confirm your payment. ${MONEY.unknown}`,
      },
      {
        name: 'busy before any charge',
        answer: [503, { code: 'busy', message: 'x', retry_after: 3, money: 'not_charged' }],
        phase: 'quoted',
        shown: null, // the busy string, then the money
        money: MONEY.not_charged,
      },
      {
        name: 'connection lost',
        answer: null,
        phase: 'quoted',
        shown: `The connection was lost while placing your order. Submitting it again is safe. ${MONEY.unknown}`,
      },
    ] as const;

    for (const c of cases) {
      it(c.name, async () => {
        const { el } = await orderButton();
        await quoted(stub, el);
        const failed = nextEvent(el, 'dk-error');
        void el.placeOrder(DETAILS);
        const post = await stub.call(1);
        if (c.answer) post.respond(c.answer[0], { error: c.answer[1] });
        else post.failNetwork();
        const event = await failed;
        await untilPurchase(el, c.phase);
        const panel = text(part(el, '[part="order"]'));
        const said = el.shadowRoot!.querySelector(
          c.phase === 'quoted' ? '[part="order-error"]' : '[part="order-message"]',
        );
        if (c.shown) expect(text(said)).to.equal(c.shown);
        else expect(text(said).endsWith(` ${'money' in c ? c.money : ''}`)).to.equal(true);
        expect(moneyMentions(panel), `the money is said once in: ${panel}`).to.equal(moneyMentions(text(said)));
        expect(event.detail.message, 'dk-error carries the message shown').to.equal(text(said));
        if (c.phase === 'failed') {
          expect(el.shadowRoot!.querySelector('[part="order-button"]'), 'nothing to retry').to.equal(null);
          expect(part(el, '[part="payment"]').hidden).to.equal(true);
        }
      });
    }

    it('keeps the money of a failed attempt when the price lock then runs out', async () => {
      const { el, clock } = await orderButton();
      await quoted(stub, el);
      void el.placeOrder(DETAILS);
      (await stub.call(1)).failNetwork();
      await untilPurchase(el, 'quoted');
      clock.advance(10 * 60_000);
      await untilPurchase(el, 'expired');
      expect(text(part(el, '[part="order-message"]'))).to.equal(`The price lock has expired. ${MONEY.unknown}`);
    });
  });

  it('shows why a quote was refused (sold meanwhile) under the Buy button', async () => {
    const { el } = await orderButton();
    part<HTMLButtonElement>(el, '[part="buy-button"]').click();
    (await stub.call(0)).respond(409, { error: { code: 'conflict', message: 'This domain was just sold.' } });
    // Sold, or held by another buyer's lock? The widget asks the domain's availability: sold.
    const check = await stub.call(1);
    expect([check.method, check.url.pathname]).to.deep.equal(['GET', '/dk/domains/coffeehouse.com']);
    check.respond(200, { domain: 'coffeehouse.com', available: false, price_cents: null, currency: null });
    await untilPurchase(el, 'idle');
    expect(text(part(el, '[part="error"]'))).to.equal('This domain was just sold.');
    expect(part(el, '[part="buy-button"]').hidden).to.equal(false);
  });

  it('says a refused quote of a domain still listed is reserved by another buyer, never sold', async () => {
    const { el } = await orderButton();
    part<HTMLButtonElement>(el, '[part="buy-button"]').click();
    (await stub.call(0)).respond(409, { error: { code: 'conflict', message: 'reserved by another quote' } });
    (await stub.call(1)).respond(200, {
      domain: 'coffeehouse.com',
      available: true,
      price_cents: 400000,
      currency: 'USD',
    });
    await untilPurchase(el, 'idle');
    expect(text(part(el, '[part="error"]'))).to.equal(
      'Another buyer is completing a purchase of this domain. If they stop, it is for sale again within 10 minutes.',
    );
  });

  it('Cancel drops the quote and brings the Buy button back', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    part<HTMLButtonElement>(el, '[part="cancel-button"]').click();
    await untilPurchase(el, 'idle');
    expect(el.shadowRoot!.querySelector('[part="order"]')).to.equal(null);
    expect(part(el, '[part="buy-button"]').hidden).to.equal(false);
  });

  it('names an internationalised domain in Unicode from its row to the placed order, the ASCII form beside it', async () => {
    const search = await fixture('dk-domain-search', { debounce: '0', mode: 'order', locale: 'en-US' });
    search.clock = new FakeClock(T0);
    const ascii = 'xn--mnchen-3ya.de';
    const named = { domain: ascii, display_name: 'münchen.de' };
    search.search('münchen');
    (await stub.call(0)).respond(200, {
      query: 'xn--mnchen-3ya',
      results: [{ ...named, available: true, price_cents: 120000, currency: 'USD' }],
    });
    await untilState(search, 'results');
    const row = rows(search)[0]!;
    const name = row.querySelector<HTMLElement>('[part~="name"]')!;
    expect(text(name)).to.equal('münchen.de');
    expect(name.title, 'the ASCII form as its title').to.equal(ascii);
    expect(row.querySelector('[part="buy-button"]')!.getAttribute('aria-label')).to.equal('Buy münchen.de');
    row.click();
    const post = await stub.call(1);
    expect(post.json, 'the request names the ASCII form').to.deep.equal({ domain: ascii });
    post.respond(201, { ...QUOTE, ...named, price_cents: 120000 });
    await untilPurchase(search, 'quoted');
    expect(text(part(search, '[part="order-title"]'))).to.equal('münchen.de for $1,200');
    expect(text(part(search, '[part="order-ascii"]'))).to.equal(ascii);

    void search.placeOrder(DETAILS);
    // An answer without display_name (an older BFF): the name the row gave is kept.
    (await stub.call(2)).respond(201, { ...ORDER, domain: ascii, sale_price_cents: 120000 });
    await untilPurchase(search, 'ordered');
    await settle(search);
    expect(text(part(search, '[part="order-status"]'))).to.equal(`You paid ${iso('$1,200')} for ${iso('münchen.de')}.`);
    expect(text(part(search, '[part="order-ascii"]'))).to.equal(ascii);
  });

  it('shows an ASCII name without a second line, and a name without display_name as it is', async () => {
    const { el } = await orderButton();
    await quoted(stub, el);
    expect(text(part(el, '[part="order-title"]'))).to.equal('coffeehouse.com for $2,500');
    expect(el.shadowRoot!.querySelector('[part="order-ascii"]')).to.equal(null);
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
