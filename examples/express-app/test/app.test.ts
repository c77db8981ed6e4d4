/**
 * The example app end to end against a marketplace faked with undici's MockAgent (network disabled): the BFF
 * mounted under /shop/api registers its webhook, sells through a quote and the test card, and the app lists the
 * domain on its own page once `order.settled` arrives, once even when delivered twice; the app's own routes,
 * JSON parser and 404 keep working.
 */
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhookPayload } from '@domainkit/protocol';
import { pino } from 'pino';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testCardPayments } from '@domainkit/bff';
import { createShopApp, type ShopApp } from '../src/app.ts';
import { freshPgliteDataDir } from '../../../test/setup/pglite-data-dir.ts';

// The shop's embedded database, from a copy of the run's empty PGlite cluster.
const dataDir = freshPgliteDataDir('dk-example-shop-');

const MARKETPLACE = 'https://marketplace.test';
const WEBHOOK_SECRET = 'whsec_test_ExampleAppSecret0001';
const order = {
  public_id: 'ord_0042',
  domain: 'coffeehouse.com',
  status: 'EXTERNALLY_PAID',
  sale_price_cents: 250000,
  currency: 'USD',
  created_at: '2030-01-01T00:00:00Z',
};

let agent: MockAgent;
let shop: ShopApp;
let server: Server;
let base: string;
const logLines: string[] = [];

beforeAll(async () => {
  agent = new MockAgent();
  agent.disableNetConnect();
  agent.enableNetConnect('127.0.0.1');
  const pool = agent.get(MARKETPLACE);
  pool
    .intercept({ path: '/api/partner/webhooks', method: 'PUT' })
    .reply(200, { url: 'https://acme.example/shop/api/webhooks', active: true, created_at: '2030-01-01T00:00:00Z' });
  pool
    .intercept({ path: (p) => p.startsWith('/api/partner/v1/events'), method: 'GET' })
    .reply(200, { events: [], next_cursor: null })
    .persist();
  pool.intercept({ path: '/api/partner/v1/quotes', method: 'POST' }).reply(201, {
    quote_id: 'qt_1',
    domain: 'coffeehouse.com',
    price_cents: 250000,
    currency: 'USD',
    expires_at: new Date(Date.now() + 600_000).toISOString(),
  });
  pool.intercept({ path: '/api/partner/v1/orders', method: 'POST' }).reply(201, order);

  shop = createShopApp({
    marketplace: {
      baseUrl: MARKETPLACE,
      keyId: 'pk_test_example',
      secret: 'sk_test_example_secret_value',
      dispatcher: agent,
      maxRetries: 0,
    },
    webhook: { secret: WEBHOOK_SECRET, publicUrl: 'https://acme.example/shop/api/webhooks' },
    payments: testCardPayments(),
    database: { dataDir },
    logger: pino({ level: 'info' }, { write: (l: string) => void logLines.push(l) }),
  });
  server = createServer(shop.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await shop.bff.ready;
  await shop.bff.idle();
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await shop?.bff.close();
  await agent?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('sells through the mounted BFF and lists the domain once order.settled arrives, even delivered twice', async () => {
  const quote = await fetch(`${base}/shop/api/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ domain: 'coffeehouse.com' }),
  });
  const { quote_id } = (await quote.json()) as { quote_id: string };
  const bought = await fetch(`${base}/shop/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      quote_id,
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    }),
  });
  expect(bought.status).toBe(201);

  const event = JSON.stringify({
    id: 'evt_9',
    type: 'order.settled',
    created_at: '2030-02-01T00:00:00Z',
    partner_id: 'prt_acme',
    data: { order: { ...order, status: 'SETTLED' } },
  });
  for (let i = 0; i < 2; i++) {
    const delivered = await fetch(`${base}/shop/api/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': await signWebhookPayload(WEBHOOK_SECRET, event),
      },
      body: event,
    });
    expect(delivered.status).toBe(200);
  }
  await shop.bff.processInbox();

  expect(shop.settled).toEqual([
    {
      orderId: 'ord_0042',
      domain: 'coffeehouse.com',
      salePriceCents: 250000,
      currency: 'USD',
      settledAt: '2030-02-01T00:00:00Z',
    },
  ]);
  const page = await (await fetch(`${base}/`)).text();
  expect(page).toContain('<strong>coffeehouse.com</strong>: $2,500.00 (order ord_0042)');
  expect(logLines.some((l) => l.includes('order settled: the domain is paid out'))).toBe(true);
});

it("keeps the app's own routes, JSON parser and 404", async () => {
  const subscribed = await fetch(`${base}/newsletter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com' }),
  });
  const missing = await fetch(`${base}/nope`);

  expect(subscribed.status).toBe(201);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toBe('Acme Domains: page not found');
});
