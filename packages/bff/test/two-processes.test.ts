/**
 * Two BFF processes on one PostgreSQL (runs when TEST_DATABASE_URL is set), each with its own connection pool, as
 * two processes behind a load balancer would be: they share the upstream budget, the webhook inbox (an event
 * delivered to both is handled once) and the order intents (one finishes what the other left).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { signWebhookPayload } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBffDatabase, testCardPayments, type BffDatabase } from '../src/index.ts';
import { call, postJson, startStubMarketplace, startTestBff, type StubMarketplace } from './helpers.ts';

const url = process.env.TEST_DATABASE_URL;
const schema = `dk_bff_two_${randomBytes(6).toString('hex')}`;
const WEBHOOK_SECRET = 'whsec_test_TwoProcessesSecret01';
const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };

describe.skipIf(!url)('two BFF processes on one PostgreSQL', () => {
  let stub: StubMarketplace;
  let dbA: BffDatabase;
  let dbB: BffDatabase;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    stub = await startStubMarketplace();
    [dbA, dbB] = await Promise.all([openBffDatabase({ url, schema }), openBffDatabase({ url, schema })]);
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await dbA?.close();
    await dbB?.close();
    await stub?.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop schema if exists "${schema}" cascade`);
    } finally {
      await client.end();
    }
  });

  async function pair(overrides: Parameters<typeof startTestBff>[1] = {}) {
    const handled: string[] = [];
    const common = {
      payments: testCardPayments(),
      webhook: { secret: WEBHOOK_SECRET },
      background: { enabled: false },
      onEvent: { '*': (e: { id: string }) => void handled.push(e.id) },
      ...overrides,
    };
    const a = await startTestBff(stub, { database: dbA, ...common });
    const b = await startTestBff(stub, { database: dbB, ...common });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    return { a, b, handled };
  }

  it('share the upstream write budget', async () => {
    const { a, b } = await pair({ upstreamBudget: { write: { perMinute: 3, burst: 2 }, maxWaitMs: 0 } });

    const first = await postJson(`${a.url}/quotes`, { domain: 'coffeehouse.com' });
    const second = await postJson(`${b.url}/quotes`, { domain: 'coffeeshop.io' });
    const third = await postJson(`${a.url}/checkout`, { domain: 'coffeehouse.com' });
    const fourth = await postJson(`${b.url}/checkout`, { domain: 'coffeehouse.com' });

    expect([first.status, second.status, third.status, fourth.status]).toEqual([201, 201, 503, 503]);
    expect(stub.callsTo('quote').length + stub.callsTo('checkout').length).toBe(2);
  });

  it('count a visitor’s requests together: alternating between them, the limit is hit at one process’s count', async () => {
    const { a, b } = await pair({ visitorLimits: { searchesPerMinute: 3, writesPerMinute: 2 }, trustProxy: 1 });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    const searches = [];
    // Six queries neither process holds: each may spend the shared budget, so each counts.
    for (const [i, q] of ['coffee', 'tea', 'cocoa', 'mate', 'chai', 'kava'].entries()) {
      searches.push(await call(`${(i % 2 === 0 ? a : b).url}/search?q=${q}`, from('203.0.113.7')));
    }
    const writes = [];
    for (let i = 0; i < 4; i++) {
      writes.push(
        await postJson(`${(i % 2 === 0 ? a : b).url}/checkout`, { domain: 'nope.com' }, from('203.0.113.7').headers),
      );
    }
    const other = await call(`${b.url}/search?q=coffee`, from('198.51.100.9'));

    expect(searches.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429]);
    expect(searches[3]!.json.error.code).toBe('rate_limited');
    expect(Number(searches[4]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(writes.map((r) => r.status === 429)).toEqual([false, false, true, true]);
    expect(other.status).toBe(200); // another visitor has a count of their own
  });

  it('handle an event delivered to both at once exactly once', async () => {
    const { a, b, handled } = await pair();
    stub.autoDeliver = false;
    const quote = await postJson(`${b.url}/quotes`, { domain: 'coffeeshop.io' });
    const order = await postJson(`${a.url}/orders`, {
      quote_id: quote.json.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: CARD,
    });
    expect(order.status).toBe(201);
    const event = stub.advance(order.json.order_id, 'order.settled', 'SETTLED');

    const signature = await sign(JSON.stringify(event));
    const deliveries = await Promise.all(
      [a, b, a, b].map((bff) =>
        call(`${bff.url}/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-signature': signature },
          body: JSON.stringify(event),
        }),
      ),
    );
    await Promise.all([a.bff.processInbox(), b.bff.processInbox()]);

    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    expect(handled.filter((id) => id === event.id)).toHaveLength(1);
  });

  it('finish each other’s order intents: what one left paid, the other records once', async () => {
    let now = Date.now();
    const { a, b } = await pair({ now: () => now });
    const quote = await postJson(`${a.url}/quotes`, { domain: 'coffeehouse.com' });
    stub.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'down' } } });
    const pending = await postJson(`${a.url}/orders`, {
      quote_id: quote.json.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: CARD,
    });
    expect(pending.status).toBe(202);
    now += 6_000;

    const [ra, rb] = await Promise.all([b.bff.recover(), a.bff.recover()]);

    expect(ra.recorded + rb.recorded).toBe(1);
    const keys = stub
      .callsTo('order')
      .slice(-2)
      .map((c) => c.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
    const view = await call(`${b.url}/orders/${pending.json.order_id}`, {
      headers: { 'x-order-token': pending.json.order_token },
    });
    expect(view.json.status).toBe('EXTERNALLY_PAID');
  });

  it('answer a re-quote on one with the purchase in flight on the other: its status, a token both accept', async () => {
    const fresh = await startStubMarketplace(); // the other tests sold the stub's domains
    closers.push(() => fresh.close());
    const common = { payments: testCardPayments(), background: { enabled: false } };
    const a = await startTestBff(fresh, { database: dbA, ...common });
    const b = await startTestBff(fresh, { database: dbB, ...common });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const KEY = { 'idempotency-key': 'two-processes-purchase-key-0001' };
    const quote = await postJson(`${a.url}/quotes`, { domain: 'coffeehouse.com' });
    fresh.enqueue('order', { status: 500, body: { error: { code: 'internal_error', message: 'down' } } });
    const pending = await postJson(
      `${a.url}/orders`,
      { quote_id: quote.json.quote_id, buyer: { email: 'ada@example.com' }, payment: CARD },
      KEY,
    );
    expect(pending.status).toBe(202);

    const again = await postJson(`${b.url}/quotes`, { domain: 'coffeehouse.com', quote_id: quote.json.quote_id }, KEY);

    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ order_id: pending.json.order_id, status: 'PROCESSING' });
    expect(fresh.callsTo('quote')).toHaveLength(1);
    const onA = await call(`${a.url}/orders/${again.json.order_id}`, {
      headers: { 'x-order-token': again.json.order_token },
    });
    expect(onA.json.status).toBe('PROCESSING');
  });
});

function sign(body: string): Promise<string> {
  return signWebhookPayload(WEBHOOK_SECRET, body);
}
