#!/usr/bin/env node
/**
 * `pnpm bench` (test workspace), per runtime: the BFF's cached `GET /search` against a bare route of the same runtime
 * answering a constant of the same shape (`/bare`), in the same process, on the hosts of the end-to-end suite
 * (`e2e/runtimes/hosts.ts`: packed tarballs installed outside the workspace; Express, Node http, `next start`, Hono,
 * Bun, Deno, and workerd when TEST_DATABASE_URL gives it a PostgreSQL). The marketplace is the sandbox; the search is
 * warmed once, so every measured answer is a cache hit. Visitor limits are off (all load comes from one address).
 *
 * autocannon, 32 connections, `BENCH_SECONDS` (default 3) per measurement, `BENCH_ROUNDS` (default 4) rounds of each
 * alternated, loopback. Printed per host: the mean figures and their ratio (targets: Express ≥ 0.9×, the others ≥
 * 0.8×), with the lowest and highest ratio of a single round (on a 2-core machine a round alone swings by ±0.15);
 * nothing is asserted.
 * Beside them, a second baseline (`/bare-same`, measured in the same alternation): the same runtime answering, as a
 * constant, the cached search's own answer (its body and headers, read from one search by a BFF in this process before
 * the hosts start; a new `x-request-id` each). The ratio against it is the BFF's own work; the gap between the two
 * baselines is what the runtime spends on the longer answer (the security headers, CORS and `Cache-Status` every BFF
 * answer carries, and a larger body).
 * The CPU is shared with the load generator (and, on a busy machine, with anything else): compare ratios, not
 * absolute figures. Under the answers per second, two figures say where a ratio comes from (Linux only, from `/proc`):
 * the CPU time per answer of the server (the process listening on the host's port and its children) and of the load
 * generator (this process). A longer answer costs both ends: a server that spends as much per cached search as per
 * same-answer constant does no work of its own beyond the answer's bytes. `BENCH_RUNTIMES=bun,deno` limits the hosts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createBffHandler } from '@domainkit/bff/handler';
import { startSandbox } from '@domainkit/sandbox';
import { bffOptions } from '../packaging/runtimes/options.mjs';
import { HOSTS, preparePartnerProject, startHost } from '../e2e/runtimes/hosts.ts';
import { serverCpu } from './server-cpu.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const only = process.env.BENCH_RUNTIMES?.split(',');
const databaseUrl = process.env.TEST_DATABASE_URL;
const hosts = HOSTS.filter(
  (h) => (only === undefined || only.includes(h.name)) && (h.storage === 'pglite' || databaseUrl !== undefined),
);

interface Measured {
  /** Answers per second (autocannon's mean). */
  rps: number;
  /** The server's CPU time per answer (µs), or NaN where `/proc` cannot tell. */
  serverUs: number;
  /** The load generator's (this process's) CPU time per answer (µs). */
  clientUs: number;
  bad: number;
}

