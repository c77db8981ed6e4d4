/**
 * How the search budget is spent (spec 8): the demand-ordered miss queue (most demanded query first; an aborted
 * visitor takes no token; background work never takes a token while a visitor's miss waits), the listing index
 * (flagged, never a false "no results"), and answers shared by replicas (a sold domain leaves every replica).
 * Tokens are counted, never timed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemandQueue, type QueueMode, type WaitOutcome } from '../src/search/demand-queue.ts';
import {
  call,
  databaseKinds,
  openTestDatabase,
  startStubMarketplace,
  startTestBff,
  type StubMarketplace,
  type TestDatabase,
} from './helpers.ts';

/** How long a wait for an event may take on a busy machine before the test fails (a bound, not a timing). */
const WAIT = { timeout: 15_000 };

/** A queue over a bucket the test fills by hand; background takes leave one token in it, as the BFF's do. */
function queueWithBucket() {
  const bucket = { tokens: 0 };
  const loads: Array<{ key: string; mode: QueueMode }> = [];
  const takes: QueueMode[] = [];
  const queue = new DemandQueue<string>({
    async take(mode) {
      takes.push(mode);
      const need = mode === 'background' ? 2 : 1;
      if (bucket.tokens >= need) {
        bucket.tokens--;
        return { ok: true };
      }
      return { ok: false, waitMs: 5 };
    },
    async load(key, mode) {
      loads.push({ key, mode });
      return `answer to ${key}`;
    },
    tokenIntervalMs: 1, // many tokens could come within a wait: every miss is queued
  });
  return { queue, bucket, loads, takes };
}

describe('the demand-ordered miss queue', () => {
  it('gives each token to the query with the most visitors waiting', async () => {
    const { queue, bucket, loads } = queueWithBucket();
    const waits: Array<Promise<WaitOutcome<string>>> = [];
    waits.push(queue.wait('alpha', 60_000));
    for (let i = 0; i < 3; i++) waits.push(queue.wait('beta', 60_000));
    for (let i = 0; i < 2; i++) waits.push(queue.wait('gamma', 60_000));

    bucket.tokens = 1;
    await vi.waitFor(() => expect(loads).toHaveLength(1), WAIT);
    expect(loads[0]).toEqual({ key: 'beta', mode: 'foreground' });
    bucket.tokens = 1;
    await vi.waitFor(() => expect(loads).toHaveLength(2), WAIT);
    bucket.tokens = 1;
    await vi.waitFor(() => expect(loads).toHaveLength(3), WAIT);

    expect(loads.map((l) => l.key)).toEqual(['beta', 'gamma', 'alpha']);
    const outcomes = await Promise.all(waits);
    expect(outcomes.map((o) => (o.status === 'loaded' ? o.value : o.status))).toEqual([
      'answer to alpha',
      ...Array(3).fill('answer to beta'),
      ...Array(2).fill('answer to gamma'),
    ]);
    queue.close();
  });

  it('ranks queries with as many visitors waiting by how often they were asked recently', async () => {
    const { queue, bucket, loads } = queueWithBucket();
    for (let i = 0; i < 5; i++) queue.want('popular'); // asked often, answered from elsewhere meanwhile
    const rare = queue.wait('rare', 60_000);
    const popular = queue.wait('popular', 60_000);

    bucket.tokens = 1;
    await vi.waitFor(() => expect(loads).toHaveLength(1), WAIT);

    expect(loads[0]!.key).toBe('popular');
    expect(await popular).toEqual({ status: 'loaded', value: 'answer to popular' });
    bucket.tokens = 1;
    expect(await rare).toEqual({ status: 'loaded', value: 'answer to rare' });
    queue.close();
  });

  it('takes no token for a visitor that went away while waiting', async () => {
    const { queue, bucket, loads } = queueWithBucket();
    const gone = new AbortController();
    const abandoned = queue.wait('abandoned', 60_000, gone.signal);
    gone.abort();
    expect(await abandoned).toEqual({ status: 'aborted' });

    const other = queue.wait('other', 60_000);
    bucket.tokens = 3;
    expect(await other).toEqual({ status: 'loaded', value: 'answer to other' });
    await vi.waitFor(() => expect(queue.loading).toBe(0), WAIT);

    expect(loads.map((l) => l.key)).toEqual(['other']);
    expect(bucket.tokens).toBe(2); // the abandoned query left no demand for a spare token to spend either
    expect(queue.stats.aborted).toBe(1);
    queue.close();
  });

  it('never spends a token on background work while a visitor’s miss waits', async () => {
    const { queue, bucket, loads, takes } = queueWithBucket();
    for (let i = 0; i < 20; i++) queue.want('stale answer'); // in far more demand, but nobody waits for it
    await vi.waitFor(() => expect(takes).toContain('background'), WAIT);
    const miss = queue.wait('miss', 60_000);

    bucket.tokens = 1;
    expect(await miss).toEqual({ status: 'loaded', value: 'answer to miss' });
    expect(loads).toEqual([{ key: 'miss', mode: 'foreground' }]);

    // With no visitor waiting, a spare token (beyond the reserve) refreshes the stale answer.
    bucket.tokens = 2;
    await vi.waitFor(() => expect(loads).toHaveLength(2), WAIT);
    expect(loads[1]).toEqual({ key: 'stale answer', mode: 'background' });
    expect(bucket.tokens).toBe(1); // the reserve stays for visitors of other processes
    queue.close();
  });

  it('tells a miss at once when queries in more demand take every token that can come in time', async () => {
    const loads: string[] = [];
    let takes = 0;
    const queue = new DemandQueue<string>({
      take: async () => {
        takes++;
        return { ok: false, waitMs: 1_000 };
      },
      load: async (key) => {
        loads.push(key);
        return key;
      },
      tokenIntervalMs: 1_000,
    });
    const first = queue.wait('first', 1_500);
    await vi.waitFor(() => expect(takes).toBe(1), WAIT); // next token in 1 s: one more can come within 1.5 s
    void queue.wait('first', 1_500);
    expect(await queue.wait('second', 1_500)).toEqual({ status: 'declined' });
    queue.close();
    expect(await first).toEqual({ status: 'timeout' });
    expect(loads).toEqual([]);
  });

  it('tells a miss at once when the last token was just taken and the next comes after its wait', async () => {
    const loads: string[] = [];
    let tokens = 1;
    const queue = new DemandQueue<string>({
      // The bucket's last token: the next one is 1.1 s away, past a visitor's 300 ms.
      take: async () => (tokens-- > 0 ? { ok: true, nextMs: 1_100 } : { ok: false, waitMs: 1_100, nextMs: 1_100 }),
      load: async (key) => {
        loads.push(key);
        return key;
      },
      tokenIntervalMs: 1_100,
    });
    expect(await queue.wait('first', 300)).toEqual({ status: 'loaded', value: 'first' });

    expect(await queue.wait('second', 300)).toEqual({ status: 'declined' });
    expect(loads).toEqual(['first']);
    queue.close();
  });
});

