/**
 * Order tracking for the buyer (Partner API spec 2.1, 3, 6): `GET /orders/:id/status?after=&wait=` is a long poll on
 * the status the BFF keeps from the webhooks; it answers as soon as a webhook moves the order, never moves back when
 * an older event is replayed, ends its wait before the request deadline, and answers a wrong order token with the
 * same 404 as an unknown order. `onOrderEvent` is told of each step once, also when a webhook is delivered twice.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createBff, testCardPayments, type BffOptions, type BffRouter, type OrderStep } from '../src/index.ts';
import { KEY_ID, SECRET, call, databaseKinds, postJson, type StubMarketplace, useDatabaseAndStub } from './helpers.ts';

const WEBHOOK_SECRET = 'whsec_test_BffWebhookSecret0123';
const BUYER = { email: 'ada@example.com', name: 'Ada Lovelace' };
const CARD = { method: 'test_card', card_number: '4242424242424242' };

interface Shop {
  readonly url: string;
  readonly bff: BffRouter;
  readonly steps: OrderStep[];
  close(): Promise<void>;
}

async function startShop(stub: StubMarketplace, options: Partial<BffOptions>): Promise<Shop> {
  const app = express();
  let router: BffRouter | undefined;
  app.use('/shop/api', (req, res, next) => router!(req, res, next));
  const server: Server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop/api`;
  const steps: OrderStep[] = [];
  router = createBff({
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
    payments: testCardPayments(),
    webhook: { secret: WEBHOOK_SECRET, publicUrl: `${url}/webhooks` },
    visitorLimits: false,
    logger: false,
    background: { recoveryIntervalSeconds: 0, catchUpIntervalSeconds: 0 },
    onOrderEvent: (step) => {
      steps.push(step);
    },
    ...options,
  });
  await router.ready;
  await router.idle();
  return {
    url,
    bff: router,
    steps,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await router!.close();
    },
  };
}

describe.each(databaseKinds())('order tracking on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  async function shop(options: Partial<BffOptions> = {}) {
    const s = await startShop(fx.stub, { database: fx.testDb.database, ...options });
    fx.closers.push(() => s.close());
    return s;
  }

  async function buy(s: Shop): Promise<{ orderId: string; token: string }> {
    const q = await postJson(`${s.url}/quotes`, { domain: 'coffeehouse.com' });
    const o = await postJson(`${s.url}/orders`, { quote_id: q.json.quote_id, buyer: BUYER, payment: CARD });
    expect(o.status).toBe(201);
    return { orderId: o.json.order_id, token: o.json.order_token };
  }

  const track = (s: Shop, orderId: string, token: string, query = '') =>
    call(`${s.url}/orders/${orderId}/status${query}`, { headers: { 'x-order-token': token } });

  it('answers a waiting buyer as soon as a webhook moves the order, step by step, until it is final', async () => {
    const s = await shop();
    const { orderId, token } = await buy(s);
    await fx.stub.deliveriesSettled();
    await s.bff.processInbox();
    const first = await track(s, orderId, token);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toMatch(/no-store/);
    expect(first.json).toMatchObject({ order_id: orderId, status: 'EXTERNALLY_PAID', final: false });

    // The buyer waits (up to 20 s) for a change from what they show; the transfer starts meanwhile.
    const waiting = track(s, orderId, token, `?after=${first.json.version}&wait=20`);
    fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');
    const started = await waiting;
    expect(started.json).toMatchObject({ status: 'TRANSFER_IN_PROGRESS', final: false });
    expect(started.json.version).not.toBe(first.json.version);

    const waitingAgain = track(s, orderId, token, `?after=${started.json.version}&wait=20`);
    fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    expect((await waitingAgain).json).toMatchObject({ status: 'TRANSFER_COMPLETED', final: false });

    fx.stub.advance(orderId, 'order.settled', 'SETTLED');
    await fx.stub.deliveriesSettled();
    await s.bff.processInbox();
    const settled = await track(s, orderId, token, `?after=${started.json.version}&wait=20`);
    expect(settled.json).toMatchObject({ status: 'SETTLED', final: true });
    // A final order is answered at once even when the buyer asks to wait from its own version.
    const again = await track(s, orderId, token, `?after=${settled.json.version}&wait=20`);
    expect(again.json).toEqual(settled.json);
  });

  it('never moves back when an older event is replayed; a wait with nothing new ends with the same version', async () => {
    const s = await shop();
    fx.stub.autoDeliver = false;
    const { orderId, token } = await buy(s);
    const recorded = fx.stub.events.at(-1)!;
    const startedEvent = fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');
    const completedEvent = fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    expect(await fx.stub.deliver(completedEvent)).toBe(200);
    await s.bff.processInbox();
    const now = await track(s, orderId, token);
    expect(now.json.status).toBe('TRANSFER_COMPLETED');

    for (const older of [startedEvent, recorded, startedEvent]) expect(await fx.stub.deliver(older)).toBe(200);
    await s.bff.processInbox();
    const after = await track(s, orderId, token, `?after=${now.json.version}&wait=1`);
    expect(after.json).toMatchObject({ status: 'TRANSFER_COMPLETED', version: now.json.version });
    // The replayed older events are not new steps for the buyer's e-mails either.
    expect(s.steps.map((step) => step.eventType)).toEqual(['order.transfer_completed']);
  });

  it('answers a wrong order token exactly as an unknown order: 404, same body', async () => {
    const s = await shop();
    const { orderId, token } = await buy(s);
    const wrong = await track(s, orderId, `${token.slice(0, -2)}xx`);
    const none = await call(`${s.url}/orders/${orderId}/status`);
    const unknown = await track(s, 'ord_9999', token);
    expect(wrong.status).toBe(404);
    expect(wrong.json).toEqual({ error: { code: 'not_found', message: 'No such order for this order token.' } });
    expect(none.json).toEqual(wrong.json);
    expect(unknown.json).toEqual(wrong.json);
    expect(none.status).toBe(404);
    expect(unknown.status).toBe(404);
  });

  it('refuses a wait it cannot honour or a malformed version with 400 naming the parameter', async () => {
    const s = await shop();
    const { orderId, token } = await buy(s);
    const long = await track(s, orderId, token, '?after=1&wait=26');
    const bad = await track(s, orderId, token, '?after=abc');
    expect(long.status).toBe(400);
    expect(long.json.error.message).toContain('`wait`');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('`after`');
  });

  it('ends a long wait before the request deadline with the status unchanged, never a 504', async () => {
    const s = await shop({ requestDeadlineSeconds: 2 });
    const { orderId, token } = await buy(s);
    await fx.stub.deliveriesSettled();
    await s.bff.processInbox();
    const first = await track(s, orderId, token);
    const waited = await track(s, orderId, token, `?after=${first.json.version}&wait=25`);
    expect(waited.status).toBe(200);
    expect(waited.json).toEqual(first.json);
  });

  it('tells onOrderEvent of each step once, with the buyer, also when a webhook is delivered twice', async () => {
    const s = await shop();
    fx.stub.autoDeliver = false;
    const { orderId } = await buy(s);
    const recorded = fx.stub.events.at(-1)!;
    const started = fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');
    const completed = fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    for (const event of [recorded, recorded, started, started, completed, completed])
      expect(await fx.stub.deliver(event)).toBe(200);
    await s.bff.processInbox();
    // The same step emitted again under a new event id is not a second step.
    fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    await fx.stub.deliver(fx.stub.events.at(-1)!);
    await s.bff.processInbox();

    expect(s.steps.map((step) => [step.eventType, step.status])).toEqual([
      ['order.recorded', 'EXTERNALLY_PAID'],
      ['order.transfer_started', 'TRANSFER_IN_PROGRESS'],
      ['order.transfer_completed', 'TRANSFER_COMPLETED'],
    ]);
    expect(s.steps[1]).toMatchObject({
      orderId,
      domain: 'coffeehouse.com',
      eventId: started.id,
      salePriceCents: 250000,
      currency: 'USD',
      buyer: BUYER,
    });
  });
});
