#!/usr/bin/env node
/**
 * `pnpm bench` (test workspace), per runtime: the BFF's cached `GET /search` against a bare route of the same runtime
 * answering a constant of the same shape (`/bare`), in the same process, on the hosts of the end-to-end suite
 * (`e2e/runtimes/hosts.ts`: packed tarballs installed outside the workspace; Express, Node http, `next start`, Hono,
 * Bun, Deno, and workerd when TEST_DATABASE_URL gives it a PostgreSQL). The marketplace is the sandbox; the search is
 * warmed once, so every measured answer is a cache hit. Visitor limits are off (all load comes from one address).
 *
 * autocannon, 32 connections, `BENCH_SECONDS` (default 3) per round, two rounds of each alternated, loopback.
 * Printed per host: both figures and the ratio (targets: Express ≥ 0.9×, the others ≥ 0.8×); nothing is asserted.
 * The CPU is shared with the load generator (and, on a busy machine, with anything else): compare ratios, not
 * absolute figures. `BENCH_RUNTIMES=bun,deno` limits the hosts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startSandbox } from '@domainkit/sandbox';
import { HOSTS, preparePartnerProject, startHost } from '../e2e/runtimes/hosts.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = 2;
const only = process.env.BENCH_RUNTIMES?.split(',');
const databaseUrl = process.env.TEST_DATABASE_URL;
const hosts = HOSTS.filter(
  (h) => (only === undefined || only.includes(h.name)) && (h.storage === 'pglite' || databaseUrl !== undefined),
);

async function rps(url: string): Promise<{ rps: number; bad: number }> {
  const r = await autocannon({ url, connections: 32, duration: SECONDS });
  return { rps: r.requests.average, bad: r.non2xx + r.errors + r.timeouts };
}

const dataDir = await mkdtemp(join(tmpdir(), 'domainkit-bench-runtimes-'));
const [sandbox, project] = await Promise.all([
  startSandbox({ port: 0, dataDir: join(dataDir, 'sandbox'), databaseUrl: '', logger: false }),
  preparePartnerProject({ nextBuild: hosts.some((h) => h.name === 'next') }),
]);
console.log(
  `\nCached search vs a bare route of the same runtime (autocannon, 32 connections, ${ROUNDS}×${SECONDS} s each)`,
);
const skipped = HOSTS.filter((h) => !hosts.includes(h)).map((h) => h.name);
if (skipped.length > 0) console.log(`  skipped: ${skipped.join(', ')} (BENCH_RUNTIMES, or no TEST_DATABASE_URL)`);
try {
  for (const spec of hosts) {
    const host = await startHost(project, spec.name, {
      DK_API_BASE_URL: sandbox.url,
      DK_KEY_ID: sandbox.demo.key_id,
      DK_API_SECRET: sandbox.demo.secret,
      DK_WEBHOOK_SECRET: `whsec_bench_${'0'.repeat(16)}`,
      DK_DATABASE_URL: spec.storage === 'postgres' ? databaseUrl : undefined,
      DK_DATABASE_SCHEMA: spec.storage === 'postgres' ? `dk_bench_${spec.name}_${Date.now()}` : undefined,
    });
    try {
      const search = `${host.url}/search?q=coffee`;
      // Warm: the first search fills the cache (a fresh BFF may reset or answer busy while it opens).
      let warm: Response | undefined;
      for (let i = 0; i < 120 && warm?.status !== 200; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
        warm = await fetch(search).catch(() => undefined);
      }
      if (warm?.status !== 200) throw new Error(`${spec.name}: search answered ${warm?.status}: ${host.output()}`);
      const bare: number[] = [];
      const cached: number[] = [];
      let bad = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const b = await rps(host.bareUrl);
        const c = await rps(search);
        bare.push(b.rps);
        cached.push(c.rps);
        bad += b.bad + c.bad;
      }
      const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
      const ratio = mean(cached) / mean(bare);
      const target = spec.name === 'express' ? 0.9 : 0.8;
      console.log(
        `  ${spec.title.padEnd(44)} bare ${mean(bare).toFixed(0).padStart(6)} req/s   cached search ${mean(cached).toFixed(0).padStart(6)} req/s   ${ratio.toFixed(2)}× (target ≥ ${target})${bad > 0 ? `  [${bad} non-2xx/errors]` : ''}`,
      );
    } finally {
      await host.stop();
    }
  }
} finally {
  await sandbox.close();
  await project.remove();
  await rm(dataDir, { recursive: true, force: true });
}
