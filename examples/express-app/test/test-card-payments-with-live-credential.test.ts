/**
 * Finding: the example app defaulted to test cards even when given real credentials, so a shop started from it with
 * a LIVE key recorded real orders no buyer paid for. Now it takes no payments unless told which adapter to use: with
 * a LIVE credential and no `payments`, the MoR routes are not there at all.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BffOptionsError, testCardPayments } from '@domainkit/bff';
import { pino } from 'pino';
import { MockAgent } from 'undici';
import { expect, it, onTestFinished } from 'vitest';
import { createShopApp } from '../src/app.ts';

const LIVE = {
  baseUrl: 'https://marketplace.test',
  keyId: 'pk_live_example',
  secret: 'sk_live_example_secret_value',
  maxRetries: 0,
};
const WEBHOOK = { secret: 'whsec_live_ExampleAppSecret0001' };

it('does not sell with test cards when given a LIVE credential and no payment provider', async () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.enableNetConnect('127.0.0.1');
  const shop = createShopApp({
    marketplace: { ...LIVE, dispatcher: agent },
    webhook: WEBHOOK,
    database: { memory: true },
    logger: pino({ level: 'silent' }),
  });
  const server = createServer(shop.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await shop.bff.close();
    await agent.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  for (const path of ['/shop/api/quotes', '/shop/api/orders']) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'coffeehouse.com' }),
    });
    expect(res.status, `${path} must not exist without a payment provider`).toBe(404);
    expect(await res.text()).toBe('Acme Domains: page not found');
  }
});

it('refuses the test-card adapter with a LIVE credential at creation', () => {
  expect(() =>
    createShopApp({
      marketplace: LIVE,
      webhook: WEBHOOK,
      payments: testCardPayments(),
      database: { memory: true },
      logger: pino({ level: 'silent' }),
    }),
  ).toThrow(BffOptionsError);
});
