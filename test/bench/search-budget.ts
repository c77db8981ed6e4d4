/**
 * `pnpm --filter @domainkit/e2e bench` (part of `pnpm bench`): how well the standalone BFF spends the marketplace's
 * search budget (spec 8: 60 searches a minute per credential) under a visitor load, against the real sandbox.
 *
 * Load: 10,000 visitor searches a minute drawn from 2,000 distinct queries on a Zipf distribution (s = 1.1,
 * seeded: every run draws the same sequence), paced, from a cold start (a new sandbox, a new BFF data folder or
 * PostgreSQL schema). Queries are real words of the sandbox inventory: its single words, then its two-word labels.
 *
 * Scenarios, each with its own sandbox (so its own budget), run one after the other:
 * - `baseline`: one BFF process with the earlier per-process cache (`DOMAINKIT_SEARCH_CACHE_MODE=process`, set to
 *   30 s fresh, 270 s stale: no queue, no index, 1.5 s token wait), the reference printed in the same run;
 * - `one`: one BFF process with its defaults (shared cache in its PGlite data folder, demand-ordered queue, index);
 * - `three`: three BFF processes on one PostgreSQL behind a round-robin balancer in this process; the third is
 *   killed (SIGKILL) at minute 5 and started again at once (the balancer skips it while it is down).
 *
 * Printed per minute: visitor searches, share answered (and from where: cache, queue, index, as the BFF's
 * `Cache-Status` header says; the baseline sends none), busy (503), p50/p95 latency of answered searches,
 * upstream searches and upstream 429s (from the sandbox's request log), then the most upstream searches in any
 * 60 s window. For `three`, minute 6 is also split by process (the restarted one against the others).
 *
 * Knobs: `BENCH_LOAD_SECONDS` (default 600: ten minutes; the restart happens at half of it),
 * `BENCH_SCENARIOS` (comma-separated, default `baseline,one,three`), `BENCH_PARALLEL=1` (run them at the same
 * time, each against its own sandbox: a third of the wall time, on a shared CPU), `BENCH_DATABASE_URL` (default
 * `DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/test`; `three` is skipped when it cannot connect).
 * Everything binds 127.0.0.1 on free ports and stops by itself. Exits 1 when a hard limit is broken (an upstream
 * 429, or more than 60 upstream searches in a 60 s window). A benchmark: no test depends on it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, Agent as HttpAgent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { generateInventory, startSandbox } from '@domainkit/sandbox';
import pg from 'pg';
import { pino } from 'pino';
import { Agent, request } from 'undici';

const RATE_PER_MINUTE = 10_000;
const DISTINCT_QUERIES = 2_000;
const ZIPF_S = 1.1;
const SEED = 42;
const UPSTREAM_SEARCH_LIMIT = 60;
const SEARCH_PATH = '/api/partner/v1/domains/search';
const BFF_CLI = join(dirname(fileURLToPath(import.meta.url)), '../../packages/bff/src/cli.ts');

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 600);
if (!Number.isFinite(seconds) || seconds < 10 || seconds > 3600)
  throw new Error('BENCH_LOAD_SECONDS must be a number of seconds from 10 to 3600.');
const scenarios = (process.env.BENCH_SCENARIOS ?? 'baseline,one,three').split(',').map((s) => s.trim());
const databaseUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Length of one reporting period: a minute, or a tenth of a short run. */
const periodMs = Math.min(60_000, (seconds * 1000) / 10);

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Samples indexes 0..n-1 with P(rank k = index + 1) ∝ 1/k^s. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cdf: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) {
    total += 1 / k ** s;
    cdf.push(total);
  }
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The most timestamps (ms, ascending) in any 60 s window. */
function maxInAnyMinute(times: readonly number[]): number {
  let max = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

/** 2,000 distinct visitor queries of real words: the inventory's words, then its two-word labels. */
function buildQueries(): string[] {
  const inventory = generateInventory({ environment: 'SANDBOX' });
  const queries = new Set<string>();
  for (const domain of inventory) for (const word of domain.words) queries.add(word);
  for (const domain of inventory) if (domain.words.length > 1) queries.add(domain.words.join(' '));
  if (queries.size < DISTINCT_QUERIES) throw new Error(`the inventory gives only ${queries.size} distinct queries`);
  return [...queries].slice(0, DISTINCT_QUERIES);
}

/** A sandbox whose request log is read for Partner API searches and 429s. */
async function sandboxWithLog() {
  const upstream = { searchTimes: [] as number[], all429: [] as number[] };
  let pending = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const text = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
        let line: { path?: unknown; status?: unknown; time?: unknown; ms?: unknown };
        try {
          line = JSON.parse(text) as typeof line;
        } catch {
          continue;
        }
        if (typeof line.path !== 'string' || typeof line.status !== 'number') continue;
        // Counted by arrival, as the sandbox counts its windows (the line is written when the answer is sent:
        // its time less the request's duration), never by when the answer came back.
        const finished = typeof line.time === 'number' ? line.time : Date.now();
        const at = typeof line.ms === 'number' ? finished - line.ms : finished;
        if (line.status === 429 && line.path.startsWith('/api/partner/')) upstream.all429.push(at);
        if (line.path === SEARCH_PATH && line.status !== 429) upstream.searchTimes.push(at);
      }
      callback();
    },
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'dk-bench-sandbox-'));
  const sandbox = await startSandbox({ port: 0, dataDir, databaseUrl: '', logger: pino({ level: 'info' }, sink) });
  return {
    sandbox,
    upstream,
    async close() {
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One standalone BFF process (`domainkit-bff`), started and restartable with the same environment. */
class BffProcess {
  readonly #env: Record<string, string>;
  #child: ChildProcess | undefined;
  url: string | undefined;

  constructor(env: Record<string, string>) {
    this.#env = env;
  }

  async start(): Promise<string> {
    const child = spawn(process.execPath, [BFF_CLI], {
      env: { ...process.env, ...this.#env, PORT: '0', HOST: '127.0.0.1', DOMAINKIT_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        const match = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"domainkit BFF listening"/.exec(out);
        if (match) resolve(match[1]!);
        if (out.length > 100_000) out = out.slice(-10_000);
      });
      child.once('exit', (code) => reject(new Error(`the BFF exited (${code}) before listening: ${stderr}`)));
    });
    this.url = url;
    return url;
  }

  kill(): void {
    this.#child?.kill('SIGKILL');
    this.url = undefined;
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

/** A round-robin HTTP balancer over the processes that are up; says which answered in `x-bench-backend`. */
async function balancer(backends: BffProcess[]): Promise<{ url: string; server: Server; agent: HttpAgent }> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const server = createServer((req, res) => {
    let chosen = -1;
    for (let i = 0; i < backends.length; i++) {
      const candidate = (next + i) % backends.length;
      if (backends[candidate]!.url !== undefined) {
        chosen = candidate;
        break;
      }
    }
    next = (chosen + 1) % backends.length;
    if (chosen < 0) {
      res.writeHead(502).end();
      return;
    }
    const target = new URL(req.url ?? '/', backends[chosen]!.url);
    const proxied = httpRequest(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-bench-backend': String(chosen) });
      answer.pipe(res);
    });
    proxied.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'x-bench-backend': String(chosen) });
      res.end();
    });
    req.pipe(proxied);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, agent };
}

