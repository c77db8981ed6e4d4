/**
 * `pnpm --filter @domainkit/e2e bench` (visitor load against the real sandbox): 10,000 visitor searches per minute
 * drawn from 2,000 distinct queries on a Zipf distribution (s = 1, seeded), paced, through the BFF with its default
 * upstream budget and search cache, in front of the sandbox marketplace (which enforces Partner API spec 8's 60 searches per
 * minute per credential with 429 + Retry-After).
 *
 * - Queries are real words of the sandbox inventory: its single words first, then its two-word labels ("coffee
 *   house"), 2,000 distinct in all; rank 1 is the most frequent.
 * - Upstream figures come from the sandbox's own request log (one JSON line per request with path, status and
 *   time): every `GET /api/partner/v1/domains/search`, the most of them in any 60 s window, and every 429 the
 *   Partner API answered.
 * - Loopback only (everything binds 127.0.0.1, port 0), bounded: `BENCH_LOAD_SECONDS` (default 60, 5 to 600) at
 *   10,000 per minute, at most {@link MAX_IN_FLIGHT} visitor requests in flight, 10 s timeout each.
 *
 * Prints visitor searches sent, share answered 200, 503 busy, visitor p50/p95 latency, upstream searches and
 * upstream 429s, then whether issue 4's bar holds (0 upstream 429s, at most 60 upstream searches in any minute);
 * exits 1 when it does not. A benchmark's own check: no vitest test depends on it.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { createBff } from '@domainkit/bff';
import { generateInventory, startSandbox } from '@domainkit/sandbox';
import express from 'express';
import { pino } from 'pino';

/** Visitor searches per minute. */
const RATE_PER_MINUTE = 10_000;
/** Distinct queries the visitors draw from. */
const DISTINCT_QUERIES = 2_000;
/** Visitor requests in flight at most (the pacing waits beyond it). */
const MAX_IN_FLIGHT = 100;
/** The spec's search budget per credential per minute (Partner API spec 8). */
const UPSTREAM_SEARCH_LIMIT = 60;
const SEARCH_PATH = '/api/partner/v1/domains/search';

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
if (!Number.isFinite(seconds) || seconds < 5 || seconds > 600)
  throw new Error('BENCH_LOAD_SECONDS must be a number of seconds from 5 to 600.');

/** mulberry32: a small seeded PRNG, so every run draws the same queries. */
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
  if (sorted.length === 0) return NaN;
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

/** What the sandbox's request log told: Partner API searches (time, status) and 429s on any path. */
const upstream = { searchTimes: [] as number[], search429: 0, all429: 0 };
let pending = '';
const logSink = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      let line: { path?: unknown; status?: unknown; time?: unknown };
      try {
        line = JSON.parse(text) as typeof line;
      } catch {
        continue;
      }
      if (typeof line.path !== 'string' || typeof line.status !== 'number') continue;
      if (line.status === 429 && line.path.startsWith('/api/partner/')) upstream.all429++;
      if (line.path !== SEARCH_PATH) continue;
      if (line.status === 429) upstream.search429++;
      else upstream.searchTimes.push(typeof line.time === 'number' ? line.time : Date.now());
    }
    callback();
  },
});

const queries = buildQueries();
const total = Math.round((RATE_PER_MINUTE * seconds) / 60);
console.log(
  `\nVisitor load against the sandbox: ${total} searches in ${seconds} s (${RATE_PER_MINUTE.toLocaleString('en')}/min) over ${DISTINCT_QUERIES} queries, Zipf s=1, BFF defaults`,
);

const dataDir = await mkdtemp(join(tmpdir(), 'dk-visitor-load-'));
const sandbox = await startSandbox({ port: 0, dataDir, databaseUrl: '', logger: pino({ level: 'info' }, logSink) });
const bff = createBff({
  marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret },
  logger: false,
  visitorLimits: false,
  database: { memory: true },
});
const app = express();
app.use(bff);
const server = createServer(app);
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const bffUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const statuses = new Map<number | 'error', number>();
const latencies: number[] = [];
let elapsed = 0;
try {
  const draw = zipf(DISTINCT_QUERIES, 1, prng(42));
  const interval = (seconds * 1000) / total;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = start + i * interval - performance.now();
    if (wait > 1) await sleep(wait);
    while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    const q = queries[draw()]!;
    const sent = performance.now();
    const p: Promise<void> = fetch(`${bffUrl}/search?q=${encodeURIComponent(q)}`, {
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      })
      .catch(() => void statuses.set('error', (statuses.get('error') ?? 0) + 1))
      .finally(() => {
        latencies.push(performance.now() - sent);
        inFlight.delete(p);
      });
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  elapsed = (performance.now() - start) / 1000;
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await bff.close();
  await sandbox.close();
  await rm(dataDir, { recursive: true, force: true });
}

latencies.sort((a, b) => a - b);
const answered = statuses.get(200) ?? 0;
const busy = statuses.get(503) ?? 0;
const perMinute = maxInAnyMinute(upstream.searchTimes);
const within = perMinute <= UPSTREAM_SEARCH_LIMIT;
const no429 = upstream.all429 === 0;
console.log(`  visitor searches sent          ${total} in ${elapsed.toFixed(1)} s`);
console.log(
  `  answered 200                   ${answered} (${((100 * answered) / total).toFixed(1)} %); busy 503: ${busy}; other: ${total - answered - busy}`,
);
console.log(
  `  visitor latency                p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
);
console.log(
  `  upstream searches              ${upstream.searchTimes.length} (max ${perMinute} in any 60 s window; limit ${UPSTREAM_SEARCH_LIMIT})`,
);
console.log(`  upstream 429s                  ${upstream.all429} (on search: ${upstream.search429})`);
console.log(
  `  ${no429 && within ? 'PASS' : 'FAIL'}: ${no429 ? '0' : upstream.all429} upstream 429s (must be 0), ${perMinute} upstream searches in the busiest minute (must be ≤ ${UPSTREAM_SEARCH_LIMIT})\n`,
);
if (!(no429 && within)) process.exitCode = 1;
