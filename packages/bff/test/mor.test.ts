/**
 * Merchant of Record over HTTP, in front of the stub marketplace: quote → test-card payment → order recorded
 * upstream with an Idempotency-Key stored before the charge; the price always from the stored quote; declines,
 * expired and unknown quotes, double submits; a failed record never reported as success and finished by the
 * recovery pass with the same key; the order-view token. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from 'vitest';
import { testCardPayments, type PaymentAdapter } from '../src/index.ts';
import { KEY_ID, SECRET, call, databaseKinds, postJson, startTestBff, useDatabaseAndStub } from './helpers.ts';

const GOOD_CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };
const DECLINED_CARD = { method: 'test_card', card_number: '4000 0000 0000 0002' };
const BUYER = { email: 'ada@example.com', name: 'Ada Lovelace', country: 'gb' };

describe.each(databaseKinds())('MoR orders on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  async function shop(overrides: Parameters<typeof startTestBff>[1] = {}) {
    const payments = testCardPayments();
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      payments,
      background: { enabled: false },
      ...overrides,
    });
    fx.closers.push(() => bff.close());
    return { bff, payments: (overrides.payments ?? payments) as ReturnType<typeof testCardPayments> };
  }

  async function quote(url: string, domain = 'coffeehouse.com') {
    const res = await postJson(`${url}/quotes`, { domain });
    expect(res.status).toBe(201);
    return res.json as { quote_id: string; price_cents: number };
  }

  it('quotes, charges the test card for the quoted price, records the order upstream, and shows it to its buyer only', async () => {
    const { bff, payments } = await shop();

    const q = await postJson(`${bff.url}/quotes`, { domain: 'CoffeeHouse.com' });
    expect(q.status).toBe(201);
    expect(q.json).toEqual({
      quote_id: 'qt_1.sig',
      domain: 'coffeehouse.com',
      price_cents: 250000,
      currency: 'USD',
      expires_at: expect.any(String),
    });

    const order = await postJson(`${bff.url}/orders`, { quote_id: q.json.quote_id, buyer: BUYER, payment: GOOD_CARD });

    expect(order.status).toBe(201);
    expect(order.json).toEqual({
      order_id: 'ord_0001',
      order_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      status: 'EXTERNALLY_PAID',
      domain: 'coffeehouse.com',
      sale_price_cents: 250000,
      currency: 'USD',
      created_at: expect.any(String),
    });
    const upstream = fx.stub.callsTo('order');
    expect(upstream).toHaveLength(1);
    const sent = JSON.parse(upstream[0]!.body);
    const [charge] = [...payments.charges.values()];
    expect(sent).toEqual({
      domain: 'coffeehouse.com',
      quote_id: 'qt_1.sig',
      expected_price: 250000,
      currency: 'USD',
      buyer: { email: 'ada@example.com', name: 'Ada Lovelace', country: 'GB' },
      external_payment_ref: charge!.reference,
    });
    expect(upstream[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(payments.charges.size).toBe(1);

    const mine = await call(`${bff.url}/orders/ord_0001`, { headers: { 'x-order-token': order.json.order_token } });
    const noToken = await call(`${bff.url}/orders/ord_0001`);
    const wrongToken = await call(`${bff.url}/orders/ord_0001`, {
      headers: { 'x-order-token': `${order.json.order_token.slice(0, -2)}xx` },
    });
    const unknown = await call(`${bff.url}/orders/ord_9999`, { headers: { 'x-order-token': order.json.order_token } });

    expect(mine.status).toBe(200);
    expect(mine.json).toEqual({
      order_id: 'ord_0001',
      status: 'EXTERNALLY_PAID',
      domain: 'coffeehouse.com',
      sale_price_cents: 250000,
      currency: 'USD',
      updated_at: expect.any(String),
    });
    for (const res of [noToken, wrongToken, unknown]) {
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: { code: 'not_found', message: 'No such order for this order token.' } });
    }
  });

  it('never takes a price from the browser', async () => {
    const { bff, payments } = await shop();
    const q = await quote(bff.url);

    const res = await postJson(`${bff.url}/orders`, {
      quote_id: q.quote_id,
      buyer: BUYER,
      payment: GOOD_CARD,
      price_cents: 1,
    });

    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/^Unknown field `price_cents` in the body/);
    expect(payments.charges.size).toBe(0);
    expect(fx.stub.callsTo('order')).toHaveLength(0);
  });

  it('answers a declined card 402, records nothing, and lets the buyer pay the same quote with another card', async () => {
    const { bff, payments } = await shop();
    const q = await quote(bff.url);

    const declined = await postJson(`${bff.url}/orders`, {
      quote_id: q.quote_id,
      buyer: BUYER,
      payment: DECLINED_CARD,
    });
    expect(declined.status).toBe(402);
    expect(declined.json.error).toEqual({
      code: 'payment_declined',
      message:
        'Your payment was declined (the card was declined); you have not been charged. Try another payment method.',
      money: 'not_charged',
    });
    expect(fx.stub.callsTo('order')).toHaveLength(0);

    const paid = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });
    expect(paid.status).toBe(201);
    expect([...payments.charges.values()].map((c) => c.status)).toEqual(['declined', 'captured']);
    expect(fx.stub.orders.size).toBe(1);
  });

  it('charges a quote once when "Pay" is sent twice', async () => {
    const { bff, payments } = await shop();
    const q = await quote(bff.url);

    const [a, b] = await Promise.all([
      postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD }),
      postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD }),
    ]);

    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.json.error.code).toBe('order_in_progress');
    expect(payments.charges.size).toBe(1);
    expect(fx.stub.orders.size).toBe(1);
  });

  it.each([
    ['an unknown quote', 'qt_nope', 404, 'not_found'],
    ['a malformed card', 'QUOTE', 400, 'validation_error'],
  ])('refuses %s before charging', async (_name, quoteId, status, code) => {
    const { bff, payments } = await shop();
    const q = await quote(bff.url);

    const res = await postJson(`${bff.url}/orders`, {
      quote_id: quoteId === 'QUOTE' ? q.quote_id : quoteId,
      buyer: BUYER,
      payment: quoteId === 'QUOTE' ? { method: 'test_card', card_number: '1234' } : GOOD_CARD,
    });

    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect(payments.charges.size).toBe(0);
  });

  it('answers an expired quote 422 quote_expired without charging', async () => {
    let now = Date.now();
    const { bff, payments } = await shop({ now: () => now });
    const q = await quote(bff.url);
    now += 10 * 60_000;

    const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });

    expect(res.status).toBe(422);
    expect(res.json.error).toEqual({
      code: 'quote_expired',
      message: 'This price quote has expired: ask for a new quote (POST /quotes).',
      money: 'not_charged',
    });
    expect(payments.charges.size).toBe(0);
  });

  it('never reports a failed record as success: 202 PROCESSING, then the recovery pass records it once with the same key and body', async () => {
    let now = Date.now();
    const { bff } = await shop({ now: () => now });
    const q = await quote(bff.url);
    fx.stub.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'db down' } } });

    const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });

    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({
      order_id: expect.stringMatching(/^oi_/),
      status: 'PROCESSING',
      sale_price_cents: 250000,
    });
    expect(fx.stub.orders.size).toBe(0);
    const pending = await call(`${bff.url}/orders/${res.json.order_id}`, {
      headers: { 'x-order-token': res.json.order_token },
    });
    expect(pending.json.status).toBe('PROCESSING');
    await expect(bff.bff.recover()).resolves.toMatchObject({ recorded: 0, outstanding: 1 }); // not before its retry time, but still unfinished
    now += 6_000;

    const report = await bff.bff.recover();

    expect(report).toEqual({ recorded: 1, rejected: 0, gaveUp: 0, pending: 0, closed: 0, outstanding: 0 });
    const attempts = fx.stub.callsTo('order');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.headers['idempotency-key']).toBe(attempts[0]!.headers['idempotency-key']);
    expect(attempts[1]!.body).toBe(attempts[0]!.body);
    expect(fx.stub.orders.size).toBe(1);
    const done = await call(`${bff.url}/orders/${res.json.order_id}`, {
      headers: { 'x-order-token': res.json.order_token },
    });
    expect(done.json).toMatchObject({ order_id: 'ord_0001', status: 'EXTERNALLY_PAID' });
    await expect(bff.bff.recover()).resolves.toEqual({
      recorded: 0,
      rejected: 0,
      gaveUp: 0,
      pending: 0,
      closed: 0,
      outstanding: 0,
    });
  });

  it('finishes an order whose answer was lost (recorded upstream, reply never came) without a second order', async () => {
    let now = Date.now();
    const { bff } = await shop({
      now: () => now,
      marketplace: { baseUrl: fx.stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0, timeoutMs: 300 },
    });
    const q = await quote(bff.url);
    const held = fx.stub.hold('order', true);

    const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });
    await held;

    expect(res.status).toBe(202);
    expect(fx.stub.orders.size).toBe(1); // upstream has it; the BFF does not know yet
    now += 6_000;
    const report = await bff.bff.recover();
    expect(report.recorded).toBe(1);
    expect(fx.stub.orders.size).toBe(1); // the retry with the same key replayed the stored answer
    const view = await call(`${bff.url}/orders/${res.json.order_id}`, {
      headers: { 'x-order-token': res.json.order_token },
    });
    expect(view.json).toMatchObject({ order_id: 'ord_0001', status: 'EXTERNALLY_PAID' });
  });

  it('voids the authorization and answers 422 price_mismatch with the new price when the marketplace refuses the price', async () => {
    const refunds: string[] = [];
    const adapter = testCardPayments();
    const payments: PaymentAdapter = { ...adapter, refundPayment: async (r) => void refunds.push(r.reference) };
    const { bff } = await shop({ payments });
    const q = await quote(bff.url);
    fx.stub.enqueue('order', {
      status: 422,
      body: { error: { code: 'price_mismatch', message: 'listing price is 260000' } },
    });

    const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });

    expect(res.status).toBe(422);
    expect(res.json.error).toEqual({
      code: 'price_mismatch',
      price_cents: 250000,
      message:
        'The price of coffeehouse.com has changed. Nothing was taken from your card. Review the new price and confirm again.',
      money: 'not_charged',
    });
    expect([...adapter.charges.values()].map((c) => c.status)).toEqual(['voided']);
    expect(adapter.calls.filter((c) => c.startsWith('capture'))).toEqual([]);
    expect(refunds).toHaveLength(0);
    await expect(bff.bff.recover()).resolves.toMatchObject({ recorded: 0 });
  });

  it("never sends the browser's purchase key upstream: each order gets its own stored Idempotency-Key", async () => {
    const { bff } = await shop();
    const q1 = await quote(bff.url, 'coffeehouse.com');
    const q2 = await quote(bff.url, 'coffeeshop.io');

    const a = await postJson(
      `${bff.url}/orders`,
      { quote_id: q1.quote_id, buyer: BUYER, payment: GOOD_CARD },
      { 'idempotency-key': 'purchase-key-aaaaaaaa-0001' },
    );
    const b = await postJson(
      `${bff.url}/orders`,
      { quote_id: q2.quote_id, buyer: BUYER, payment: GOOD_CARD },
      { 'idempotency-key': 'purchase-key-bbbbbbbb-0002' },
    );

    expect([a.status, b.status]).toEqual([201, 201]);
    const keys = fx.stub.callsTo('order').map((c) => c.headers['idempotency-key']);
    expect(keys).not.toContain('purchase-key-aaaaaaaa-0001');
    expect(keys).not.toContain('purchase-key-bbbbbbbb-0002');
    expect(new Set(keys).size).toBe(2);
    expect(fx.stub.orders.size).toBe(2);
  });

  describe('the purchase key (Idempotency-Key from the widget)', () => {
    const KEY = { 'idempotency-key': '2f0c6a0e-5b1d-4c39-9a8e-0d7f3c1b9e42' };

    it('answers a retry from the stored intent: the same order, a fresh view token, no second charge', async () => {
      const { bff, payments } = await shop();
      const q = await quote(bff.url);
      const body = { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD };

      const first = await postJson(`${bff.url}/orders`, body, KEY);
      const retry = await postJson(`${bff.url}/orders`, body, KEY);

      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.json).toEqual({
        ...first.json,
        order_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        created_at: expect.any(String),
      });
      expect(retry.json.order_token).not.toBe(first.json.order_token);
      expect(payments.charges.size).toBe(1);
      expect(fx.stub.callsTo('order')).toHaveLength(1);
      const view = await call(`${bff.url}/orders/${retry.json.order_id}`, {
        headers: { 'x-order-token': retry.json.order_token },
      });
      expect(view.json).toMatchObject({ order_id: 'ord_0001', status: 'EXTERNALLY_PAID' });
    });

    it('answers a retry while the record is pending 202 PROCESSING; the key with a new quote reveals nothing', async () => {
      const { bff, payments } = await shop();
      const q = await quote(bff.url);
      fx.stub.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'db down' } } });
      const first = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );
      expect(first.status).toBe(202);

      const retry = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );
      expect(retry.status).toBe(202);
      expect(retry.json).toMatchObject({ order_id: first.json.order_id, status: 'PROCESSING' });

      // The key with another quote is not this purchase: the key is bound to its quote, never a bearer token.
      const q2 = await quote(bff.url);
      const other = await postJson(
        `${bff.url}/orders`,
        { quote_id: q2.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );

      expect(other.status).toBe(409);
      expect(other.json.error).toEqual({ code: 'conflict', message: expect.any(String), money: 'not_charged' });
      expect(payments.charges.size).toBe(1);
      expect(fx.stub.callsTo('order')).toHaveLength(1);
      for (const token of [first.json.order_token, retry.json.order_token]) {
        const view = await call(`${bff.url}/orders/${first.json.order_id}`, { headers: { 'x-order-token': token } });
        expect(view.json.status).toBe('PROCESSING');
      }
    });

    it('answers a retry of a declined attempt 402 again without charging', async () => {
      const { bff, payments } = await shop();
      const q = await quote(bff.url);
      const body = { quote_id: q.quote_id, buyer: BUYER, payment: DECLINED_CARD };
      expect((await postJson(`${bff.url}/orders`, body, KEY)).status).toBe(402);
      const retry = await postJson(`${bff.url}/orders`, { ...body, payment: GOOD_CARD }, KEY);
      expect(retry.status).toBe(402);
      expect(retry.json.error.code).toBe('payment_declined');
      expect([...payments.charges.values()].map((c) => c.status)).toEqual(['declined']);
    });

    it('tells a request without the key, for a quote whose order is in flight, to wait (409 with its status)', async () => {
      const { bff, payments } = await shop();
      const q = await quote(bff.url);
      fx.stub.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'db down' } } });
      const first = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );
      expect(first.status).toBe(202);

      const again = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });

      expect(again.status).toBe(409);
      expect(again.json.error).toEqual({
        code: 'order_in_progress',
        message: expect.stringMatching(/already being processed: wait for its status; you will not be charged again/),
        order_id: first.json.order_id,
        status: 'PROCESSING',
        money: 'not_charged',
      });
      expect(payments.charges.size).toBe(1);
    });

    it('answers a re-quote of the domain with the purchase key of an order in flight with that order, asking no quote', async () => {
      const { bff, payments } = await shop();
      const q = await quote(bff.url);
      fx.stub.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'db down' } } });
      const first = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );
      expect(first.status).toBe(202);

      // The answer was lost; the visitor reloads and presses Buy again: the widget sends the attempt's key and quote.
      const again = await postJson(`${bff.url}/quotes`, { domain: 'CoffeeHouse.com', quote_id: q.quote_id }, KEY);

      expect(again.status).toBe(200);
      expect(again.json).toEqual({
        order_id: first.json.order_id,
        order_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        status: 'PROCESSING',
        domain: 'coffeehouse.com',
        sale_price_cents: 250000,
        currency: 'USD',
        created_at: first.json.created_at,
      });
      expect(again.json.order_token).not.toBe(first.json.order_token);
      expect(fx.stub.callsTo('quote')).toHaveLength(1); // no new quote upstream
      expect(payments.charges.size).toBe(1);
      const view = await call(`${bff.url}/orders/${again.json.order_id}`, {
        headers: { 'x-order-token': again.json.order_token },
      });
      expect(view.json).toMatchObject({ order_id: first.json.order_id, status: 'PROCESSING' });
    });

    it('answers a re-quote with the key of a recorded order with that order; others get a new quote', async () => {
      const { bff } = await shop();
      const q = await quote(bff.url);
      const first = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );
      expect(first.status).toBe(201);

      const mine = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com', quote_id: q.quote_id }, KEY);
      const noKey = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
      const otherKey = await postJson(
        `${bff.url}/quotes`,
        { domain: 'coffeehouse.com' },
        { 'idempotency-key': 'another-visitor-key-0001' },
      );
      const otherDomain = await postJson(`${bff.url}/quotes`, { domain: 'coffeeshop.io' }, KEY);

      expect([mine.status, mine.json.order_id, mine.json.status]).toEqual([200, 'ord_0001', 'EXTERNALLY_PAID']);
      // Another visitor never learns the order nor gets a token for it: upstream answers their quote (sold).
      expect([noKey.status, noKey.json.error.code, noKey.json.error.order_id]).toEqual([409, 'conflict', undefined]);
      expect([otherKey.status, otherKey.json.error.code, otherKey.json.error.order_id]).toEqual([
        409,
        'conflict',
        undefined,
      ]);
      expect([otherDomain.status, otherDomain.json.domain]).toEqual([201, 'coffeeshop.io']);
      expect(fx.stub.callsTo('quote')).toHaveLength(4);
    });

    it('answers a re-quote with the key of an attempt that ended (declined) with a new quote', async () => {
      const { bff } = await shop();
      const q = await quote(bff.url);
      const declined = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: DECLINED_CARD },
        KEY,
      );
      expect(declined.status).toBe(402);

      const again = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' }, KEY);

      expect(again.status).toBe(201);
      expect(again.json.quote_id).toEqual(expect.any(String));
    });

    it('refuses a malformed key on a quote before asking upstream', async () => {
      const { bff } = await shop();
      const res = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' }, { 'idempotency-key': 'short' });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toMatch(/^The Idempotency-Key header must be 16 to 128/);
      expect(fx.stub.callsTo('quote')).toHaveLength(0);
    });

    it('refuses a malformed key before charging', async () => {
      const { bff, payments } = await shop();
      const q = await quote(bff.url);
      const res = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        { 'idempotency-key': 'short' },
      );
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({
        code: 'validation_error',
        message: expect.stringMatching(/^The Idempotency-Key header must be 16 to 128/),
        money: 'not_charged',
      });
      expect(payments.charges.size).toBe(0);
    });
  });

  it('answers 503 busy before charging when no upstream write can be sent', async () => {
    const { bff, payments } = await shop({ upstreamBudget: { write: { perMinute: 2, burst: 1 }, maxWaitMs: 0 } });
    const q = await quote(bff.url); // takes the only write token

    const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });

    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: 'busy', retry_after: expect.any(Number), money: 'not_charged' });
    expect(res.json.error.message).toMatch(/^The shop is busy right now; retry in \d+ s\.$/);
    expect(res.headers['retry-after']).toBe(String(res.json.error.retry_after));
    expect(payments.charges.size).toBe(0);
  });

  describe('every failed order says what became of the money, in one field the widget words once', () => {
    /** A one-phase adapter (charges at once) with or without a refund call. */
    function oneCharge(refund: 'works' | 'fails' | 'absent'): PaymentAdapter {
      return {
        name: 'one_phase',
        confirmPayment: async (r) => ({ status: 'succeeded', reference: `ch_${r.intentId}` }),
        ...(refund !== 'absent' && {
          refundPayment: async () => {
            if (refund === 'fails') throw new Error('provider down');
          },
        }),
      };
    }
    const PRICE = { status: 422, body: { error: { code: 'price_mismatch', message: 'now 260000' } } };
    const SOLD = { status: 409, body: { error: { code: 'conflict', message: 'sold' } } };
    const REFUSED = { status: 400, body: { error: { code: 'validation_error', message: 'no' } } };
    const EXPIRED = { status: 422, body: { error: { code: 'quote_expired', message: 'late' } } };
    const KEY = { 'idempotency-key': '7d1e1c52-0f7a-4a59-8a53-3b5f9f0d2c11' };

    it.each([
      ['price changed, authorization voided', 'two', PRICE, 'price_mismatch', 'not_charged'],
      ['price changed, charge refunded', 'works', PRICE, 'price_mismatch', 'refunded'],
      ['sold meanwhile, charge refunded', 'works', SOLD, 'conflict', 'refunded'],
      ['quote expired upstream, refund failed', 'fails', EXPIRED, 'quote_expired', 'refund_pending'],
      ['refused upstream, no refund call', 'absent', REFUSED, 'upstream_error', 'refund_pending'],
    ] as const)('%s', async (_name, adapter, upstream, code, money) => {
      const { bff } = await shop(adapter === 'two' ? {} : { payments: oneCharge(adapter) });
      const q = await quote(bff.url);
      fx.stub.enqueue('order', upstream);
      const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD }, KEY);
      expect(res.json.error).toMatchObject({ code, money });
      const sentences = (res.json.error.message as string).match(
        /nothing was taken|not been charged|refunded|If you were charged/gi,
      );
      expect(sentences, 'the message states the money once').toHaveLength(1);
      // A retry with the same purchase key gets the same money, from what is stored.
      const retry = await postJson(
        `${bff.url}/orders`,
        { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD },
        KEY,
      );
      expect(retry.json.error.money).toBe(money);
    });

    it('a payment whose outcome is unknown says so (payment_error, money unknown)', async () => {
      const failing: PaymentAdapter = {
        name: 'flaky',
        confirmPayment: async () => {
          throw new Error('timeout');
        },
      };
      const { bff } = await shop({ payments: failing });
      const q = await quote(bff.url);
      const res = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });
      expect(res.status).toBe(502);
      expect(res.json.error).toMatchObject({ code: 'payment_error', money: 'unknown' });
    });

    it('the order view of a refused purchase carries its money', async () => {
      let now = Date.now();
      const { bff } = await shop({ payments: oneCharge('works'), now: () => now });
      const q = await quote(bff.url);
      fx.stub.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'db down' } } });
      const first = await postJson(`${bff.url}/orders`, { quote_id: q.quote_id, buyer: BUYER, payment: GOOD_CARD });
      expect(first.status).toBe(202);
      fx.stub.enqueue('order', SOLD);
      now += 6_000;
      await expect(bff.bff.recover()).resolves.toMatchObject({ rejected: 1 });
      const view = await call(`${bff.url}/orders/${first.json.order_id}`, {
        headers: { 'x-order-token': first.json.order_token },
      });
      expect(view.json).toMatchObject({ status: 'REFUNDED', money: 'refunded' });
    });
  });

  it('maps quote errors: 404 unlisted, 409 sold', async () => {
    const { bff } = await shop();

    const unlisted = await postJson(`${bff.url}/quotes`, { domain: 'unlisted.com' });
    const sold = await postJson(`${bff.url}/quotes`, { domain: 'coffee.net' });

    expect([unlisted.status, unlisted.json.error.code]).toEqual([404, 'not_found']);
    expect([sold.status, sold.json.error.code]).toEqual([409, 'conflict']);
  });
});
