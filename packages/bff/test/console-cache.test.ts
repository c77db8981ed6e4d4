/**
 * The console's cache and reporting budget (console/cache.ts, docs/console-api.md "Cache and budget"): in memory, and
 * in the database where every BFF process of the credential shares both. A copy stored by one process is served by
 * another; an invalidation by one drops it for all; past the budget a stale copy is served, else `busy` with the
 * seconds to wait; a read counts until a minute after its answer; a read's calls are taken all or none, and two
 * processes at the limit never both take the last one. Deterministic: clocks are injected.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleCache, MemoryConsoleReads, SqlConsoleReads } from '../src/console/index.ts';
import {
  MemoryBucketStore,
  openBffDatabase,
  SqlBucketStore,
  UpstreamBusyError,
  type BffDatabase,
} from '../src/index.ts';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers.ts';

const T0 = Date.UTC(2030, 0, 1);
const hold = (untilMs: number) => ({ id: crypto.randomUUID(), untilMs });

/** A clock the test moves. */
function clock() {
  let now = T0;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** A load that counts its calls. */
function counting<T>(value: T) {
  const load = async () => {
    load.calls += 1;
    return value;
  };
  load.calls = 0;
  return load;
}

describe('the console cache in memory', () => {
  it('serves one copy while fresh, reads again after, and counts each read a minute from its answer', async () => {
    const time = clock();
    const cache = new ConsoleCache({ freshnessMs: 60_000, perMinute: 2, now: time.now });
    const load = counting({ n: 1 });

    expect((await cache.get('a', ['orders'], 1, load)).value).toEqual({ n: 1 });
    time.advance(59_000);
    await cache.get('a', ['orders'], 1, load);
    expect(load.calls).toBe(1);

    const other = counting({ n: 2 });
    await cache.get('b', ['orders'], 1, other); // the second read of the window, answered at T0 + 59 s
    time.advance(2_000); // 'a' is stale; its read counts no more (answered at T0), 'b' still does
    await cache.get('a', ['orders'], 1, load);
    expect(load.calls).toBe(2);
    await expect(cache.get('c', ['orders'], 1, counting({}))).rejects.toBeInstanceOf(UpstreamBusyError);
  });

  it('serves the stale copy past the budget, and answers busy with the seconds to wait when there is none', async () => {
    const time = clock();
    const cache = new ConsoleCache({ freshnessMs: 1_000, perMinute: 3, now: time.now });
    const load = counting({ n: 1 });
    await cache.get('overview', ['overview'], 3, load);
    time.advance(5_000);

    const stale = await cache.get('overview', ['overview'], 3, load);
    expect([stale.value, stale.at, load.calls]).toEqual([{ n: 1 }, T0, 1]);
    const busy = await cache.get('orders', ['orders'], 1, load).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(UpstreamBusyError);
    expect((busy as UpstreamBusyError).retryAfter).toBe(55);
  });

  it('drops exactly the copies tagged with what an event changed', async () => {
    const cache = new ConsoleCache({ freshnessMs: 60_000, perMinute: 30, now: clock().now });
    const orders = counting({});
    const links = counting({});
    await cache.get('orders', ['orders'], 1, orders);
    await cache.get('links', ['links'], 1, links);
    await cache.invalidate(['orders', 'payouts']);
    await cache.get('orders', ['orders'], 1, orders);
    await cache.get('links', ['links'], 1, links);
    expect([orders.calls, links.calls]).toEqual([2, 1]);
  });

  it("a person's Refresh reads a fresh copy again within the budget; past it, the copy answers", async () => {
    const cache = new ConsoleCache({ freshnessMs: 60_000, perMinute: 2, now: clock().now });
    const load = counting({ clicks: 0 });
    await cache.get('links', ['links'], 1, load);
    await cache.get('links', ['links'], 1, load, { revalidate: true });
    expect(load.calls).toBe(2);
    const kept = await cache.get('links', ['links'], 1, load, { revalidate: true });
    expect([kept.value, load.calls]).toEqual([{ clicks: 0 }, 2]);
  });

  it('keeps counting a read that ended without an answer (it may still arrive)', async () => {
    const time = clock();
    const cache = new ConsoleCache({ freshnessMs: 0, perMinute: 1, now: time.now, attemptTimeoutMs: 10_000 });
    await expect(
      cache.get('a', ['orders'], 1, async () => {
        throw new Error('socket hang up');
      }),
    ).rejects.toThrow('socket hang up');
    time.advance(65_000); // a minute after it ended, but within its attempt timeout plus the window
    await expect(cache.get('a', ['orders'], 1, counting({}))).rejects.toBeInstanceOf(UpstreamBusyError);
    time.advance(6_000);
    expect((await cache.get('a', ['orders'], 1, counting({ ok: true }))).value).toEqual({ ok: true });
  });
});

describe('takeSends', () => {
  it('records all of a read’s sends or none', async () => {
    const store = new MemoryBucketStore();
    expect(
      await store.takeSends(
        'k:console',
        30,
        T0,
        Array.from({ length: 28 }, () => hold(T0 + 60_000)),
      ),
    ).toEqual({
      ok: true,
    });
    expect(await store.takeSends('k:console', 30, T0, [hold(T0 + 1), hold(T0 + 1), hold(T0 + 1)])).toEqual({
      ok: false,
      waitMs: 60_000,
    });
    expect((await store.takeSends('k:console', 30, T0, [hold(T0 + 1), hold(T0 + 1)])).ok).toBe(true);
  });
});

describe.each(databaseKinds())('the console cache in the database (%s)', (kind) => {
  let testDb: TestDatabase;
  /** A second process: its own pool on the same schema (PostgreSQL), or the same embedded database (PGlite). */
  let second: BffDatabase;
  let closeSecond: () => Promise<void> = async () => {};

  beforeAll(async () => {
    testDb = await openTestDatabase(kind);
    second = testDb.database;
    if (kind === 'postgres') {
      second = await openBffDatabase({ url: process.env.TEST_DATABASE_URL, schema: testDb.database.schema });
      closeSecond = () => second.close();
    }
  });
  afterAll(async () => {
    await closeSecond();
    await testDb?.close();
  });
  beforeEach(() => testDb.reset());

  /** The console cache of one process on `database`. */
  function processOn(database: BffDatabase, now: () => number, perMinute = 30) {
    const db = async () => database.db;
    return new ConsoleCache({
      freshnessMs: 60_000,
      perMinute,
      now,
      reads: new SqlConsoleReads(db, 'pk_test', { keepMs: 3_600_000, maxRows: 100 }),
      budget: { store: new SqlBucketStore(db), name: 'pk_test:console' },
    });
  }

  it('a copy read by one process is served by the other, and an invalidation by one drops it for both', async () => {
    const time = clock();
    const a = processOn(testDb.database, time.now);
    const b = processOn(second, time.now);
    const load = counting({ settlements: [{ amount_owed_cents: 1200 }] });

    const first = await a.get('settlements:{}', ['settlements'], 1, load);
    time.advance(1_000);
    const shared = await b.get('settlements:{}', ['settlements'], 1, load);
    expect([shared, load.calls]).toEqual([first, 1]);

    await b.invalidate(['settlements']);
    await a.get('settlements:{}', ['settlements'], 1, load);
    expect(load.calls).toBe(2);
  });

  it('two processes spend one budget: past it, each serves a stale copy or answers busy', async () => {
    const time = clock();
    const a = processOn(testDb.database, time.now, 4);
    const b = processOn(second, time.now, 4);
    const load = counting({});
    await a.get('overview', ['overview'], 3, load); // 3 of 4
    // b alone would have room for 2 more; together there is 1.
    await expect(b.get('links', ['links'], 2, load)).rejects.toBeInstanceOf(UpstreamBusyError);
    await b.get('orders', ['orders'], 1, load); // 4 of 4
    expect(load.calls).toBe(2);

    time.advance(61_000); // every copy is stale, and every read of T0 counts no more
    await a.get('overview', ['overview'], 3, load); // 3 of 4
    expect((await b.get('overview', ['overview'], 3, load)).at).toBe(T0 + 61_000); // a's fresh copy, no call
    expect((await b.get('orders', ['orders'], 2, load)).at).toBe(T0); // no room for 2: b's stale copy
    expect(load.calls).toBe(3);
  });

  it('while one process reads a stale copy again, the other serves that copy without a call, then the new one', async () => {
    const time = clock();
    const a = processOn(testDb.database, time.now);
    const b = processOn(second, time.now);
    await a.get('orders', ['orders'], 1, counting({ n: 1 }));
    time.advance(61_000);

    let finish: (value: { n: number }) => void = () => {};
    let started: () => void = () => {};
    const loading = new Promise<void>((resolve) => {
      started = resolve;
    });
    const refreshing = a.get('orders', ['orders'], 1, () => {
      started();
      return new Promise<{ n: number }>((resolve) => {
        finish = resolve;
      });
    });
    await loading;
    const loadB = counting({ n: 99 });
    expect(await b.get('orders', ['orders'], 1, loadB)).toEqual({ value: { n: 1 }, at: T0, tags: ['orders'] });

    finish({ n: 2 });
    expect((await refreshing).value).toEqual({ n: 2 });
    expect((await b.get('orders', ['orders'], 1, loadB)).value).toEqual({ n: 2 });
    expect(loadB.calls).toBe(0);
  });

  it('a read that failed ends its claim: the other process reads at once', async () => {
    const time = clock();
    const a = processOn(testDb.database, time.now);
    const b = processOn(second, time.now);
    await a.get('orders', ['orders'], 1, counting({ n: 1 }));
    time.advance(61_000);
    await expect(
      a.get('orders', ['orders'], 1, async () => {
        throw new Error('socket hang up');
      }),
    ).rejects.toThrow();
    const loadB = counting({ n: 2 });
    expect((await b.get('orders', ['orders'], 1, loadB)).value).toEqual({ n: 2 });
    expect(loadB.calls).toBe(1);
  });

  it('two processes at the limit never both take the last send', async () => {
    const storeA = new SqlBucketStore(async () => testDb.database.db);
    const storeB = new SqlBucketStore(async () => second.db);
    for (let round = 0; round < 10; round++) {
      const name = `pk_test:console:${round}`;
      const used = Array.from({ length: 29 }, () => hold(T0 + 60_000));
      expect((await storeA.takeSends(name, 30, T0, used)).ok).toBe(true);
      const both = await Promise.all([
        storeA.takeSends(name, 30, T0, [hold(T0 + 60_000)]),
        storeB.takeSends(name, 30, T0, [hold(T0 + 60_000)]),
      ]);
      expect(both.filter((r) => r.ok)).toHaveLength(1);
    }
    // And many at once: exactly the window's worth is taken.
    const takes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? storeA : storeB).takeSends('pk_test:console:many', 30, T0, [hold(T0 + 60_000)]),
      ),
    );
    expect(takes.filter((r) => r.ok)).toHaveLength(30);
  });

  it('keeps each credential’s copies apart', async () => {
    const db = async () => testDb.database.db;
    const mine = new SqlConsoleReads(db, 'pk_mine', { keepMs: 3_600_000, maxRows: 10 });
    const theirs = new SqlConsoleReads(db, 'pk_theirs', { keepMs: 3_600_000, maxRows: 10 });
    await mine.put('orders:{}', { value: { mine: true }, at: T0, tags: ['orders'] });
    expect(await theirs.get('orders:{}')).toBeUndefined();
    await theirs.put('orders:{}', { value: { mine: false }, at: T0, tags: ['orders'] });
    await theirs.drop(['orders']);
    expect((await mine.get('orders:{}'))?.value).toEqual({ mine: true });
  });

  it('deletes copies older than it keeps, and those beyond its newest rows', async () => {
    const reads = new SqlConsoleReads(async () => testDb.database.db, 'pk_test', { keepMs: 600_000, maxRows: 3 });
    await reads.put('old', { value: 0, at: T0, tags: [] });
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries())
      await reads.put(key, { value: i, at: T0 + 500_000 + i, tags: [] });
    await reads.put('e', { value: 5, at: T0 + 650_000, tags: [] }); // prunes: a minute since the last
    const kept = await Promise.all(['old', 'a', 'b', 'c', 'd', 'e'].map((k) => reads.get(k)));
    expect(kept.map((r) => r !== undefined)).toEqual([false, false, false, true, true, true]);
  });
});

describe('without a database', () => {
  it('keeps the copies in memory, at most maxEntries', async () => {
    const reads = new MemoryConsoleReads(2);
    for (const key of ['a', 'b', 'c']) await reads.put(key, { value: key, at: T0, tags: [] });
    expect(await Promise.all(['a', 'b', 'c'].map(async (k) => (await reads.get(k))?.value))).toEqual([
      undefined,
      'b',
      'c',
    ]);
  });
});