describe('GET /search with a spent budget', () => {
  let stub: StubMarketplace;
  beforeEach(async () => {
    stub = await startStubMarketplace();
    return () => stub.close();
  });

  it('answers from the names seen recently, flagged "index", never in place of "no results", else busy', async () => {
    const bff = await startTestBff(stub, {
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, searchMaxWaitMs: 0 },
      now: () => Date.UTC(2030, 0, 1),
    });
    try {
      const seen = await call(`${bff.url}/search?q=coffeehouse`);
      const none = await call(`${bff.url}/search?q=zzzz`); // the second and last token: upstream has no match
      expect(seen.json.results.map((r: { domain: string }) => r.domain)).toContain('coffeehouse.com');
      expect(none.json).toEqual({ query: 'zzzz', results: [] });

      const fromIndex = await call(`${bff.url}/search?q=house`);
      const noneAgain = await call(`${bff.url}/search?q=zzzz`);
      const unknown = await call(`${bff.url}/search?q=qqqq`);

      expect(fromIndex.status).toBe(200);
      expect(fromIndex.json.source).toBe('index');
      expect(fromIndex.json.results).toContainEqual(seen.json.results[0]);
      expect(fromIndex.headers['cache-status']).toBe('domainkit-bff; fwd=miss; detail=index');
      expect(noneAgain.json).toEqual({ query: 'zzzz', results: [] }); // no results stays no results
      expect(unknown.status).toBe(503); // nothing seen matches: busy, never an empty list
      expect(unknown.json.error.code).toBe('busy');
      expect(stub.callsTo('search')).toHaveLength(2);
      expect(bff.bff.searchStats()).toMatchObject({ index: 1, busy: 1 });
    } finally {
      await bff.close();
    }
  });

  it('keeps answering "no results" for a query upstream found nothing for, even once names seen match it', async () => {
    let now = Date.UTC(2030, 0, 1);
    const bff = await startTestBff(stub, {
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, searchMaxWaitMs: 0 },
      searchCache: { ttlSeconds: 60, staleWhileRevalidateSeconds: 60, staleIfErrorSeconds: 600 },
      now: () => now,
    });
    try {
      const seen = await call(`${bff.url}/search?q=coffeehouse`); // coffeehouse.com goes into the index
      expect(seen.json.results.map((r: { domain: string }) => r.domain)).toContain('coffeehouse.com');
      stub.enqueue('search', { status: 200, body: { domains: [], next_cursor: null } });
      expect((await call(`${bff.url}/search?q=house`)).json).toEqual({ query: 'house', results: [] });
      expect((await call(`${bff.url}/search?q=house`)).json).toEqual({ query: 'house', results: [] }); // fresh

      now += 130_000; // past fresh and stale: only a new upstream answer may replace it
      await call(`${bff.url}/search?q=alpha`); // the two tokens refilled meanwhile are spent
      await call(`${bff.url}/search?q=beta`);
      const old = await call(`${bff.url}/search?q=house`);

      expect(old.status).toBe(200);
      expect(old.json).toEqual({ query: 'house', results: [] }); // never the names seen, flagged or not
      expect(stub.callsTo('search').map((c) => new URLSearchParams(c.query).get('q'))).toEqual([
        'coffeehouse',
        'house',
        'alpha',
        'beta',
      ]);
      const fromIndex = await call(`${bff.url}/search?q=coffee`); // never asked upstream: the index may answer
      expect([fromIndex.json.source, fromIndex.json.results.length > 0]).toEqual(['index', true]);
    } finally {
      await bff.close();
    }
  });

  it('takes no token for a visitor request aborted while it waited', async () => {
    let now = Date.UTC(2030, 0, 1);
    const bff = await startTestBff(stub, {
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, searchMaxWaitMs: 120_000 },
      searchCache: { index: false },
      now: () => now,
    });
    try {
      expect((await call(`${bff.url}/search?q=alpha`)).status).toBe(200);
      expect((await call(`${bff.url}/search?q=alpha2`)).status).toBe(200); // the tokens of this minute are spent
      const req = httpRequest(`${bff.url}/search?q=beta`);
      req.on('error', () => {});
      req.end();
      await vi.waitFor(() => expect(bff.bff.searchStats().waiting).toBe(1), WAIT);
      req.destroy(); // the visitor goes away
      await vi.waitFor(() => expect(bff.bff.searchStats().aborted).toBe(1), WAIT);

      now += 120_000; // two tokens are due: one for gamma, none taken for beta
      const after = await call(`${bff.url}/search?q=gamma`);

      expect(after.status).toBe(200);
      expect(bff.bff.searchStats()).toMatchObject({ foregroundLoads: 3, backgroundLoads: 0, waiting: 0 });
      expect(stub.callsTo('search').map((c) => new URLSearchParams(c.query).get('q'))).toEqual([
        'alpha',
        'alpha2',
        'gamma',
      ]);
    } finally {
      await bff.close();
    }
  });
});

