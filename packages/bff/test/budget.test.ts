/**
 * The upstream budget (Partner API spec 8: 60 searches, 20 writes per minute per credential, shared by every visitor): token
 * buckets that never let more than the limit through in any 60-second window, on memory and in the database; a
 * 429's Retry-After pausing every upstream call of its class; visitors answered "busy, retry in N s", or a stale
 * answer when one is kept; stale-while-revalidate; per-visitor limits. Deterministic: clocks are injected.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MemoryBucketStore,
  SqlBucketStore,
  createUpstreamBudget,
  UpstreamBusyError,
  type BucketStore,
} from '../src/index.ts';
import {
  call,
  databaseKinds,
  openTestDatabase,
  startStubMarketplace,
  startTestBff,
  type TestDatabase,
} from './helpers.ts';

/** Sends as fast as allowed for `seconds` of simulated time; returns the send times (ms). */
async function saturate(
  store: BucketStore,
  limit: { perMinute: number; burst: number },
  seconds: number,
): Promise<number[]> {
  const sent: number[] = [];
  const start = Date.UTC(2030, 0, 1);
  for (let t = start; t < start + seconds * 1000; t += 50) {
    while ((await store.take('pk_test:search', limit, t)).ok) sent.push(t);
  }
  return sent;
}

function maxInAnyMinute(times: number[]): number {
  let max = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe('token buckets', () => {
  it.each([
    ['search', { perMinute: 60, burst: 6 }],
    ['write', { perMinute: 20, burst: 5 }],
  ])('never let more than the %s limit through in any 60-second window, and use most of it', async (_name, limit) => {
    const sent = await saturate(new MemoryBucketStore(), limit, 300);

    expect(maxInAnyMinute(sent)).toBeLessThanOrEqual(limit.perMinute);
    expect(sent.length).toBeGreaterThanOrEqual((limit.perMinute - limit.burst) * 5);
  });

  describe.each(databaseKinds())('in the database (%s)', (kind) => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await openTestDatabase(kind);
    });
    afterAll(async () => {
      await testDb?.close();
    });

    it('keep the limit across two processes sharing the table', async () => {
      const db = async () => testDb.database.db;
      const a = new SqlBucketStore(db);
      const b = new SqlBucketStore(db);
      const limit = { perMinute: 20, burst: 2 };
      const sent: number[] = [];
      const start = Date.UTC(2030, 0, 1);
      for (let t = start; t < start + 150_000; t += 250) {
        for (const store of [a, b]) if ((await store.take('pk_test:write', limit, t)).ok) sent.push(t);
      }

      expect(maxInAnyMinute(sent)).toBeLessThanOrEqual(20);
      expect(sent.length).toBeGreaterThanOrEqual(18 * 2);
    });

    it('pause for the Retry-After of a 429, for every process', async () => {
      const db = async () => testDb.database.db;
      const a = new SqlBucketStore(db);
      const b = new SqlBucketStore(db);
      const limit = { perMinute: 60, burst: 6 };
      const t = Date.UTC(2031, 0, 1);
      expect((await a.take('pk_test:pause', limit, t)).ok).toBe(true);

      await a.pause('pk_test:pause', t + 7_000);

      expect(await b.take('pk_test:pause', limit, t + 1_000)).toMatchObject({ ok: false, waitMs: 6_000 });
      expect((await b.take('pk_test:pause', limit, t + 7_100)).ok).toBe(true);
    });
  });
});

describe('createUpstreamBudget', () => {
  it('waits for a token up to maxWaitMs, then refuses with the seconds to wait', async () => {
    let now = Date.UTC(2030, 0, 1);
    const slept: number[] = [];
    const budget = createUpstreamBudget({
      store: new MemoryBucketStore(),
      namespace: 'pk_test',
      limits: { search: { perMinute: 7, burst: 1 }, write: { perMinute: 2, burst: 1 } },
      maxWaitMs: 12_000,
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    });

    await budget.acquire({ rateClass: 'search', endpoint: 'GET /x', attempt: 0 });
    await budget.acquire({ rateClass: 'search', endpoint: 'GET /x', attempt: 0 }); // waits 10 s for the refill
    const refused = await Promise.resolve(
      budget.acquire({ rateClass: 'search', endpoint: 'GET /x', attempt: 0, context: { maxWaitMs: 1_000 } }),
    ).catch((e: unknown) => e);

    expect(slept).toEqual([10_000]);
    expect(refused).toBeInstanceOf(UpstreamBusyError);
    expect(refused).toMatchObject({ rateClass: 'search', retryAfter: 10 });
  });
});