async function measure(url: string, cpu: (() => number) | undefined): Promise<Measured> {
  const server0 = cpu?.() ?? Number.NaN;
  const client0 = process.cpuUsage();
  const r = await autocannon({ url, connections: 32, duration: SECONDS });
  const client = process.cpuUsage(client0);
  const server = (cpu?.() ?? Number.NaN) - server0;
  const answers = Math.max(1, r.requests.total);
  return {
    rps: r.requests.average,
    serverUs: (server * 1e6) / answers,
    clientUs: (client.user + client.system) / answers,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/**
 * The cached search's figure against a baseline's, as "how many cached searches per baseline answer": the ratio of
 * the means, and the lowest and highest of a single round's (rounds alternate, so round `i` of each ran side by side).
 */
function ratio(base: number[], cached: number[], higherIsBetter: boolean): string {
  const of = (b: number, c: number) => (higherIsBetter ? c / b : b / c);
  const each = cached.map((c, i) => of(base[i]!, c));
  return `${of(mean(base), mean(cached)).toFixed(2)}× (${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)})`;
}

/** The figures printed per host; the target is read against answers per second (the issue's figure). */
const FIGURES: readonly {
  key: 'rps' | 'serverUs' | 'clientUs';
  label: string;
  higherIsBetter: boolean;
  verdict: boolean;
  format: (x: number) => string;
}[] = [
  {
    key: 'rps',
    label: 'answers per second',
    higherIsBetter: true,
    verdict: true,
    format: (x) => `${x.toFixed(0).padStart(6)}/s`,
  },
  {
    key: 'serverUs',
    label: 'server CPU per answer',
    higherIsBetter: false,
    verdict: false,
    format: (x) => `${x.toFixed(1).padStart(6)} µs`,
  },
  {
    key: 'clientUs',
    label: "load generator's CPU per answer",
    higherIsBetter: false,
    verdict: false,
    format: (x) => `${x.toFixed(1).padStart(6)} µs`,
  },
];

/** Warms a search until it answers 200 (a fresh BFF may reset or answer busy while it opens). */
async function warmSearch(search: (url: string) => Promise<Response>, url: string): Promise<Response | undefined> {
  let warm: Response | undefined;
  for (let i = 0; i < 120 && warm?.status !== 200; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    warm = await search(url).catch(() => undefined);
  }
  return warm;
}

/** The headers a runtime sets itself, left out of the same-answer constant. */
const OWN_HEADERS = new Set([
  'date',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'x-request-id',
]);

const dataDir = await mkdtemp(join(tmpdir(), 'domainkit-bench-runtimes-'));
const [sandbox, project] = await Promise.all([
  startSandbox({ port: 0, dataDir: join(dataDir, 'sandbox'), databaseUrl: '', logger: false }),
  preparePartnerProject({ nextBuild: hosts.some((h) => h.name === 'next') }),
]);
const marketplace = {
  DK_API_BASE_URL: sandbox.url,
  DK_KEY_ID: sandbox.demo.key_id,
  DK_API_SECRET: sandbox.demo.secret,
  DK_WEBHOOK_SECRET: `whsec_bench_${'0'.repeat(16)}`,
};
// The cached search's own answer, for the second baseline: from a BFF in this process with the hosts' options.
const probe = createBffHandler(bffOptions(marketplace));
const probed = await warmSearch(
  (url) => Promise.resolve(probe.fetch(new Request(url))),
  'http://127.0.0.1/dk/search?q=coffee',
);
if (probed?.status !== 200) throw new Error(`the probe's search answered ${probed?.status}`);
const sameHeaders: Record<string, string> = {};
for (const [name, value] of probed.headers) if (!OWN_HEADERS.has(name)) sameHeaders[name] = value;
const DK_BENCH_SAME_ANSWER = JSON.stringify({ body: await probed.text(), headers: sameHeaders });
await probe.close();
console.log(
  `\nCached search vs a bare route of the same runtime (autocannon, 32 connections, ${ROUNDS}×${SECONDS} s each; ratio: mean (lowest–highest round))`,
);
const skipped = HOSTS.filter((h) => !hosts.includes(h)).map((h) => h.name);
if (skipped.length > 0) console.log(`  skipped: ${skipped.join(', ')} (BENCH_RUNTIMES, or no TEST_DATABASE_URL)`);
try {
  for (const spec of hosts) {
    const host = await startHost(project, spec.name, {
      ...marketplace,
      DK_BENCH_SAME_ANSWER,
      DK_DATABASE_URL: spec.storage === 'postgres' ? databaseUrl : undefined,
      DK_DATABASE_SCHEMA: spec.storage === 'postgres' ? `dk_bench_${spec.name}_${Date.now()}` : undefined,
    });
    try {
      const search = `${host.url}/search?q=coffee`;
      // Warm: the first search fills the cache.
      const warm = await warmSearch(fetch, search);
      if (warm?.status !== 200) throw new Error(`${spec.name}: search answered ${warm?.status}: ${host.output()}`);
      const sameUrl = `${host.bareUrl}-same`;
      const cpu = serverCpu(Number(new URL(host.url).port));
      const bare: Measured[] = [];
      const same: Measured[] = [];
      const cached: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bare.push(await measure(host.bareUrl, cpu));
        same.push(await measure(sameUrl, cpu));
        cached.push(await measure(search, cpu));
      }
      const bad = [...bare, ...same, ...cached].reduce((sum, m) => sum + m.bad, 0);
      const target = spec.name === 'express' ? 0.9 : 0.8;
      console.log(`  ${spec.title}${bad > 0 ? `  [${bad} non-2xx/errors]` : ''}`);
      for (const figure of FIGURES) {
        const of = (ms: Measured[]) => ms.map((m) => m[figure.key]);
        if (of(cached).some(Number.isNaN)) continue;
        const verdict = figure.verdict ? `, target ≥ ${target}` : '';
        console.log(
          `    ${figure.label.padEnd(34)} bare ${figure.format(mean(of(bare)))}   cached search ${figure.format(mean(of(cached)))}   ${ratio(of(bare), of(cached), figure.higherIsBetter)}${verdict}   same answer ${figure.format(mean(of(same)))}: ${ratio(of(same), of(cached), figure.higherIsBetter)}`,
        );
      }
    } finally {
      await host.stop();
    }
  }
} finally {
  await sandbox.close();
  await project.remove();
  await rm(dataDir, { recursive: true, force: true });
}
