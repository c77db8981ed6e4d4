/**
 * Crash safety against the real sandbox (issue 4, "what it must show" 2): the `domainkit-bff` command, selling MoR
 * with the test-card adapter on PGlite in a data folder, is killed with SIGKILL after the buyer's payment while the
 * order's record is in flight (the sandbox answers slowly), then started again on the same folder: the sandbox
 * ends with exactly one order for the purchase, recorded under the Idempotency-Key stored before the charge.
 *
 * The visitor's side of the same crash (issue 15): the widget's retry with its purchase key (`Idempotency-Key`)
 * gets the order's status and a fresh view token, never a second payment, on the restarted BFF and on a second BFF
 * process sharing one PostgreSQL (TEST_DATABASE_URL).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startCli, type CliProcess } from '../setup/child-process.ts';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'domainkit-e2e-crash-'));
  sandbox = await startSandbox({
    port: 0,
    dataDir: seedPgliteCluster(join(dir, 'sandbox')),
    logger: false,
    databaseUrl: '',
  });
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts `domainkit-bff` in front of the sandbox, selling with test cards on PGlite in the data folder. */
function startBff(extraEnv: Record<string, string> = {}): Promise<CliProcess> {
  return startCli('bff', [], {
    ...extraEnv,
    DOMAINKIT_API_BASE_URL: sandbox.url,
    DOMAINKIT_KEY_ID: sandbox.demo.key_id,
    DOMAINKIT_API_SECRET: sandbox.demo.secret,
    DOMAINKIT_PAYMENTS: 'test_card',
    DOMAINKIT_DATA_DIR: join(dir, 'bff'),
    DOMAINKIT_LOG_LEVEL: 'debug',
    PORT: '0',
    HOST: '127.0.0.1',
  });
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
async function admin(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const res = await fetch(`${sandbox.url}/admin${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${sandbox.demo.admin_token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return res.json();
}

it('records a paid order exactly once after the BFF is killed mid-record and restarted', async () => {
  const first = await startBff();
  const search = (await (await fetch(`${first.url}/search?q=maple`)).json()) as {
    results: Array<{ domain: string; available: boolean }>;
  };
  const domain = search.results.find((r) => r.available)!.domain;
  const quote = (await (
    await fetch(`${first.url}/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain }),
    })
  ).json()) as { quote_id: string };

  await admin('/faults', { method: 'PUT', body: { latency_ms: 4_000 } });
  const order = fetch(`${first.url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      quote_id: quote.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    }),
  }).catch((e: unknown) => e);
  await vi.waitFor(() => expect(first.output()).toContain('recording the order upstream'), {
    timeout: 10_000,
    interval: 20,
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // let the record leave the process
  await first.stop('SIGKILL');
  expect(await order).toBeInstanceOf(Error); // the visitor never heard "success"
  await admin('/faults', { method: 'PUT', body: { latency_ms: 0 } });

  const second = await startBff();
  try {
    await vi.waitFor(() => expect(second.output()).toContain('order recorded upstream'), {
      timeout: 30_000,
      interval: 100,
    });
    // Give a slow first attempt, if the sandbox was still holding it, time to land as well.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const { orders } = await admin(`/orders?key_id=${sandbox.demo.key_id}`);
    const forDomain = (orders as Array<{ domain: string; quote_id: string | null }>).filter((o) => o.domain === domain);
    expect(forDomain).toHaveLength(1);
    expect(forDomain[0]!.quote_id).toBe(quote.quote_id);
  } finally {
    await second.stop('SIGTERM');
  }
});

/** A search, a quote and the order body of one purchase on `url`. */
async function quoteSomething(url: string, word: string) {
  const search = (await (await fetch(`${url}/search?q=${word}`)).json()) as {
    results: Array<{ domain: string; available: boolean }>;
  };
  const domain = search.results.find((r) => r.available)!.domain;
  const quote = (await (
    await fetch(`${url}/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain }),
    })
  ).json()) as { quote_id: string };
  const body = JSON.stringify({
    quote_id: quote.quote_id,
    buyer: { email: 'ada@example.com' },
    payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
  });
  return { domain, body };
}

