/**
 * What the issue must show, item 5: killing the sandbox (SIGKILL, no chance to clean up) while webhook deliveries are
 * pending, then starting it again, delivers every pending event. The sandbox runs as a child process (the CLI), on
 * the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { verifyWebhookSignature } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../../../test/setup/child-process.ts';
import { generateInventory, readDemoCredential } from '../src/index.ts';
import {
  admin,
  dropSchema,
  PartnerTestClient,
  removeDir,
  tempDir,
  waitFor,
  WebhookReceiver,
  freshPgliteDataDir,
} from './helpers.ts';

const V1 = '/api/partner/v1';
const WEBHOOK_SECRET = 'whsec_restart_test_secret_00001';
const databaseUrl = process.env.TEST_DATABASE_URL;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(1000);
/** Starts the CLI and resolves once it listens (SIGKILLed at the end of the file if still running). */
function startSandboxCli(args: string[]): Promise<CliProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  return startCli('sandbox', ['start', '--port', '0', ...args], env);
}

async function killedWhileDeliveriesPending(args: string[], dataDir: string): Promise<void> {
  const receiver = await new WebhookReceiver().start();
  receiver.respond = () => ({ status: 503 }); // the partner's endpoint is down
  try {
    const first = await startSandboxCli(args);
    const demo = readDemoCredential(dataDir);
    const target = { url: first.url, demo };
    const client = new PartnerTestClient(target, demo);
    expect(
      (
        await client.request({
          method: 'PUT',
          path: '/api/partner/webhooks',
          json: { url: receiver.url, secret: WEBHOOK_SECRET },
        })
      ).status,
    ).toBe(200);
    const orderIds: string[] = [];
    for (const d of pool.slice(0, 3)) {
      const created = await client.request({
        method: 'POST',
        path: `${V1}/orders`,
        headers: { 'Idempotency-Key': `restart-${d.name}-${randomBytes(4).toString('hex')}` },
        json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
      });
      expect(created.status).toBe(201);
      orderIds.push(created.json.public_id);
    }
    expect((await admin(target, 'POST', `/orders/${orderIds[0]}/start-transfer`)).status).toBe(200);
    const events = (await client.request({ path: `${V1}/events` })).json.events as Array<{ id: string }>;
    expect(events).toHaveLength(4);

    // Every event has been attempted and refused at least once, and is still pending.
    await waitFor('a failed attempt of every delivery', async () => {
      const { deliveries } = (await admin(target, 'GET', `/deliveries?key_id=${demo.key_id}`)).json as {
        deliveries: Array<{ status: string; attempts: number }>;
      };
      return deliveries.length === 4 && deliveries.every((d) => d.status === 'pending' && d.attempts >= 1);
    });
    await first.stop('SIGKILL');
    expect(await first.closed).toBeNull();
    expect(receiver.accepted()).toHaveLength(0);

    // The endpoint recovers; a new sandbox process on the same state delivers everything that was pending.
    receiver.respond = () => ({ status: 200 });
    const second = await startSandboxCli(args);
    await waitFor(
      'every pending event delivered after the restart',
      () => events.every((e) => receiver.accepted().some((d) => d.json.id === e.id)),
      60_000,
    );
    for (const d of receiver.accepted()) {
      await expect(
        verifyWebhookSignature({
          secret: WEBHOOK_SECRET,
          rawBody: d.raw,
          signature: d.headers['x-service-signature'] as string,
        }),
      ).resolves.toBeUndefined();
    }
    // The receiver answers before the sandbox records the outcome: wait for the bookkeeping of the last ones.
    const deliveries = await waitFor('every delivery recorded as delivered', async () => {
      const { json } = await admin({ url: second.url, demo }, 'GET', `/deliveries?key_id=${demo.key_id}`);
      const list = json.deliveries as Array<{ status: string; attempt_log: Array<{ outcome: string }> }>;
      return list.every((d) => d.status !== 'pending') ? list : undefined;
    });
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    for (const d of deliveries) expect(d.attempt_log.at(-1)!.outcome).toBe('delivered');
    await second.stop('SIGTERM');
    expect(await second.closed).toBe(0);
  } finally {
    await receiver.stop();
  }
}

describe('deliveries survive SIGKILL', () => {
  it('on the embedded database', async () => {
    const dataDir = freshPgliteDataDir('dk-sandbox-');
    try {
      await killedWhileDeliveriesPending(['--data-dir', dataDir, '--webhook-time-scale', '0.02'], dataDir);
    } finally {
      removeDir(dataDir);
    }
  }, 120_000);

  it.skipIf(!databaseUrl)(
    'on PostgreSQL',
    async () => {
      const dataDir = tempDir();
      const schema = `dk_sandbox_restart_${randomBytes(6).toString('hex')}`;
      try {
        await killedWhileDeliveriesPending(
          ['--data-dir', dataDir, '--database-url', databaseUrl!, '--schema', schema, '--webhook-time-scale', '0.02'],
          dataDir,
        );
      } finally {
        removeDir(dataDir);
        await dropSchema(databaseUrl!, schema);
      }
    },
    120_000,
  );
});
