/**
 * Bench: 20 partner console tabs refreshing every view for 5 minutes (issue 24). Passes when the marketplace sees at
 * most 30 reporting calls in any 60-second window (counted from the sandbox's own request log) and each console view
 * answers from the BFF in at most 50 ms at the 95th percentile once warm (after every tab's first round).
 * `CONSOLE_BENCH_SECONDS` shortens the run (e.g. 20 for a quick check); `CONSOLE_BENCH_TABS` changes the tab count.
 * By default the BFF keeps its state in embedded PGlite; with `CONSOLE_BENCH_DATABASE_URL` (a PostgreSQL server) it
 * uses a fresh schema there (dropped afterwards), and `CONSOLE_BENCH_PROCESSES` BFFs (default 1) share it, the tabs
 * spread over them: the bound is then the processes' together.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBff } from '@domainkit/bff';
import { createSandboxAdmin, startSandbox } from '@domainkit/sandbox';
import pg from 'pg';
import pino from 'pino';

const SECONDS = Number(process.env.CONSOLE_BENCH_SECONDS ?? 300);
const TABS = Number(process.env.CONSOLE_BENCH_TABS ?? 20);
const DATABASE_URL = process.env.CONSOLE_BENCH_DATABASE_URL || undefined;
const PROCESSES = DATABASE_URL === undefined ? 1 : Number(process.env.CONSOLE_BENCH_PROCESSES ?? 1);
const SCHEMA = `dk_console_bench_${randomBytes(6).toString('hex')}`;
const REFRESH_MS = 5_000;
const MAX_CALLS_PER_MINUTE = 30;
const MAX_P95_MS = 50;
const VIEWS = [
  '/console/overview',
  '/console/orders',
  '/console/settlements',
  '/console/transactions',
  '/console/payouts',
  '/console/commissions',
  '/console/brokerage',
  '/console/links',
  '/console/clicks',
  '/console/events',
];
/** The Partner API reads the console makes (the reporting and management endpoints of issue 24). */
const REPORTING =
  /^\/api\/partner\/v1\/(orders|settlements|transactions|payouts|me\/|analytics|brokerage|links|events)/;

const dataDir = await mkdtemp(join(tmpdir(), 'console-bench-'));
const upstream: number[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { msg?: string; method?: string; path?: string };
      if (entry.msg === 'request' && entry.method === 'GET' && REPORTING.test(entry.path ?? ''))
        upstream.push(Date.now());
    }
    done();
  },
});
const sandbox = await startSandbox({
  port: 0,
  dataDir: join(dataDir, 'sandbox'),
  databaseUrl: '',
  logger: pino({ level: 'info' }, sink),
});
const admin = createSandboxAdmin({ url: sandbox.url, adminToken: sandbox.demo.admin_token });
for (const status of ['EXTERNALLY_PAID', 'TRANSFER_IN_PROGRESS', 'TRANSFER_COMPLETED', 'SETTLED', 'REFUNDED'] as const)
  await admin.fixtures.order({ status });
await admin.fixtures.referralSale({ clicks: 7 });
await admin.fixtures.brokerageCase({ status: 'CLOSED_DEAL' });
const bffs = await Promise.all(
  Array.from({ length: PROCESSES }, () =>
    startBff({
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret },
      database: DATABASE_URL === undefined ? { memory: true } : { url: DATABASE_URL, schema: SCHEMA },
      logger: false,
      visitorLimits: false,
      background: { enabled: false },
      port: 0,
      console: { authorize: () => ({ actor: 'bench' }) },
    }),
  ),
);

// Every process accepts the others' tokens (one credential, one signing key).
const { token } = (await (await fetch(`${bffs[0]!.url}/console/session`, { method: 'POST' })).json()) as {
  token: string;
};
const warm: number[] = [];
const byView = new Map<string, number[]>();
const statuses = new Map<number, number>();
const until = Date.now() + SECONDS * 1000;

async function tab(index: number): Promise<void> {
  const bff = bffs[index % bffs.length]!;
  await sleep((index * REFRESH_MS) / TABS);
  let round = 0;
  while (Date.now() < until) {
    for (const view of VIEWS) {
      const started = performance.now();
      const answer = await fetch(`${bff.url}${view}`, { headers: { authorization: `Bearer ${token}` } });
      await answer.arrayBuffer();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (round > 0) {
        warm.push(performance.now() - started);
        byView.set(view, [...(byView.get(view) ?? []), performance.now() - started]);
      }
    }
    round += 1;
    await sleep(REFRESH_MS);
  }
}
await Promise.all(Array.from({ length: TABS }, (_, i) => tab(i)));

let worstWindow = 0;
for (const start of upstream)
  worstWindow = Math.max(worstWindow, upstream.filter((t) => t >= start && t < start + 60_000).length);
warm.sort((a, b) => a - b);
const p95 = warm.length === 0 ? 0 : (warm[Math.min(warm.length - 1, Math.floor(warm.length * 0.95))] ?? 0);
for (const bff of bffs) await bff.close();
await sandbox.close();
await rm(dataDir, { recursive: true, force: true });
if (DATABASE_URL !== undefined) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists "${SCHEMA}" cascade`).finally(() => client.end());
}

const p95Of = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.95)] ?? 0;
const slowest = Math.max(0, ...[...byView.values()].map(p95Of));
const ok = worstWindow <= MAX_CALLS_PER_MINUTE && slowest <= MAX_P95_MS && warm.length > 0;
console.log(
  `console tabs: ${TABS} tabs for ${SECONDS} s on ${PROCESSES} BFF process(es) (${DATABASE_URL === undefined ? 'PGlite' : 'PostgreSQL'}), ${warm.length} warm views (answers ${JSON.stringify(Object.fromEntries(statuses))}); ` +
    `upstream reporting calls in the worst 60 s: ${worstWindow} (≤ ${MAX_CALLS_PER_MINUTE}); ` +
    `p95 of all ${p95.toFixed(1)} ms, of the slowest view ${slowest.toFixed(1)} ms (≤ ${MAX_P95_MS}) ${ok ? 'PASS' : 'FAIL'}`,
);
for (const [view, ms] of byView) console.log(`  ${view}: p95 ${p95Of(ms).toFixed(1)} ms`);
process.exitCode = ok ? 0 : 1;
