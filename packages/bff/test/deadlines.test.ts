/**
 * Deadlines end to end (option `requestDeadlineSeconds`): with a marketplace that hangs, a visitor's search is
 * answered 504 `upstream_timeout` at the deadline, and a purchase 202 `PROCESSING` with its order id and view token,
 * after which it completes exactly once; the webhook route answers 503 with `Retry-After` when it cannot store an
 * event. The deadline is injected short (2 s) and the hang is a held call: nothing here measures time.
 */
import { signWebhookPayload } from '@domainkit/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testCardPayments } from '../src/index.ts';
import {
  KEY_ID,
  SECRET,
  call,
  openTestDatabase,
  postJson,
  startStubMarketplace,
  startTestBff,
  type StubMarketplace,
  type TestDatabase,
} from './helpers.ts';

const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };
const WEBHOOK_SECRET = 'whsec_deadline_test_secret_0001';
let stub: StubMarketplace;
let testDb: TestDatabase;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  testDb = await openTestDatabase('pglite');
});
afterAll(async () => {
  await testDb.close().catch(() => undefined); // the last test closes it already
});
beforeEach(async () => {
  stub = await startStubMarketplace();
  await testDb.reset();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await stub.close();
});

async function shop(now: () => number = Date.now) {
  const bff = await startTestBff(stub, {
    database: testDb.database,
    payments: testCardPayments(),
    background: { enabled: false },
    // One upstream attempt of at most 8 s: far longer than the visitor's deadline.
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0, timeoutMs: 8_000 },
    requestDeadlineSeconds: 2,
    webhook: { secret: WEBHOOK_SECRET },
    now,
  });
  closers.push(() => bff.close());
  return bff;
}

describe('a marketplace that hangs', () => {
  it('answers a search 504 upstream_timeout at the deadline', async () => {
    const bff = await shop();
    const held = stub.hold('search', false);

    const res = await call(`${bff.url}/search?q=coffee`);
    await held;

    expect(res.status).toBe(504);
    expect(res.json).toEqual({
      error: { code: 'upstream_timeout', message: expect.stringMatching(/taking too long.*try again shortly/) },
    });
    expect(bff.lines.some((l) => l.includes('visitor request passed its deadline'))).toBe(true);
  });

  it('answers a purchase 202 PROCESSING at the deadline; the order is then recorded exactly once', async () => {
    let now = Date.now();
    const bff = await shop(() => now);
    const quote = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
    expect(quote.status).toBe(201);
    const held = stub.hold('order', false);

    const res = await postJson(
      `${bff.url}/orders`,
      { quote_id: quote.json.quote_id, buyer: { email: 'ada@example.com' }, payment: CARD },
      { 'idempotency-key': 'deadline-purchase-key-0001' },
    );
    await held;

    // The visitor has the purchase's status and a way to follow it, while the record still hangs upstream.
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({
      order_id: expect.stringMatching(/^oi_/),
      order_token: expect.any(String),
      status: 'PROCESSING',
      domain: 'coffeehouse.com',
    });
    const view = await call(`${bff.url}/orders/${res.json.order_id}`, {
      headers: { 'x-order-token': res.json.order_token },
    });
    expect(view.json.status).toBe('PROCESSING');

    // The hanging attempt gives up in the background and leaves the intent to the recovery pass.
    await waitUntil(() => bff.lines.some((l) => l.includes('order not recorded yet')));
    now += 60_000;
    const report = await bff.bff.recover();
    expect(report).toMatchObject({ recorded: 1, outstanding: 0 });
    expect(stub.orders.size).toBe(1);
    const keys = stub.callsTo('order').map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const done = await call(`${bff.url}/orders/${res.json.order_id}`, {
      headers: { 'x-order-token': res.json.order_token },
    });
    expect(done.json).toMatchObject({ order_id: 'ord_0001', status: 'EXTERNALLY_PAID' });
    // A retry with the same purchase key is answered from the order, never paid again.
    const retry = await postJson(
      `${bff.url}/orders`,
      { quote_id: quote.json.quote_id, buyer: { email: 'ada@example.com' }, payment: CARD },
      { 'idempotency-key': 'deadline-purchase-key-0001' },
    );
    expect(retry.status).toBe(201);
    expect(retry.json.order_id).toBe('ord_0001');
    expect(stub.orders.size).toBe(1);
  });
});

// Last: it closes the shared database.
describe('the webhook route', () => {
  it('answers 503 with Retry-After when it cannot store the event, never 500', async () => {
    const bff = await shop();
    await testDb.close(); // the partner's database is down
    const body = JSON.stringify({
      id: 'evt_000000000001',
      type: 'order.settled',
      created_at: new Date().toISOString(),
      partner_id: 'prt_1',
      data: {
        order: {
          public_id: 'ord_0001',
          domain: 'coffeehouse.com',
          status: 'SETTLED',
          sale_price_cents: 250000,
          currency: 'USD',
        },
      },
    });

    const res = await call(`${bff.url}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': await signWebhookPayload(WEBHOOK_SECRET, body),
      },
      body,
    });

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json.error).toMatchObject({ code: 'unavailable', retry_after: 30 });
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!done()) throw new Error('timed out');
}
