#!/usr/bin/env node
/**
 * Runs the example app. With DOMAINKIT_API_BASE_URL, DOMAINKIT_KEY_ID, DOMAINKIT_API_SECRET and
 * DOMAINKIT_WEBHOOK_SECRET set, it talks to that marketplace; without them it starts the local sandbox and uses its
 * demo credential. PORT (default 3000); the webhook URL registered is `http://127.0.0.1:PORT/shop/api/webhooks`
 * unless DOMAINKIT_WEBHOOK_PUBLIC_URL says otherwise.
 *
 * Payments: test cards with the local sandbox. With credentials from the environment, test cards only when
 * DOMAINKIT_PAYMENTS=test_card asks for them (a SANDBOX credential; the BFF refuses them with a LIVE one); else
 * the MoR routes stay off until you plug in your payment provider's adapter (`payments` in app.ts).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { testCardPayments, type PaymentAdapter } from '@domainkit/bff';
import { startSandbox } from '@domainkit/sandbox';
import { pino } from 'pino';
import { BFF_MOUNT_PATH, createShopApp } from './app.ts';

const logger = pino({ name: 'acme-domains' });
const port = Number(process.env.PORT ?? 3000);
const env = process.env;
let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
let marketplace: { baseUrl: string; keyId: string; secret: string };
let payments: PaymentAdapter | undefined;
if (env.DOMAINKIT_API_BASE_URL && env.DOMAINKIT_KEY_ID && env.DOMAINKIT_API_SECRET) {
  marketplace = { baseUrl: env.DOMAINKIT_API_BASE_URL, keyId: env.DOMAINKIT_KEY_ID, secret: env.DOMAINKIT_API_SECRET };
  // Real credentials never get test cards by default: they are asked for, and refused by the BFF with a LIVE key.
  if (env.DOMAINKIT_PAYMENTS === 'test_card') payments = testCardPayments();
  else logger.warn('MoR purchases are off: plug in your payment provider (payments in app.ts)');
} else {
  sandbox = await startSandbox({ port: 0, dataDir: '.data/sandbox', logger: logger.child({ module: 'sandbox' }) });
  marketplace = { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret };
  payments = testCardPayments();
}
const webhookSecret = env.DOMAINKIT_WEBHOOK_SECRET ?? `whsec_${randomBytes(24).toString('base64url')}`;
const publicUrl = env.DOMAINKIT_WEBHOOK_PUBLIC_URL ?? `http://127.0.0.1:${port}${BFF_MOUNT_PATH}/webhooks`;

const shop = createShopApp({
  marketplace,
  webhook: { secret: webhookSecret, publicUrl },
  payments,
  database: { dataDir: '.data/bff' },
  logger,
});
const server = createServer(shop.app);
server.listen(port, '127.0.0.1');
await once(server, 'listening');
logger.info(
  { url: `http://127.0.0.1:${port}/`, bff: `http://127.0.0.1:${port}${BFF_MOUNT_PATH}` },
  'Acme Domains is running',
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeIdleConnections();
    void shop.bff
      .close()
      .then(() => sandbox?.close())
      .then(() => process.exit(0));
  });
}