/** mulberry32: a small seeded PRNG (the same delays every run). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the log of sends', () => {
  /**
   * Sends searches as fast as the budget allows for `seconds` of simulated time, each arriving upstream after a
   * seeded delay of 0 to `maxDelayMs` and answered 50 ms later, or (past the 10 s attempt timeout) given up with
   * no answer at 10 s while it still arrives later. Returns the arrival times (ms).
   */
  async function arrivalsUnderDelays(store: BucketStore, seconds: number, maxDelayMs: number): Promise<number[]> {
    const start = Date.UTC(2030, 0, 1);
    let now = start;
    const budget = createUpstreamBudget({
      store,
      namespace: 'pk_test',
      limits: { search: { perMinute: 60, burst: 6 }, write: { perMinute: 20, burst: 5 } },
      attemptTimeoutMs: 10_000,
      now: () => now,
    });
    const random = seeded(7);
    const arrivals: number[] = [];
    const ends: Array<{ at: number; request: object; answered: boolean }> = [];
    for (; now < start + seconds * 1000; now += 100) {
      for (const end of ends.filter((e) => e.at <= now)) {
        budget.settled?.(end.request as never, { answered: end.answered });
        ends.splice(ends.indexOf(end), 1);
      }
      for (;;) {
        const request = {
          rateClass: 'search' as const,
          endpoint: 'GET /domains/search',
          attempt: 0,
          context: { maxWaitMs: 0 },
        };
        try {
          await budget.acquire(request);
        } catch {
          break; // busy: no token now
        }
        const delay = random() * maxDelayMs;
        arrivals.push(now + delay);
        ends.push(
          delay + 50 < 10_000
            ? { at: now + delay + 50, request, answered: true }
            : { at: now + 10_000, request, answered: false },
        );
      }
    }
    return arrivals.sort((a, b) => a - b);
  }

  it('keeps every 60-second window of arrivals within the limit however late attempts arrive', async () => {
    const arrivals = await arrivalsUnderDelays(new MemoryBucketStore(), 600, 15_000);

    expect(maxInAnyMinute(arrivals)).toBeLessThanOrEqual(60);
    expect(arrivals.length).toBeGreaterThanOrEqual(40 * 10); // still most of the budget
  });

  it('spends the whole budget when answers come back quickly', async () => {
    const arrivals = await arrivalsUnderDelays(new MemoryBucketStore(), 600, 200);

    expect(maxInAnyMinute(arrivals)).toBeLessThanOrEqual(60);
    expect(arrivals.length).toBeGreaterThanOrEqual(54 * 10);
  });

  describe.each(databaseKinds())('in the database (%s)', (kind) => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await openTestDatabase(kind);
    });
    afterAll(async () => {
      await testDb?.close();
    });

    it('counts the sends of every process sharing the table, and after a restart', async () => {
      const db = async () => testDb.database.db;
      const limit = { perMinute: 3, burst: 3 };
      const t = Date.UTC(2032, 0, 1);
      const a = new SqlBucketStore(db);
      const b = new SqlBucketStore(db);
      const hold = (id: string) => ({ id, untilMs: t + 70_000 });

      expect((await a.take('pk_test:sends', limit, t, 0, hold('1'))).ok).toBe(true);
      expect((await b.take('pk_test:sends', limit, t, 0, hold('2'))).ok).toBe(true);
      expect((await a.take('pk_test:sends', limit, t, 0, hold('3'))).ok).toBe(true);
      // A full bucket again 70 s later, but the three sends have no answer yet: they still count.
      expect(await b.take('pk_test:sends', limit, t + 69_000, 0, hold('4'))).toMatchObject({
        ok: false,
        waitMs: 1_000,
      });
      await a.settle('pk_test:sends', '1', t + 20_000); // answered at t - 40 s: counts until t + 20 s
      const restarted = new SqlBucketStore(db);
      expect((await restarted.take('pk_test:sends', limit, t + 69_000, 0, hold('5'))).ok).toBe(true);
      expect((await restarted.take('pk_test:sends', limit, t + 69_000, 0, hold('6'))).ok).toBe(false);
    });
  });
});

