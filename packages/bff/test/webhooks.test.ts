/**
 * Webhooks and catch-up (Partner API spec 5.3, 6, 4.1 `GET /events`): the BFF registers its URL at start, verifies each
 * delivery on the raw bytes, stores it in the inbox and answers 200 at once, then runs the partner's handlers:
 * once per event however often, in parallel or out of order it is delivered, never moving an order back. Events
 * emitted while the BFF was down are caught up from the stored cursor, each handled once.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { createBff, testCardPayments, type BffOptions, type BffRouter, type EventContext } from '../src/index.ts';
import type { MarketplaceEvent } from '@domainkit/protocol';
import {
  KEY_ID,
  SECRET,
  call,
  captureLogs,
  databaseKinds,
  postJson,
  type StubMarketplace,
  useDatabaseAndStub,
} from './helpers.ts';

const WEBHOOK_SECRET = 'whsec_test_BffWebhookSecret0123';
const BUYER = { email: 'ada@example.com' };
const CARD = { method: 'test_card', card_number: '4242424242424242' };

interface Shop {
  readonly url: string;
  readonly bff: BffRouter;
  readonly lines: string[];
  readonly seen: Array<{ id: string; type: string; applied: boolean; attempt: number; status: string | undefined }>;
  close(): Promise<void>;
}

/** Listens first (so the public URL is known), then creates the BFF with `webhook.publicUrl` pointing at itself. */
async function startShop(
  stub: StubMarketplace,
  options: Partial<BffOptions> & { jsonFirst?: boolean } = {},
): Promise<Shop> {
  const { jsonFirst, ...bffOptions } = options;
  const app = express();
  if (jsonFirst) app.use(express.json()); // a partner app that parses JSON before the BFF
  let router: BffRouter | undefined;
  app.use('/shop/api', (req, res, next) => router!(req, res, next));
  const server: Server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop/api`;
  const { logger, lines } = captureLogs();
  const seen: Shop['seen'] = [];
  router = createBff({
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
    payments: testCardPayments(),
    webhook: { secret: WEBHOOK_SECRET, publicUrl: `${url}/webhooks` },
    visitorLimits: false,
    logger,
    background: { recoveryIntervalSeconds: 0, catchUpIntervalSeconds: 0 },
    onEvent: {
      '*': (event: MarketplaceEvent, context: EventContext) => {
        seen.push({
          id: event.id,
          type: event.type,
          applied: context.applied,
          attempt: context.attempt,
          status: context.order?.status,
        });
      },
    },
    ...bffOptions,
  });
  await router.ready;
  await router.idle(); // start tasks: registration, recovery, catch-up
  return {
    url,
    bff: router,
    lines,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await router!.close();
    },
  };
}

describe.each(databaseKinds())('webhooks and catch-up on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  async function shop(options: Parameters<typeof startShop>[1] = {}) {
    const s = await startShop(fx.stub, { database: fx.testDb.database, ...options });
    fx.closers.push(() => s.close());
    return s;
  }

  /** Buys a domain through the shop; answers the marketplace order id. */
  async function buy(s: Shop, domain = 'coffeehouse.com'): Promise<{ orderId: string; token: string }> {
    const q = await postJson(`${s.url}/quotes`, { domain });
    const o = await postJson(`${s.url}/orders`, { quote_id: q.json.quote_id, buyer: BUYER, payment: CARD });
    expect(o.status).toBe(201);
    return { orderId: o.json.order_id, token: o.json.order_token };
  }

  async function settle(s: Shop): Promise<void> {
    await fx.stub.deliveriesSettled();
    await s.bff.processInbox();
  }

  it('registers its webhook URL at start, then handles each lifecycle event once, in order, up to SETTLED', async () => {
    const s = await shop();
    expect(fx.stub.webhook).toEqual({ url: `${s.url}/webhooks`, secret: WEBHOOK_SECRET });
    expect(fx.stub.callsTo('webhook-register')).toHaveLength(1);

    const { orderId, token } = await buy(s);
    fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');
    fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    fx.stub.advance(orderId, 'order.settled', 'SETTLED');
    await settle(s);

    expect(fx.stub.deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    expect(s.seen.map((e) => [e.type, e.status, e.applied])).toEqual([
      ['order.recorded', 'EXTERNALLY_PAID', true],
      ['order.transfer_started', 'TRANSFER_IN_PROGRESS', true],
      ['order.transfer_completed', 'TRANSFER_COMPLETED', true],
      ['order.settled', 'SETTLED', true],
    ]);
    const view = await call(`${s.url}/orders/${orderId}`, { headers: { 'x-order-token': token } });
    expect(view.json.status).toBe('SETTLED');
  });

  it('handles an event delivered twice, even in parallel, once', async () => {
    const s = await shop();
    fx.stub.autoDeliver = false;
    const { orderId } = await buy(s);
    const event = fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');

    const statuses = await Promise.all([fx.stub.deliver(event), fx.stub.deliver(event), fx.stub.deliver(event)]);
    await fx.stub.deliver(event);
    await settle(s);

    expect(statuses).toEqual([200, 200, 200]);
    expect(s.seen.filter((e) => e.id === event.id)).toHaveLength(1);
  });

  it('never moves an order back when events arrive out of order, and still runs each handler once', async () => {
    const s = await shop();
    fx.stub.autoDeliver = false;
    const { orderId, token } = await buy(s);
    const started = fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');
    const completed = fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    const settled = fx.stub.advance(orderId, 'order.settled', 'SETTLED');

    await fx.stub.deliver(settled);
    await settle(s); // the newest event is applied first…
    for (const event of [completed, settled, started]) await fx.stub.deliver(event); // …then the older ones arrive
    await settle(s);

    const view = await call(`${s.url}/orders/${orderId}`, { headers: { 'x-order-token': token } });
    expect(view.json.status).toBe('SETTLED');
    const handled = s.seen.filter((e) => e.type !== 'order.recorded');
    expect(handled[0]).toMatchObject({ type: 'order.settled', applied: true });
    expect(
      handled
        .slice(1)
        .map((e) => [e.type, e.applied])
        .sort(),
    ).toEqual([
      ['order.transfer_completed', false],
      ['order.transfer_started', false],
    ]);
    expect(handled.every((e) => e.status === 'SETTLED')).toBe(true);
  });

  it('catches up, after downtime, with every event emitted meanwhile, each handled once, from the stored cursor', async () => {
    const first = await shop();
    const { orderId } = await buy(first);
    await settle(first);
    await first.bff.catchUp(); // its periodic catch-up: the cursor now stands at the recorded event
    await first.close();
    fx.closers.pop();

    // Down: the marketplace's deliveries fail, so only the history has these.
    fx.stub.advance(orderId, 'order.transfer_started', 'TRANSFER_IN_PROGRESS');
    fx.stub.advance(orderId, 'order.transfer_completed', 'TRANSFER_COMPLETED');
    fx.stub.advance(orderId, 'order.settled', 'SETTLED');
    await fx.stub.deliveriesSettled();
    expect(fx.stub.deliveries.slice(-3).map((d) => d.status)).toEqual(['error', 'error', 'error']);

    const second = await shop();
    await second.bff.processInbox();

    expect(second.seen.map((e) => e.type)).toEqual([
      'order.transfer_started',
      'order.transfer_completed',
      'order.settled',
    ]);
    const eventsCalls = fx.stub.callsTo('events');
    expect(eventsCalls.at(-1)!.query).toMatch(/^after_id=evt_00001&limit=100$/);

    // Started again: nothing new, nothing handled twice.
    await second.bff.catchUp();
    await second.bff.processInbox();
    expect(second.seen).toHaveLength(3);
  });

  it('refuses a delivery with a bad signature (400), storing nothing', async () => {
    const s = await shop();
    fx.stub.autoDeliver = false;
    const { orderId } = await buy(s);
    const event = fx.stub.advance(orderId, 'order.settled', 'SETTLED');

    const forged = await fx.stub.deliver(event, { secret: 'whsec_test_not_the_right_one' });
    const tampered = await fx.stub.deliver(event, {
      body: JSON.stringify({ ...event, type: 'order.refunded' }).replace('refunded', 'refunded'),
    });

    expect(forged).toBe(400);
    expect(tampered).toBe(200); // re-signed by the fx.stub with the right secret: a genuine delivery of that body
    const res = await call(`${s.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': 'ab'.repeat(32) },
      body: JSON.stringify(event),
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: 'validation_error', message: 'The webhook signature does not verify.' });
    const logged = s.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'webhook delivery refused');
    expect(logged.map((l) => l.code)).toEqual(['webhook_signature_mismatch', 'webhook_signature_mismatch']);
  });

  it('tells the partner to mount it before express.json() when the body arrives already parsed', async () => {
    const s = await shop({ jsonFirst: true });
    fx.stub.autoDeliver = false;
    const { orderId } = await buy(s);

    const status = await fx.stub.deliver(fx.stub.advance(orderId, 'order.settled', 'SETTLED'));

    expect(status).toBe(500);
    expect(s.lines.some((l) => l.includes('mount the domainkit BFF before express.json()'))).toBe(true);
  });

  it('runs a handler that threw again, until it succeeds', async () => {
    let failures = 1;
    const attempts: number[] = [];
    let now = Date.now();
    const s = await shop({
      now: () => now,
      onEvent: {
        'order.settled': (_event, context) => {
          attempts.push(context.attempt);
          if (failures-- > 0) throw new Error('partner database is down');
        },
      },
    });
    const { orderId } = await buy(s);
    fx.stub.advance(orderId, 'order.settled', 'SETTLED');
    await settle(s);
    expect(attempts).toEqual([1]);

    now += 3_000;
    await s.bff.processInbox();

    expect(attempts).toEqual([1, 2]);
    expect(
      s.lines.some((l) => l.includes('event handler failed; will retry') && l.includes('partner database is down')),
    ).toBe(true);
  });

  it('accepts handlers added with bff.on()', async () => {
    const s = await shop();
    const settled = vi.fn();
    s.bff.on('order.settled', settled);
    const { orderId } = await buy(s);
    fx.stub.advance(orderId, 'order.settled', 'SETTLED');
    await settle(s);

    expect(settled).toHaveBeenCalledTimes(1);
    expect(settled.mock.calls[0]![0]).toMatchObject({
      type: 'order.settled',
      data: { order: { public_id: orderId, status: 'SETTLED' } },
    });
    expect(settled.mock.calls[0]![1]).toMatchObject({ applied: true, source: 'webhook', order: { status: 'SETTLED' } });
  });
});
