/**
 * Two BFF processes of one credential on one PostgreSQL schema (runs when TEST_DATABASE_URL is set), each with its
 * own connection pool, as two replicas behind a load balancer: their consoles share one cache and one reporting
 * budget (issue 24, docs/console-api.md "Cache and budget"). Together they send the marketplace at most 30 console
 * reads in a minute (counted by the sandbox's own request log), and a figure one of them read is served by the other
 * without another upstream call.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import { startBff, type RunningBff } from '@domainkit/bff';
import { createSandboxAdmin, startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

const url = process.env.TEST_DATABASE_URL;
const schema = `dk_console_two_${randomBytes(6).toString('hex')}`;

/** The Partner API endpoints the console reads (the BFF's own start-up credential check is not one). */
const CONSOLE_UPSTREAM =
  /^\/api\/partner\/v1\/(orders|refunds|settlements|transactions|payouts|me\/|analytics|brokerage|links|events)/;

describe.skipIf(!url)('two BFF processes on one PostgreSQL share the console cache and its reporting budget', () => {
  let sandbox: RunningSandbox;
  let a: RunningBff;
  let b: RunningBff;
  let dataDir: string;
  const sandboxLines: Array<{ msg?: string; path?: string }> = [];
  const logged = () => sandboxLines.filter((l) => l.msg === 'request' && CONSOLE_UPSTREAM.test(l.path ?? '')).length;
  /**
   * Console reads the sandbox has logged, once its log is quiet: it writes a request's line as the answer finishes,
   * so the last line may come just after the BFF has answered.
   */
  async function upstreamCalls(): Promise<number> {
    for (let seen = logged(); ; ) {
      await setTimeout(250);
      if (logged() === seen) return seen;
      seen = logged();
    }
  }

  const start = () =>
    startBff({
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret, maxRetries: 0 },
      database: { url, schema },
      logger: false,
      visitorLimits: false,
      background: { enabled: false },
      port: 0,
      console: { authorize: () => ({ actor: 'ops@shop.example' }) },
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'console-two-'));
    sandbox = await startSandbox({
      port: 0,
      dataDir: seedPgliteCluster(join(dataDir, 'sandbox')),
      databaseUrl: '',
      logger: pino(
        { level: 'info' },
        new Writable({
          write(chunk, _enc, done) {
            for (const line of String(chunk).split('\n')) if (line) sandboxLines.push(JSON.parse(line));
            done();
          },
        }),
      ),
    });
    const admin = createSandboxAdmin({ url: sandbox.url, adminToken: sandbox.demo.admin_token });
    await admin.fixtures.order({ status: 'SETTLED' });
    await admin.fixtures.referralSale({ clicks: 3 });
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sandbox?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop schema if exists "${schema}" cascade`);
    } finally {
      await client.end();
    }
  });
  beforeEach(async () => {
    // Each case starts with an empty cache and an unspent budget (the window is a minute; a case lasts seconds).
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`set search_path to "${schema}"`);
      const tables = await client.query<{ tablename: string }>(
        `select tablename from pg_tables where schemaname = $1 and tablename like 'bff_%'`,
        [schema],
      );
      const names = tables.rows.map((r) => `"${r.tablename}"`).filter((t) => !t.includes('migration'));
      await client.query(`truncate ${names.join(', ')}`);
    } finally {
      await client.end();
    }
  });

  async function token(bff: RunningBff): Promise<string> {
    const answer = await fetch(`${bff.url}/console/session`, { method: 'POST' });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { token: string }).token;
  }

  it('a figure read through one is answered by the other without an upstream call', async () => {
    const [tokenA, tokenB] = [await token(a), await token(b)];
    const before = await upstreamCalls();
    const fromA = await fetch(`${a.url}/console/settlements`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(fromA.status).toBe(200);
    expect(await upstreamCalls()).toBe(before + 1);

    const fromB = await fetch(`${b.url}/console/settlements`, { headers: { authorization: `Bearer ${tokenB}` } });
    expect(fromB.status).toBe(200);
    // The same copy, read once: the same figures and the same `as_of`.
    expect(await fromB.json()).toEqual(await fromA.json());
    expect(await upstreamCalls()).toBe(before + 1);
  });

  it('together they send at most 30 console reads in a minute, racing for the last ones', async () => {
    const tokens = { a: await token(a), b: await token(b) };
    const before = await upstreamCalls();
    // 40 reads no cache holds (each page size is its own figure), sent at once, alternating between the processes.
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const [bff, bearer] = i % 2 === 0 ? [a, tokens.a] : [b, tokens.b];
        const path = i % 4 < 2 ? `/console/orders?limit=${i + 1}` : `/console/settlements?limit=${i + 1}`;
        const answer = await fetch(`${bff.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
        const body = (await answer.json()) as { error?: { code: string } };
        return answer.status === 200 ? 'ok' : `${answer.status} ${body.error?.code}`;
      }),
    );
    // On a failure, what the 40 answers were and whether the sandbox failed any read (a 5xx logs `request failed`).
    const counted: Record<string, number> = {};
    for (const s of answers) counted[s] = (counted[s] ?? 0) + 1;
    const tally = JSON.stringify(counted);
    const failedUpstream = sandboxLines.filter((l) => l.msg === 'request failed').length;
    expect((await upstreamCalls()) - before, `answers ${tally}; sandbox 5xx: ${failedUpstream}`).toBe(30);
    expect(answers.filter((s) => s === 'ok')).toHaveLength(30);
    expect(new Set(answers.filter((s) => s !== 'ok'))).toEqual(new Set(['503 busy']));
  });
});
