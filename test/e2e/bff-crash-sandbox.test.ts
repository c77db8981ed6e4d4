/**
 * Crash safety against the real sandbox (issue 4, "what it must show" 2): the `domainkit-bff` command, selling MoR
 * with the test-card adapter on PGlite in a data folder, is killed with SIGKILL after the buyer's payment while the
 * order's record is in flight (the sandbox answers slowly), then started again on the same folder: the sandbox
 * ends with exactly one order for the purchase, recorded under the Idempotency-Key stored before the charge.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

const CLI = join(dirname(createRequire(import.meta.url).resolve('@domainkit/bff')), 'cli.ts');

let sandbox: RunningSandbox;
let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'domainkit-e2e-crash-'));
  sandbox = await startSandbox({ port: 0, dataDir: join(dir, 'sandbox'), logger: false, databaseUrl: '' });
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function startBff(): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, [CLI], {
    env: {
      PATH: process.env.PATH ?? '',
      DOMAINKIT_API_BASE_URL: sandbox.url,
      DOMAINKIT_KEY_ID: sandbox.demo.key_id,
      DOMAINKIT_API_SECRET: sandbox.demo.secret,
      DOMAINKIT_PAYMENTS: 'test_card',
      DOMAINKIT_DATA_DIR: join(dir, 'bff'),
      DOMAINKIT_LOG_LEVEL: 'debug',
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: 'pipe',
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  await vi.waitFor(() => expect(output).toContain('"msg":"domainkit BFF listening"'), {
    timeout: 30_000,
    interval: 100,
  });
  const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"domainkit BFF listening"/.exec(output)![1]!;
  return { child, url, output: () => output };
}

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
  await vi.waitFor(() => expect(first.output()).toContain('payment confirmed; recording the order upstream'), {
    timeout: 10_000,
    interval: 20,
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // let the record leave the process
  first.child.kill('SIGKILL');
  await once(first.child, 'exit');
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
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
  }
});