type Outcome = 'cache' | 'queue' | 'index' | 'answered' | 'busy' | 'other';

interface Sample {
  readonly period: number;
  readonly outcome: Outcome;
  readonly ms: number;
  readonly backend: number;
}

function classify(status: number, cacheStatus: string | undefined): Outcome {
  if (status === 503) return 'busy';
  if (status !== 200) return 'other';
  if (cacheStatus === undefined) return 'answered';
  if (cacheStatus.includes('detail=index')) return 'index';
  if (cacheStatus.includes('fwd=miss; stored')) return 'queue';
  return 'cache';
}

/** Sends the paced Zipf load to `url`; calls `at(period)` as each new period starts. */
async function load(url: string, queries: readonly string[], at: (period: number) => void): Promise<Sample[]> {
  const total = Math.round((RATE_PER_MINUTE * seconds) / 60);
  const draw = zipf(queries.length, ZIPF_S, prng(SEED));
  const agent = new Agent({ connections: 512, pipelining: 1 });
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  const interval = (seconds * 1000) / total;
  const start = performance.now();
  let period = -1;
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const p = Math.floor((i * interval) / periodMs);
    if (p !== period) {
      period = p;
      at(p);
    }
    while (inFlight.size >= 800) await Promise.race(inFlight);
    const q = queries[draw()]!;
    const sent = performance.now();
    const task: Promise<void> = request(`${url}/search?q=${encodeURIComponent(q)}`, {
      dispatcher: agent,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    })
      .then(async (res) => {
        await res.body.dump();
        const header = res.headers['cache-status'];
        const backend = Number(res.headers['x-bench-backend'] ?? 0);
        samples.push({
          period: p,
          outcome: classify(res.statusCode, typeof header === 'string' ? header : undefined),
          ms: performance.now() - sent,
          backend,
        });
      })
      .catch(() => void samples.push({ period: p, outcome: 'other', ms: performance.now() - sent, backend: -1 }))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  await agent.close();
  return samples;
}

