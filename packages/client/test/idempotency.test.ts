/**
 * One Idempotency-Key per logical order (Partner API spec 4.1 "Idempotency on POST /orders"): generated once when the caller
 * gives none, reused across every retry of that call (each signed afresh), a new one for the next order; writes
 * without a key are not repeated after an ambiguous failure.
 */
import { describe, expect, it } from 'vitest';
import { MarketplaceConnectionError } from '../src/index.ts';
import { errorBody, mockAgentPerTest, orderAnswer, script, testClient, type ReceivedRequest } from './helpers.ts';

const agent = mockAgentPerTest({ assertNoPendingInterceptors: true });

const ORDERS = '/api/partner/v1/orders';
const order = {
  domain: 'coffeehouse.com',
  quote_id: 'qt_signed.abc',
  expected_price: 250000,
  currency: 'USD',
  buyer: { email: 'ada@example.com' },
};
const serverError = { status: 500, body: errorBody('internal_error', 'Unexpected') };
const created = { status: 201, body: orderAnswer() };

describe('POST /orders', () => {
  it('generates one key and reuses it across a 500, a network error and a 429, signing each attempt afresh', async () => {
    const a = agent();
    const received: ReceivedRequest[] = [];
    script(a, 'POST', ORDERS, [serverError], received);
    script(a, 'POST', ORDERS, [new Error('ECONNRESET')]);
    script(
      a,
      'POST',
      ORDERS,
      [{ status: 429, body: errorBody('rate_limited', 'Slow down'), headers: { 'retry-after': '1' } }, created],
      received,
    );
    const { client, sleeps } = testClient(a, { maxRetries: 3 });

    const result = await client.orders.create(order);

    expect(result.public_id).toBe('ord_0001');
    expect(received).toHaveLength(3); // the network error never reached the reply callback
    const keys = received.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(new Set(received.map((r) => r.signature.nonce)).size).toBe(3);
    expect(new Set(received.map((r) => r.body.toString('utf8'))).size).toBe(1); // same body: same fingerprint
    expect(sleeps).toHaveLength(3);
    expect(sleeps[2]).toBe(1000);
  });

  it('uses the caller’s key on every attempt', async () => {
    const a = agent();
    const received = script(a, 'POST', ORDERS, [serverError, created]);
    const { client } = testClient(a);

    await client.orders.create(order, { idempotencyKey: 'intent_7f3a' });

    expect(received.map((r) => r.headers['idempotency-key'])).toEqual(['intent_7f3a', 'intent_7f3a']);
  });

  it('uses a different key for the next logical order', async () => {
    const a = agent();
    const received = script(a, 'POST', ORDERS, [created, created]);
    const { client } = testClient(a);

    await client.orders.create(order);
    await client.orders.create(order);

    expect(received[0]!.headers['idempotency-key']).not.toBe(received[1]!.headers['idempotency-key']);
  });

  it('does not retry a 409 conflict (the key was used with another body)', async () => {
    const a = agent();
    const received = script(a, 'POST', ORDERS, [
      { status: 409, body: errorBody('conflict', 'Idempotency-Key reused with a different body') },
    ]);
    const { client } = testClient(a);

    await expect(client.orders.create(order, { idempotencyKey: 'k1' })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
    });
    expect(received).toHaveLength(1);
  });

  it.each([
    ['quote_expired', 422],
    ['price_mismatch', 422],
  ])('does not retry %s', async (code, status) => {
    const a = agent();
    const received = script(a, 'POST', ORDERS, [{ status, body: errorBody(code, 'nope') }]);
    const { client } = testClient(a);

    await expect(client.orders.create(order)).rejects.toMatchObject({ status, code });
    expect(received).toHaveLength(1);
  });
});

describe('writes without a key', () => {
  it('a refund is not repeated after a 500 or a network error, but is with a caller key', async () => {
    const a = agent();
    const once = script(a, 'POST', '/api/partner/v1/refunds', [serverError]);
    script(a, 'POST', '/api/partner/v1/refunds', [new Error('socket hang up')]);
    const { client } = testClient(a);

    await expect(client.refunds.create({ order_id: 'ord_0001' })).rejects.toMatchObject({ status: 500 });
    await expect(client.refunds.create({ order_id: 'ord_0001' })).rejects.toBeInstanceOf(MarketplaceConnectionError);
    expect(once).toHaveLength(1);
    expect(once[0]!.headers['idempotency-key']).toBeUndefined();

    const keyed = script(a, 'POST', '/api/partner/v1/refunds', [
      serverError,
      {
        status: 201,
        body: {
          refund_id: 'rf_1',
          order_id: 'ord_0001',
          amount_cents: 250000,
          currency: 'USD',
          status: 'REFUNDED',
          created_at: '2030-01-01T00:00:00Z',
        },
      },
    ]);
    await expect(
      client.refunds.create({ order_id: 'ord_0001' }, { idempotencyKey: 'refund-ord_0001' }),
    ).resolves.toMatchObject({ refund_id: 'rf_1' });
    expect(keyed.map((r) => r.headers['idempotency-key'])).toEqual(['refund-ord_0001', 'refund-ord_0001']);
  });

  it('a quote is retried after a 429 but not after a 500', async () => {
    const a = agent();
    const received = script(a, 'POST', '/api/partner/v1/quotes', [
      { status: 429, body: errorBody('rate_limited', 'Slow down'), headers: { 'retry-after': '2' } },
      serverError,
    ]);
    const { client, sleeps } = testClient(a);

    await expect(client.quotes.create({ domain: 'coffeehouse.com' })).rejects.toMatchObject({ status: 500 });
    expect(received).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('a webhook registration (PUT, idempotent) is retried after a 503', async () => {
    const a = agent();
    const received = script(a, 'PUT', '/api/partner/webhooks', [
      { status: 503, body: errorBody('internal_error', 'Unavailable') },
      { status: 200, body: { url: 'https://shop.example/hook', active: true, created_at: '2030-01-01T00:00:00Z' } },
    ]);
    const { client } = testClient(a);

    await expect(
      client.webhooks.register({ url: 'https://shop.example/hook', secret: 'whsec_test_0123456789abcdef' }),
    ).resolves.toMatchObject({ active: true });
    expect(received).toHaveLength(2);
  });
});