describe('the BFF in front of a budget', () => {
  it('answers a visitor 503 busy with the seconds to wait when the search budget is spent, and serves cached queries meanwhile', async () => {
    const stub = await startStubMarketplace();
    const now = Date.UTC(2030, 0, 1);
    const bff = await startTestBff(stub, {
      now: () => now,
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, maxWaitMs: 0 },
    });
    try {
      const a = await call(`${bff.url}/search?q=alpha`);
      const b = await call(`${bff.url}/search?q=beta`);
      const c = await call(`${bff.url}/search?q=gamma`);
      const again = await call(`${bff.url}/search?q=Alpha`);

      expect([a.status, b.status, again.status]).toEqual([200, 200, 200]);
      expect(c.status).toBe(503);
      expect(c.json.error).toEqual({
        code: 'busy',
        message: 'The domain search is busy right now; retry in 60 s.',
        retry_after: 60,
      });
      expect(c.headers['retry-after']).toBe('60');
      expect(stub.callsTo('search')).toHaveLength(2);
    } finally {
      await bff.close();
      await stub.close();
    }
  });

  it('honours a 429 Retry-After: no upstream search until it has passed, stale answers served meanwhile', async () => {
    const stub = await startStubMarketplace();
    let now = Date.UTC(2030, 0, 1);
    const bff = await startTestBff(stub, {
      now: () => now,
      searchCache: { ttlSeconds: 10, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 600 },
    });
    try {
      await call(`${bff.url}/search?q=coffee`);
      now += 11_000;
      stub.enqueue('search', {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'slow down' } },
        headers: { 'retry-after': '20' },
      });

      const stale = await call(`${bff.url}/search?q=coffee`); // upstream says 429: the old answer is served
      const fresh = await call(`${bff.url}/search?q=tea`); // nothing kept: busy, without asking upstream
      now += 21_000;
      const after = await call(`${bff.url}/search?q=tea`);

      expect(stale.status).toBe(200);
      expect(stale.json.query).toBe('coffee');
      expect(fresh.status).toBe(503);
      expect(fresh.json.error.retry_after).toBeGreaterThanOrEqual(19);
      expect(after.status).toBe(200);
      expect(stub.callsTo('search').map((c) => c.query)).toEqual(['q=coffee', 'q=coffee', 'q=tea']);
    } finally {
      await bff.close();
      await stub.close();
    }
  });

  it('serves a stale answer at once while one background call refreshes it', async () => {
    const stub = await startStubMarketplace();
    let now = Date.UTC(2030, 0, 1);
    const bff = await startTestBff(stub, {
      now: () => now,
      searchCache: { ttlSeconds: 30, staleWhileRevalidateSeconds: 300 },
    });
    try {
      await call(`${bff.url}/search?q=coffee`);
      now += 60_000;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      stub.enqueue('search', async () => {
        await gate;
        return { status: 200, body: { domains: [], next_cursor: null } };
      });

      const stale = await Promise.all([call(`${bff.url}/search?q=coffee`), call(`${bff.url}/search?q=coffee`)]);
      expect(stale.map((r) => r.json.results.length)).toEqual([3, 3]); // answered without waiting for upstream
      release();
      await vi.waitFor(() => expect(stub.callsTo('search')).toHaveLength(2)); // one refresh for both
      await vi.waitFor(async () => expect((await call(`${bff.url}/search?q=coffee`)).json.results).toEqual([]));
      expect(stub.callsTo('search')).toHaveLength(2);
    } finally {
      await bff.close();
      await stub.close();
    }
  });

  it('counts each visitor’s minute on the BFF’s clock (option `now`), as the budgets are counted', async () => {
    const stub = await startStubMarketplace();
    let now = Date.UTC(2030, 0, 1);
    const bff = await startTestBff(stub, { visitorLimits: { searchesPerMinute: 2 }, now: () => now });
    try {
      const statuses = [];
      for (const q of ['coffee', 'tea', 'cocoa']) statuses.push((await call(`${bff.url}/search?q=${q}`)).status);
      now += 61_000;
      const nextMinute = await call(`${bff.url}/search?q=mate`);

      expect(statuses).toEqual([200, 200, 429]);
      expect(nextMinute.status).toBe(200);
    } finally {
      await bff.close();
      await stub.close();
    }
  });

  it('limits each visitor’s searches that may spend the budget: 429 rate_limited with Retry-After after the limit, answers held in memory still served, other visitors unaffected', async () => {
    const stub = await startStubMarketplace();
    const bff = await startTestBff(stub, { visitorLimits: { searchesPerMinute: 3 }, trustProxy: 1 });
    try {
      const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
      const mine = [];
      for (const q of ['coffee', 'tea', 'cocoa', 'mate'])
        mine.push(await call(`${bff.url}/search?q=${q}`, from('203.0.113.7')));
      // Over the limit, the same visitor still gets what this process holds: it costs no token and no database.
      const held = await call(`${bff.url}/search?q=coffee`, from('203.0.113.7'));
      const other = await call(`${bff.url}/search?q=mate`, from('198.51.100.9'));

      expect(mine.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(mine[3]!.json.error).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/^Too many searches from you; retry in \d+ s\.$/),
      });
      expect(Number(mine[3]!.headers['retry-after'])).toBeGreaterThan(0);
      expect(held.status).toBe(200);
      expect(held.headers['cache-status']).toBe('domainkit-bff; hit');
      expect(other.status).toBe(200);
      expect(stub.callsTo('search').map((c) => c.query)).toEqual(['q=coffee', 'q=tea', 'q=cocoa', 'q=mate']);
    } finally {
      await bff.close();
      await stub.close();
    }
  });
});