/** `POST /orders` as the widget sends it, with its purchase key. */
async function order(url: string, body: string, purchaseKey: string) {
  const res = await fetch(`${url}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': purchaseKey },
    body,
  });
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  return { status: res.status, json: (await res.json()) as any };
}

/**
 * Sends the purchase to `bff` while the sandbox answers slowly, and SIGKILLs it once the buyer has paid and the
 * record has left: the widget never hears the answer.
 */
async function payAndKill(bff: Awaited<ReturnType<typeof startBff>>, body: string, purchaseKey: string) {
  await admin('/faults', { method: 'PUT', body: { latency_ms: 4_000 } });
  const lost = order(bff.url, body, purchaseKey).catch((e: unknown) => e);
  await vi.waitFor(() => expect(bff.output()).toContain('recording the order upstream'), {
    timeout: 10_000,
    interval: 20,
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // let the record leave the process
  await bff.stop('SIGKILL');
  expect(await lost).toBeInstanceOf(Error); // the answer went down with the process
  await admin('/faults', { method: 'PUT', body: { latency_ms: 0 } });
}

/** Payment steps a BFF took (one log line each). */
function payments(output: string): number {
  return output.split('\n').filter((l) => l.includes('recording the order upstream')).length;
}

async function ordersFor(domain: string) {
  const { orders } = await admin(`/orders?key_id=${sandbox.demo.key_id}`);
  return (orders as Array<{ domain: string; public_id: string }>).filter((o) => o.domain === domain);
}

it("answers the widget's retry after the crash with the order's status: the buyer pays once", async () => {
  const first = await startBff();
  const { domain, body } = await quoteSomething(first.url, 'cedar');
  const purchaseKey = randomUUID();
  await payAndKill(first, body, purchaseKey);

  const second = await startBff();
  try {
    const retry = await order(second.url, body, purchaseKey);
    expect([201, 202]).toContain(retry.status);
    expect(retry.json).toMatchObject({ domain, order_token: expect.any(String), status: expect.any(String) });
    // The fresh view token shows the order until it is recorded (the recovery pass at start finishes it).
    const view = await vi.waitFor(
      async () => {
        const res = await fetch(`${second.url}/orders/${retry.json.order_id}`, {
          headers: { 'x-order-token': retry.json.order_token },
        });
        const json = (await res.json()) as { status: string };
        expect(json.status).toBe('EXTERNALLY_PAID');
        return json;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(view).toMatchObject({ domain, status: 'EXTERNALLY_PAID' });
    // Charged once: one payment step over both processes, the retry none; one order upstream.
    expect(payments(first.output()) + payments(second.output())).toBe(1);
    expect(second.output()).toContain('purchase retried with its key');
    await new Promise((resolve) => setTimeout(resolve, 4_500)); // the first record, held by the sandbox, lands
    expect(await ordersFor(domain)).toHaveLength(1);
  } finally {
    await second.stop('SIGTERM');
  }
}, 120_000);

const databaseUrl = process.env.TEST_DATABASE_URL;

it.skipIf(!databaseUrl)(
  'answers the retry on a second BFF process sharing one PostgreSQL: the status, never a second payment',
  async () => {
    const schema = `dk_e2e_crash_${randomBytes(6).toString('hex')}`;
    const env = { DATABASE_URL: databaseUrl!, DOMAINKIT_DATABASE_SCHEMA: schema };
    try {
      const a = await startBff(env);
      const b = await startBff(env);
      try {
        const { domain, body } = await quoteSomething(a.url, 'willow');
        const purchaseKey = randomUUID();
        await payAndKill(a, body, purchaseKey);

        const retry = await order(b.url, body, purchaseKey);
        // The dead process still holds the intent's lease: the order is processing, and b says so.
        expect(retry.status).toBe(202);
        expect(retry.json).toMatchObject({ domain, status: 'PROCESSING', order_token: expect.any(String) });
        const view = await fetch(`${b.url}/orders/${retry.json.order_id}`, {
          headers: { 'x-order-token': retry.json.order_token },
        });
        expect(((await view.json()) as { status: string }).status).toBe('PROCESSING');
        const again = await order(b.url, body, purchaseKey);
        expect(again.json.order_id).toBe(retry.json.order_id);
        expect(payments(a.output()) + payments(b.output())).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 4_500)); // the first record, held by the sandbox, lands
        expect(await ordersFor(domain)).toHaveLength(1);
      } finally {
        await b.stop('SIGTERM');
      }
    } finally {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  },
  120_000,
);