const pct = (n: number, d: number) => (d === 0 ? '    -' : `${((100 * n) / d).toFixed(1).padStart(5)}`);

/** Prints the per-period table; returns whether the hard limits held. */
function report(
  log: (line: string) => void,
  name: string,
  samples: readonly Sample[],
  upstream: { searchTimes: number[]; all429: number[] },
  startedAt: number,
): boolean {
  const periods = Math.ceil((seconds * 1000) / periodMs);
  const unit = periodMs === 60_000 ? 'min' : `×${(periodMs / 1000).toFixed(0)}s`;
  log(`  ${unit.padEnd(5)} searches answered%  cache%  queue%  index%   busy  other  p50ms  p95ms  upstream  429s`);
  for (let p = 0; p < periods; p++) {
    const these = samples.filter((s) => s.period === p);
    const count = (o: Outcome) => these.filter((s) => s.outcome === o).length;
    const answeredMs = these
      .filter((s) => s.outcome !== 'busy' && s.outcome !== 'other')
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const from = startedAt + p * periodMs;
    const to = from + periodMs;
    const ups = upstream.searchTimes.filter((t) => t >= from && t < to).length;
    const u429 = upstream.all429.filter((t) => t >= from && t < to).length;
    log(
      `  ${String(p + 1).padStart(5)} ${String(these.length).padStart(8)} ${pct(answeredMs.length, these.length).padStart(9)} ${pct(count('cache'), these.length).padStart(7)} ${pct(count('queue'), these.length).padStart(7)} ${pct(count('index'), these.length).padStart(7)} ${String(count('busy')).padStart(6)} ${String(count('other')).padStart(6)} ${percentile(answeredMs, 50).toFixed(1).padStart(6)} ${percentile(answeredMs, 95).toFixed(1).padStart(6)} ${String(ups).padStart(9)} ${String(u429).padStart(5)}`,
    );
  }
  const sorted = [...upstream.searchTimes].sort((a, b) => a - b);
  const busiest = maxInAnyMinute(sorted);
  const ok = busiest <= UPSTREAM_SEARCH_LIMIT && upstream.all429.length === 0;
  log(
    `  ${name}: ${upstream.searchTimes.length} upstream searches, at most ${busiest} in any 60 s window (limit ${UPSTREAM_SEARCH_LIMIT}); ${upstream.all429.length} upstream 429s → ${ok ? 'PASS' : 'FAIL'}`,
  );
  return ok;
}