describe('search answers kept in the data folder', () => {
  it('a restarted BFF answers at once from the answers and the budget it kept', async () => {
    const stub = await startStubMarketplace();
    const dataDir = mkdtempSync(join(tmpdir(), 'dk-bff-search-'));
    const options = {
      database: { dataDir },
      background: { enabled: false },
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, searchMaxWaitMs: 0 },
    };
    try {
      const first = await startTestBff(stub, options);
      const fetched = await call(`${first.url}/search?q=coffeehouse`);
      await call(`${first.url}/search?q=tea`); // the last token of the burst
      await first.close();

      const second = await startTestBff(stub, options);
      try {
        await second.bff.ready;
        await vi.waitFor(
          async () => expect((await call(`${second.url}/search?q=coffeehouse`)).json).toEqual(fetched.json),
          WAIT,
        );
        const spent = await call(`${second.url}/search?q=zzzz`); // no token after the restart: the bucket was kept
        expect(spent.status).toBe(503);
        expect(stub.callsTo('search')).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await stub.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000); // two PGlite opens of a data folder: slow on a busy machine
});

describe.each(databaseKinds().filter((k) => k === 'postgres'))('search answers shared by replicas on %s', (kind) => {
  let testDb: TestDatabase;
  let stub: StubMarketplace;
  beforeAll(async () => {
    testDb = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await testDb?.close();
  });
  beforeEach(async () => {
    await testDb.reset();
    stub = await startStubMarketplace();
    return () => stub.close();
  });

  it('one replica answers from what another fetched, and a sold domain leaves every replica', async () => {
    const frozen = Date.now();
    const options = { database: testDb.database, background: { enabled: false }, now: () => frozen };
    const a = await startTestBff(stub, options);
    const b = await startTestBff(stub, options);
    try {
      const fetched = await call(`${a.url}/search?q=coffeehouse`);
      const shared = await call(`${b.url}/search?q=coffeehouse`);
      expect(shared.json).toEqual(fetched.json);
      expect(stub.callsTo('search')).toHaveLength(1); // b answered from a's answer
      await call(`${b.url}/search?q=coffeehouse`); // now in b's memory too

      stub.enqueue('domain', {
        status: 200,
        body: {
          domain: 'coffeehouse.com',
          tld: 'com',
          available: false,
          price_cents: 250000,
          currency: 'USD',
          words: ['coffee', 'house'],
          listed_at: '2025-01-02T03:04:05Z',
          status: 'sold',
        },
      });
      expect((await call(`${a.url}/domains/coffeehouse.com`)).json.available).toBe(false); // a learns it is sold
      stub.enqueue('search', {
        status: 200,
        body: {
          domains: [{ domain: 'coffeehouse.com', tld: 'com', available: false, price_cents: 250000, currency: 'USD' }],
          next_cursor: null,
        },
      });
      await vi.waitFor(async () => {
        await b.bff.syncSearch(); // b reads the eviction (it does every second by itself)
        const again = await call(`${b.url}/search?q=coffeehouse`);
        expect(again.json.results).toEqual([
          { domain: 'coffeehouse.com', available: false, price_cents: 250000, currency: 'USD' },
        ]);
      }, WAIT);
      expect(stub.callsTo('search')).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
