/**
 * Regressions of "charged, then lost": money moves last. The BFF validates everything the marketplace will validate
 * before any payment step; with a two-phase adapter it authorizes, records upstream, then captures; a permanent
 * refusal voids at once and the visitor is told nothing was taken; transient failures go to recovery, which gives
 * up within the documented deadline, voids and reports; a capture refused after recording refunds the order
 * upstream (`POST /refunds`).
 */
import { describe, expect, it } from 'vitest';
import { testCardPayments, type FailedOrderReport } from '../src/index.ts';
import { call, postJson, startTestBff, useDatabaseAndStub } from './helpers.ts';

const GOOD_CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };
const CAPTURE_FAILS_CARD = { method: 'test_card', card_number: '4000 0000 0000 0341' };
const BUYER = { email: 'ada@example.com', name: 'Ada Lovelace', country: 'GB' };

const fx = useDatabaseAndStub('pglite');

async function shop(options: { now?: () => number } = {}) {
  const payments = testCardPayments();
  const failures: FailedOrderReport[] = [];
  const bff = await startTestBff(fx.stub, {
    database: fx.testDb.database,
    payments,
    background: { enabled: false },
    orderDeadlineSeconds: 30,
    onOrderFailed: (report) => void failures.push(report),
    ...(options.now ? { now: options.now } : {}),
  });
  fx.closers.push(() => bff.close());
  const quote = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
  expect(quote.status).toBe(201);
  return { bff, payments, failures, quoteId: quote.json.quote_id as string };
}

describe('input the marketplace would refuse is refused before any payment step', () => {
  it.each([
    ['a NUL in the buyer name', { ...BUYER, name: 'a\u0000b' }, 'buyer.name'],
    ['an unpaired surrogate in the buyer name', { ...BUYER, name: 'a\ud800b' }, 'buyer.name'],
    ['a control character in the email', { ...BUYER, email: 'ada\u0007@example.com' }, 'buyer.email'],
  ])('%s: 400 validation_error naming the field, and the adapter saw no call', async (_name, buyer, field) => {
    const { bff, payments, quoteId } = await shop();
    const res = await postJson(`${bff.url}/orders`, { quote_id: quoteId, buyer, payment: GOOD_CARD });
    expect([res.status, res.json.error.code]).toEqual([400, 'validation_error']);
    expect(res.json.error.message).toContain(field);
    expect(payments.calls).toEqual([]);
    expect(fx.stub.callsTo('order')).toHaveLength(0);
  });

  it('a NUL in quote_id is a 400, not a 500 from the BFF database', async () => {
    const { bff, payments } = await shop();
    const res = await postJson(`${bff.url}/orders`, { quote_id: 'qt_\u0000', buyer: BUYER, payment: GOOD_CARD });
    expect([res.status, res.json.error.code]).toEqual([400, 'validation_error']);
    expect(payments.calls).toEqual([]);
  });
});

describe('two-phase payment', () => {
  it('authorizes, records upstream, then captures', async () => {
    const { bff, payments, quoteId } = await shop();
    const res = await postJson(`${bff.url}/orders`, { quote_id: quoteId, buyer: BUYER, payment: GOOD_CARD });
    expect(res.status).toBe(201);
    const intent = payments.calls[0]!.split(' ')[1];
    expect(payments.calls).toEqual([`authorize ${intent}`, `capture ${intent}`]);
    expect([...payments.charges.values()].map((c) => c.status)).toEqual(['captured']);
    expect(fx.stub.orders.size).toBe(1);
  });

  it('a permanent refusal after authorization voids at once; the visitor is told nothing was taken', async () => {
    const { bff, payments, failures, quoteId } = await shop();
    fx.stub.enqueue('order', {
      status: 400,
      body: { error: { code: 'validation_error', message: 'buyer.country: unknown country' } },
    });

    const res = await postJson(`${bff.url}/orders`, { quote_id: quoteId, buyer: BUYER, payment: GOOD_CARD });

    expect(res.status).toBe(502);
    expect(res.json.error.message).toMatch(/Nothing was taken from your card\./);
    expect([...payments.charges.values()].map((c) => c.status)).toEqual(['voided']);
    expect(payments.calls.map((c) => c.split(' ')[0])).toEqual(['authorize', 'void']);
    expect(failures).toMatchObject([{ reason: 'refused', money: 'voided', domain: 'coffeehouse.com' }]);
    expect(fx.stub.orders.size).toBe(0);
  });

  it('transient failures go to recovery, which gives up at the deadline, voids and reports the intent', async () => {
    let now = Date.now();
    const { bff, payments, failures, quoteId } = await shop({ now: () => now });
    const down = { status: 503, body: { error: { code: 'internal_error', message: 'down' } } };
    fx.stub.enqueue('order', down, down, down, down, down, down);

    const res = await postJson(`${bff.url}/orders`, { quote_id: quoteId, buyer: BUYER, payment: GOOD_CARD });
    expect([res.status, res.json.status]).toEqual([202, 'PROCESSING']);

    now += 10_000;
    await expect(bff.bff.recover()).resolves.toMatchObject({ pending: 1, gaveUp: 0 });
    expect(failures).toEqual([]);
    now += 21_000; // past the 30-s deadline
    await expect(bff.bff.recover()).resolves.toMatchObject({ gaveUp: 1, outstanding: 0 });

    expect([...payments.charges.values()].map((c) => c.status)).toEqual(['voided']);
    expect(payments.calls.filter((c) => c.startsWith('capture'))).toEqual([]);
    expect(failures).toMatchObject([{ reason: 'gave_up', money: 'voided' }]);
    expect(bff.lines.some((l) => l.includes('"level":50') && l.includes('gave up'))).toBe(true);
    const view = await call(`${bff.url}/orders/${res.json.order_id}`, {
      headers: { 'x-order-token': res.json.order_token },
    });
    expect(view.json.status).toBe('FAILED');
  });

  it('a capture refused after recording refunds the order through POST /refunds and voids', async () => {
    const { bff, payments, failures, quoteId } = await shop();

    const res = await postJson(`${bff.url}/orders`, { quote_id: quoteId, buyer: BUYER, payment: CAPTURE_FAILS_CARD });

    expect([res.status, res.json.error.code]).toEqual([402, 'payment_declined']);
    expect(res.json.error.message).toMatch(/Nothing was taken from your card/);
    const refunds = fx.stub.callsTo('refund');
    expect(refunds).toHaveLength(1);
    expect(JSON.parse(refunds[0]!.body)).toMatchObject({ order_id: 'ord_0001' });
    expect(fx.stub.orders.get('ord_0001')?.status).toBe('REFUNDED');
    expect([...payments.charges.values()].map((c) => c.status)).toEqual(['voided']);
    expect(failures).toMatchObject([
      { reason: 'capture_failed', money: 'voided', orderId: 'ord_0001', orderRefund: 'refunded' },
    ]);
  });
});