function sharesByBackend(samples: readonly Sample[], period: number, backends: number): string {
  const parts: string[] = [];
  for (let b = 0; b < backends; b++) {
    const these = samples.filter((s) => s.period === period && s.backend === b);
    const answered = these.filter((s) => s.outcome !== 'busy' && s.outcome !== 'other').length;
    const cacheQueue = these.filter((s) => s.outcome === 'cache' || s.outcome === 'queue').length;
    parts.push(
      `process ${b + 1}${b === backends - 1 ? ' (restarted)' : ''}: ${pct(answered, these.length).trim()}% answered, ${pct(cacheQueue, these.length).trim()}% from cache+queue (${these.length} searches)`,
    );
  }
  return parts.join('; ');
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function runScenario(name: string, queries: readonly string[], log: (line: string) => void): Promise<boolean> {
  const { sandbox, upstream, close } = await sandboxWithLog();
  const credential = {
    DOMAINKIT_API_BASE_URL: sandbox.url,
    DOMAINKIT_KEY_ID: sandbox.demo.key_id,
    DOMAINKIT_API_SECRET: sandbox.demo.secret,
    DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE: 'off',
  };
  const dataDir = await mkdtemp(join(tmpdir(), 'dk-bench-bff-'));
  const schema = `dk_bench_${randomBytes(5).toString('hex')}`;
  const processes: BffProcess[] = [];
  let front: { url: string; server: Server; agent: HttpAgent } | undefined;
  try {
    if (name === 'baseline' || name === 'one') {
      const env: Record<string, string> = { ...credential, DOMAINKIT_DATA_DIR: dataDir };
      if (name === 'baseline')
        Object.assign(env, {
          DOMAINKIT_SEARCH_CACHE_MODE: 'process',
          // The earlier cache's figures, set explicitly (the search cache's defaults are the same in both modes).
          DOMAINKIT_SEARCH_CACHE_TTL_SECONDS: '30',
          DOMAINKIT_SEARCH_CACHE_STALE_SECONDS: '270',
          DOMAINKIT_SEARCH_CACHE_STALE_IF_ERROR_SECONDS: '600',
          DOMAINKIT_SEARCH_CACHE_MEMORY_ENTRIES: '1000',
          DOMAINKIT_SEARCH_MAX_WAIT_MS: '1500',
        });
      processes.push(new BffProcess(env));
    } else {
      for (let i = 0; i < 3; i++)
        processes.push(new BffProcess({ ...credential, DATABASE_URL: databaseUrl, DOMAINKIT_DATABASE_SCHEMA: schema }));
    }
    await Promise.all(processes.map((p) => p.start()));
    front = processes.length > 1 ? await balancer(processes) : undefined;
    const url = front?.url ?? processes[0]!.url!;
    const title: Record<string, string> = {
      baseline: 'baseline: 1 BFF process, the earlier per-process cache (30 s fresh + 270 s stale, 1.5 s token wait)',
      one: '1 BFF process, defaults (shared cache in PGlite, demand-ordered queue, listing index)',
      three: `3 BFF processes on one PostgreSQL, round-robin; process 3 killed and restarted at ${unitAt(5)}`,
    };
    log(`\n${title[name]}`);
    const startedAt = Date.now();
    const restartPeriod = 5;
    const samples = await load(url, queries, (period) => {
      if (name === 'three' && period === restartPeriod) {
        const victim = processes[2]!;
        victim.kill();
        victim.start().catch((error: unknown) => log(`restart failed: ${(error as Error).message}`));
      }
    });
    await sleep(2_000); // the last log lines of the sandbox
    const ok = report(log, name, samples, upstream, startedAt);
    if (name === 'three') log(`  ${unitAt(6)} by process: ${sharesByBackend(samples, restartPeriod, 3)}`);
    return ok;
  } finally {
    if (front !== undefined) {
      front.server.closeAllConnections();
      front.server.close();
      front.agent.destroy();
    }
    await Promise.all(processes.map((p) => p.stop()));
    await close();
    await rm(dataDir, { recursive: true, force: true });
    if (name === 'three') {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    }
  }
}

function unitAt(period: number): string {
  return periodMs === 60_000 ? `minute ${period}` : `period ${period} (${((period * periodMs) / 1000).toFixed(0)} s)`;
}

const queries = buildQueries();
console.log(
  `\nSearch budget under visitor load, against the sandbox: ${RATE_PER_MINUTE.toLocaleString('en')} searches/min for ${seconds} s over ${DISTINCT_QUERIES} queries, Zipf s=${ZIPF_S}, seed ${SEED}, cold start; upstream limit ${UPSTREAM_SEARCH_LIMIT} searches/min`,
);
let allOk = true;
const runnable: string[] = [];
for (const name of scenarios) {
  if (!['baseline', 'one', 'three'].includes(name)) throw new Error(`unknown scenario ${name}`);
  if (name === 'three' && !(await canConnect(databaseUrl))) {
    console.log('\n3 BFF processes: skipped (no PostgreSQL at BENCH_DATABASE_URL)');
    continue;
  }
  runnable.push(name);
}
if (process.env.BENCH_PARALLEL === '1') {
  // Each scenario has its own sandbox and credential, so their budgets are independent; they share the CPU.
  console.log(`(scenarios run at the same time: ${runnable.join(', ')})`);
  const outputs = runnable.map(() => [] as string[]);
  const results = await Promise.all(
    runnable.map((name, i) => runScenario(name, queries, (line) => outputs[i]!.push(line))),
  );
  for (const lines of outputs) for (const line of lines) console.log(line);
  allOk = results.every(Boolean);
} else {
  for (const name of runnable) allOk = (await runScenario(name, queries, (line) => console.log(line))) && allOk;
}
console.log('');
if (!allOk) process.exitCode = 1;
