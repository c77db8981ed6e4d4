/**
 * The admin API's world-moving triggers through the command line (`domainkit-sandbox trigger …`, `faults`,
 * `deliveries`, `referral`, `set-price`, `reset`), run as a child process against a running sandbox.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../../../test/setup/child-process.ts';
import { generateInventory } from '../src/index.ts';
import {
  admin,
  newPartner,
  removeDir,
  send,
  startTestSandbox,
  tempDir,
  type PartnerTestClient,
  type TestSandbox,
  waitFor,
} from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
let keyId: string;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(2000);

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
  const partner = await newPartner(t.sandbox, t.clock);
  client = partner.client;
  keyId = partner.credential.key_id;
});
afterAll(() => t?.stop());

async function cli(
  args: string[],
  options: { target?: boolean } = {},
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
): Promise<{ code: number | null; stdout: string; stderr: string; json: any }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(options.target === false
      ? {}
      : { SANDBOX_URL: t.sandbox.url, SANDBOX_ADMIN_TOKEN: t.sandbox.demo.admin_token }),
  };
  delete env.DATABASE_URL;
  if (options.target === false) {
    delete env.SANDBOX_URL;
    delete env.SANDBOX_ADMIN_TOKEN;
    delete env.SANDBOX_DATA_DIR;
  }
  const child = spawnCli('sandbox', args, env);
  const code = await child.closed;
  const [stdout, stderr] = [child.stdout(), child.stderr()];
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

async function order(d: { name: string; price_cents: number }) {
  const answer = await client.request({
    method: 'POST',
    path: `${V1}/orders`,
    headers: { 'Idempotency-Key': `cli-${d.name}` },
    json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
  });
  expect(answer.status).toBe(201);
  return answer.json as { public_id: string };
}

describe('trigger commands', () => {
  it('move an order and print the event each causes; a refused move exits 1 with the reason', async () => {
    const o = await order(pool[0]!);
    const started = await cli(['trigger', 'start-transfer', o.public_id]);
    expect(started.code).toBe(0);
    expect(started.json.order.status).toBe('TRANSFER_IN_PROGRESS');
    expect(started.json.events).toEqual([
      expect.objectContaining({
        type: 'order.transfer_started',
        data: { order: expect.objectContaining({ public_id: o.public_id }) },
      }),
    ]);

    const refused = await cli(['trigger', 'hold', o.public_id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/409 conflict: Cannot hold for manual review order .* it is TRANSFER_IN_PROGRESS/);

    const delivered = await cli(['trigger', 'confirm-delivery', o.public_id]);
    expect(delivered.json.events[0].type).toBe('order.transfer_completed');
    const settled = await cli(['trigger', 'settle', '--key-id', keyId]);
    expect(settled.code).toBe(0);
    expect(settled.json.events.map((e: { type: string }) => e.type)).toEqual(['order.settled']);
    expect(settled.json.settlements[0].order_ids).toEqual([o.public_id]);

    const listed = await cli(['orders', '--key-id', keyId]);
    expect(listed.json.orders.map((x: { public_id: string; status: string }) => [x.public_id, x.status])).toEqual([
      [o.public_id, 'SETTLED'],
    ]);
  });

  it('explain bad arguments', async () => {
    const result = await cli(['trigger', 'close-case', 'bc_x']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--price/);
  });
});

describe('other admin commands', () => {
  it('set and show fault injection', async () => {
    const set = await cli(['faults', '--error-rate', '0.25', '--latency-ms', '5', '--duplicate-rate', '1']);
    expect(set.json).toMatchObject({ error_rate: 0.25, latency_ms: 5, duplicate_rate: 1 });
    expect((await cli(['faults'])).json).toMatchObject({ error_rate: 0.25 });
    expect((await cli(['faults', '--off'])).json).toMatchObject({
      error_rate: 0,
      latency_ms: 0,
      duplicate_rate: 0,
      out_of_order_rate: 0,
      rate_limit_burst: 0,
    });
    expect((await cli(['faults', '--error-rate', '2'])).stderr).toMatch(/between 0 and 1/);
  });

  it('record referral clicks, reprice a domain, and list deliveries', async () => {
    const link = (await client.request({ method: 'POST', path: `${V1}/links`, json: { kind: 'generic' } })).json as {
      link_id: string;
    };
    expect((await cli(['referral', 'click', link.link_id, '--count', '2'])).json).toMatchObject({
      recorded: 2,
      clicks: 2,
    });
    const d = pool[5]!;
    expect((await cli(['set-price', d.name, String(d.price_cents + 100)])).json).toMatchObject({
      domain: d.name,
      price_cents: d.price_cents + 100,
    });
    const deliveries = await cli(['deliveries', '--status', 'pending']);
    expect(deliveries.code).toBe(0);
    expect(Array.isArray(deliveries.json.deliveries)).toBe(true);
  });

  it('reset the world, keeping credentials', async () => {
    const d = pool[10]!;
    await order(d);
    expect((await client.request({ path: `${V1}/availability`, query: { domain: d.name } })).json.available).toBe(
      false,
    );
    const reset = await cli(['reset']);
    expect(reset.code).toBe(0);
    expect(reset.json.reset).toBe(true);
    expect((await client.request({ path: `${V1}/orders` })).json.orders).toEqual([]);
    expect((await client.request({ path: `${V1}/events` })).json.events).toEqual([]);
    expect((await client.request({ path: `${V1}/availability`, query: { domain: d.name } })).json).toMatchObject({
      available: true,
      price_cents: d.price_cents,
    });
    expect((await client.request({ path: `${V1}/pricing`, query: { domain: pool[5]!.name } })).json.price_cents).toBe(
      pool[5]!.price_cents,
    );
    expect((await client.request({ path: `${V1}/domains/already-sold.com` })).json.status).toBe('sold');
  });

  it('are refused without the admin token', async () => {
    const answer = await send(t.sandbox, { method: 'POST', path: '/admin/reset' });
    expect(answer.status).toBe(401);
    expect((await admin(t.sandbox, 'GET', '/faults')).status).toBe(200);
  });
});

describe('finding the sandbox', () => {
  it('reads the URL and the token from the data folder the sandbox wrote, and names the URL in every error', async () => {
    const made = await cli(['fixture', 'order', 'SETTLED', '--data-dir', t.dataDir], { target: false });
    expect(made.code).toBe(0);
    expect(made.json.order.status).toBe('SETTLED');
    expect(made.json.events.map((e: { type: string }) => e.type)).toEqual([
      'order.recorded',
      'order.transfer_started',
      'order.transfer_completed',
      'order.settled',
    ]);

    const refused = await cli(['faults', '--url', t.sandbox.url, '--admin-token', 'wrong-token-for-this-sandbox'], {
      target: false,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${t.sandbox.url}/admin/faults`);
    expect(refused.stderr).toMatch(/401 unauthorized/);

    const nowhere = await cli(['reset', '--url', 'http://127.0.0.1:9', '--admin-token', 'x'], { target: false });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('http://127.0.0.1:9/admin/reset');
  });

  it('events --follow prints each new event as one JSON line', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SANDBOX_URL: t.sandbox.url,
      SANDBOX_ADMIN_TOKEN: t.sandbox.demo.admin_token,
    };
    const before = await cli(['fixture', 'order', 'EXTERNALLY_PAID']);
    const after = before.json.events.at(-1).id as string;
    const child = spawnCli('sandbox', ['events', '--follow', '--after-id', after], env);
    try {
      const made = await cli(['fixture', 'order', 'TRANSFER_IN_PROGRESS']);
      const lines = await waitFor('two followed events', () => {
        const parsed = child
          .stdout()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { type: string; data: { order: { public_id: string } } });
        return parsed.length >= 2 ? parsed : undefined;
      });
      expect(lines.map((e) => [e.type, e.data.order.public_id])).toEqual([
        ['order.recorded', made.json.order.public_id],
        ['order.transfer_started', made.json.order.public_id],
      ]);
    } finally {
      await child.stop('SIGTERM');
    }
  });

  it('start reports progress and writes --ready-file; wait returns once /healthz answers', async () => {
    const dir = tempDir();
    const readyFile = join(dir, 'ready.txt');
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    delete env.SANDBOX_URL;
    const child = spawnCli(
      'sandbox',
      ['start', '--port', '0', '--data-dir', join(dir, 'data'), '--ready-file', readyFile],
      env,
    );
    try {
      const waited = await cli(['wait', '--data-dir', join(dir, 'data'), '--timeout', '120'], { target: false });
      expect(waited.code).toBe(0);
      const url = waited.stdout.trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(readFileSync(readyFile, 'utf8').trim()).toBe(url);
      expect(child.stdout()).toMatch(/"msg":"starting: opening the database/);
      expect(child.stdout()).toContain('"msg":"sandbox listening"');
    } finally {
      await child.stop('SIGTERM');
      removeDir(dir);
    }
  }, 180_000);
});

describe('dated fixtures', () => {
  it('--at dates a fixture and a settlement run in the past, and a future --at is refused naming at', async () => {
    const { credential } = await newPartner(t.sandbox, t.clock);
    const day = 86_400_000;
    const start = t.clock.now();
    const ago = (days: number) => new Date(start - days * day).toISOString();
    const made = await cli(['fixture', 'order', 'TRANSFER_COMPLETED', '--key-id', credential.key_id, '--at', ago(9)]);
    expect(made.code).toBe(0);
    expect(made.json.order.created_at).toBe(ago(9));
    const run = await cli(['trigger', 'settle', '--key-id', credential.key_id, '--at', ago(7)]);
    expect(run.code).toBe(0);
    expect(
      run.json.settlements.map((s: { period_start: string; period_end: string }) => [s.period_start, s.period_end]),
    ).toEqual([[ago(9), ago(7)]]);
    const future = new Date(start + 3_600_000).toISOString();
    const refused = await cli(['fixture', 'referral-sale', '--key-id', credential.key_id, '--at', future]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/400 validation_error: at: .* is in the future/);
  });
});
