/**
 * The BFF against the real sandbox over HTTP (issue 4, "what it must show" 1 and 2): both payment models end to
 * end (a checkout session paid on the hosted lander, redirecting back; and quote → test-card payment → order →
 * events through transfer and settlement arriving at the partner's handler), webhooks delivered twice and out of
 * order handled once each with the right final state, and events emitted while the BFF was down caught up once.
 * The BFF is mounted under /shop/api in an Express app that listens first, so it registers its own webhook URL.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createBff,
  openBffDatabase,
  testCardPayments,
  type BffDatabase,
  type BffRouter,
  type EventContext,
} from '@domainkit/bff';
import type { MarketplaceEvent } from '@domainkit/protocol';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { payByForm } from './widget-page.ts';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

const WEBHOOK_SECRET = `whsec_e2e_${randomBytes(16).toString('hex')}`;
const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };

let sandbox: RunningSandbox;
let dataDir: string;
let database: BffDatabase;
const seen: Array<{
  id: string;
  type: string;
  order: string | undefined;
  applied: boolean;
  status: string | undefined;
}> = [];

interface Shop {
  readonly url: string;
  readonly bff: BffRouter;
  close(): Promise<void>;
}

/** The partner's app: listens, then mounts the BFF with its public webhook URL. */
async function startShop(): Promise<Shop> {
  const app = express();
  let bff: BffRouter | undefined;
  app.use('/shop/api', (req, res, next) => bff!(req, res, next));
  const server: Server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop/api`;
  bff = createBff({
    marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret },
    payments: testCardPayments(),
    webhook: { secret: WEBHOOK_SECRET, publicUrl: `${url}/webhooks` },
    database,
    returnUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    logger: false,
    visitorLimits: false,
    // Its tests share one database, so one write budget (20 a minute): a purchase waits for its token.
    upstreamBudget: { maxWaitMs: 10_000 },
    background: { recoveryIntervalSeconds: 0, catchUpIntervalSeconds: 0 },
    onEvent: {
      '*': (event: MarketplaceEvent, context: EventContext) => {
        seen.push({
          id: event.id,
          type: event.type,
          order: event.type === 'brokerage.case_completed' ? undefined : event.data.order.public_id,
          applied: context.applied,
          status: context.order?.status,
        });
      },
    },
  });
  await bff.ready;
  await bff.idle(); // registration and catch-up at start
  return {
    url,
    bff,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await bff!.close();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
async function admin(path: string, body: unknown = {}, method = 'POST'): Promise<any> {
  const res = await fetch(`${sandbox.url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.demo.admin_token}`, 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} /admin${path}`).toBeLessThan(300);
  return res.json();
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
async function postJson(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** Finds listed domains to buy through a search of the BFF. */
async function domainsFor(shop: Shop, query: string): Promise<string[]> {
  const res = await fetch(`${shop.url}/search?q=${encodeURIComponent(query)}`);
  const body = (await res.json()) as { results: Array<{ domain: string; available: boolean }> };
  return body.results.filter((r) => r.available).map((r) => r.domain);
}

async function buy(shop: Shop, domain: string): Promise<{ orderId: string; token: string }> {
  const quote = await postJson(`${shop.url}/quotes`, { domain });
  expect(quote.status, JSON.stringify(quote.json)).toBe(201);
  const order = await postJson(`${shop.url}/orders`, {
    quote_id: quote.json.quote_id,
    buyer: { email: 'ada@example.com', country: 'GB' },
    payment: CARD,
  });
  expect(order.status, JSON.stringify(order.json)).toBe(201);
  expect(order.json).toMatchObject({ status: 'EXTERNALLY_PAID', domain, sale_price_cents: quote.json.price_cents });
  return { orderId: order.json.order_id, token: order.json.order_token };
}

/** Moves an order through transfer and settlement with the admin API. */
async function complete(orderId: string): Promise<void> {
  await admin(`/orders/${orderId}/start-transfer`);
  await admin(`/orders/${orderId}/confirm-delivery`);
  await admin('/settlements/run', { key_id: sandbox.demo.key_id });
}

async function handled(shop: Shop, orderId: string, type: string): Promise<void> {
  await vi.waitFor(
    async () => {
      await shop.bff.processInbox();
      expect(seen.some((e) => e.order === orderId && e.type === type)).toBe(true);
    },
    { timeout: 20_000, interval: 200 },
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'domainkit-e2e-bff-'));
  sandbox = await startSandbox({
    port: 0,
    dataDir: seedPgliteCluster(join(dataDir, 'sandbox')),
    logger: false,
    webhookTimeScale: 0.001,
    databaseUrl: '',
  });
  database = await openBffDatabase({ dataDir: seedPgliteCluster(join(dataDir, 'bff')) });
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the BFF in front of the sandbox', () => {
  it('sells non-MoR: a checkout session, paid on the hosted lander, which returns the buyer to the shop', async () => {
    const shop = await startShop();
    try {
      const [domain] = await domainsFor(shop, 'garden');
      const session = await postJson(`${shop.url}/checkout`, { domain });
      expect(session.status).toBe(201);
      const checkoutUrl = new URL(session.json.checkout_url);

      const lander = await fetch(checkoutUrl);
      const html = await lander.text();
      expect(lander.status).toBe(200);
      expect(html).toContain(domain);
      expect(html).toContain(`action="${checkoutUrl.pathname}/pay"`);
      const paid = await payByForm(checkoutUrl);
      const done =
        paid.status >= 300 && paid.status < 400
          ? await fetch(new URL(paid.headers.get('location')!, checkoutUrl))
          : paid;
      const page = await done.text();

      expect(page).toContain('data-testid="lander-success"');
      expect(page).toContain('https://shop.example/thanks');
      const after = await fetch(`${shop.url}/domains/${domain}`);
      expect(((await after.json()) as { available: boolean }).available).toBe(false);
    } finally {
      await shop.close();
    }
  });

  it('sells MoR: quote, test card, order, then every event through settlement reaches the partner handler once, in order', async () => {
    const shop = await startShop();
    try {
      const [domain] = await domainsFor(shop, 'river');
      const { orderId, token } = await buy(shop, domain!);
      await complete(orderId);
      await handled(shop, orderId, 'order.settled');

      const mine = seen.filter((e) => e.order === orderId);
      expect(mine.map((e) => e.type)).toEqual([
        'order.recorded',
        'order.transfer_started',
        'order.transfer_completed',
        'order.settled',
      ]);
      expect(new Set(mine.map((e) => e.id)).size).toBe(4);
      const view = await fetch(`${shop.url}/orders/${orderId}`, { headers: { 'x-order-token': token } });
      expect(((await view.json()) as { status: string }).status).toBe('SETTLED');
    } finally {
      await shop.close();
    }
  });

  it('handles webhooks delivered twice and out of order once each, ending in the right state', async () => {
    const shop = await startShop();
    try {
      await admin('/faults', { duplicate_rate: 1, out_of_order_rate: 0.5 }, 'PUT');
      const [domain] = await domainsFor(shop, 'stone');
      const { orderId, token } = await buy(shop, domain!);
      await complete(orderId);
      await handled(shop, orderId, 'order.settled');
      // Let the duplicates and the held-back deliveries arrive too.
      await vi.waitFor(
        async () => {
          const { deliveries } = await admin(
            `/deliveries?key_id=${sandbox.demo.key_id}&status=pending`,
            undefined,
            'GET',
          );
          expect(deliveries).toEqual([]);
        },
        { timeout: 20_000, interval: 200 },
      );
      await shop.bff.processInbox();

      const mine = seen.filter((e) => e.order === orderId);
      expect(mine.map((e) => e.type).sort()).toEqual([
        'order.recorded',
        'order.settled',
        'order.transfer_completed',
        'order.transfer_started',
      ]);
      const view = await fetch(`${shop.url}/orders/${orderId}`, { headers: { 'x-order-token': token } });
      expect(((await view.json()) as { status: string }).status).toBe('SETTLED');
    } finally {
      await admin('/faults', { duplicate_rate: 0, out_of_order_rate: 0 }, 'PUT');
      await shop.close();
    }
  });

  it('catches up, after downtime, with every event emitted while it was down, each handled once', async () => {
    const first = await startShop();
    const [domain] = await domainsFor(first, 'cloud');
    const { orderId } = await buy(first, domain!);
    await handled(first, orderId, 'order.recorded');
    await first.close();

    await complete(orderId); // the BFF is down: these deliveries fail

    const second = await startShop(); // registers its new URL and catches up at start
    try {
      await handled(second, orderId, 'order.settled');
      await second.bff.catchUp();
      await second.bff.processInbox();
      const mine = seen.filter((e) => e.order === orderId);
      expect(mine.map((e) => e.type)).toEqual([
        'order.recorded',
        'order.transfer_started',
        'order.transfer_completed',
        'order.settled',
      ]);
    } finally {
      await second.close();
    }
  });
});
