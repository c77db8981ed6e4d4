/**
 * The search cache: identical in-flight searches share one upstream call; answers live for the TTL; failures are
 * not cached. Deterministic: the clock is injected and upstream answers are released by hand.
 */
import { describe, expect, it, vi } from 'vitest';
import { SearchCache, normaliseQuery } from '../src/index.ts';
import { call, useFreshStubAndBff } from './helpers.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const setup = useFreshStubAndBff();

describe('normaliseQuery', () => {
  it.each([
    ['coffee', 'coffee'],
    ['  Coffee  ', 'coffee'],
    ['Coffee   Shop', 'coffee shop'],
    ['COFFEE\t\nshop', 'coffee shop'],
    // IDNA (UTS #46): a name in Unicode (composed or not, any case, full-width) and its xn-- form are one search.
    ['münchen', 'xn--mnchen-3ya'],
    ['mu\u0308nchen', 'xn--mnchen-3ya'],
    ['MÜNCHEN.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['ｍünchen', 'xn--mnchen-3ya'],
    ['café shop', 'xn--caf-dma shop'],
    // Not a host name: kept as typed (never read as a user, a path or an IPv4 address).
    ['ü@evil.example', 'ü@evil.example'],
    ['ü/x', 'ü/x'],
    ['１２３', '１２３'],
  ])('%j → %j', (input, expected) => expect(normaliseQuery(input)).toBe(expected));
});

describe('SearchCache', () => {
  it('coalesces identical loads in flight and shares a failure without caching it', async () => {
    const cache = new SearchCache<string>({ ttlMs: 30_000, maxEntries: 10, now: () => 0 });
    const gate = deferred<string>();
    let loads = 0;
    const load = () => {
      loads++;
      return gate.promise;
    };

    const first = cache.get('coffee', load);
    const second = cache.get('coffee', load);
    gate.reject(new Error('upstream down'));

    await expect(first).rejects.toThrow('upstream down');
    await expect(second).rejects.toThrow('upstream down');
    expect(loads).toBe(1);
    await expect(cache.get('coffee', async () => 'fresh')).resolves.toEqual({ value: 'fresh', source: 'upstream' });
  });

  it('drops the oldest entry beyond maxEntries', async () => {
    const cache = new SearchCache<string>({ ttlMs: 30_000, maxEntries: 2, now: () => 0 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);

    expect(cache.size).toBe(2);
    await expect(cache.get('a', async () => 'reloaded')).resolves.toEqual({ value: 'reloaded', source: 'upstream' });
    await expect(cache.get('c', async () => 'reloaded')).resolves.toEqual({ value: 'c', source: 'cache' });
  });
});

describe('the BFF search cache over HTTP', () => {
  it('sends two concurrent identical searches upstream once', async () => {
    const gate = deferred<void>();
    let entered = 0;
    // The cache reads the clock once per search as it starts: when both searches have entered, release upstream.
    const { stub, url } = await setup({
      searchCache: { ttlSeconds: 0 }, // no reuse after the answer: only coalescing can make this one call
      now: () => {
        if (++entered === 2) gate.resolve();
        return Date.now();
      },
    });
    stub.enqueue('search', async () => {
      await gate.promise;
      return {
        status: 200,
        body: {
          domains: [{ domain: 'coffeehouse.com', tld: 'com', available: true, price_cents: 250000, currency: 'USD' }],
          next_cursor: null,
        },
      };
    });

    const [a, b] = await Promise.all([call(`${url}/search?q=coffee`), call(`${url}/search?q=%20COFFEE`)]);

    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json).toEqual(b.json);
    expect(stub.callsTo('search')).toHaveLength(1);
  });

  it('reuses an answer for 6 h by default, then serves it stale while a spare token asks upstream again', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { stub, url } = await setup({ now: () => now });

    const first = await call(`${url}/search?q=coffee`);
    now += 6 * 3600_000 - 1_000;
    await call(`${url}/search?q=coffee`);
    expect(stub.callsTo('search')).toHaveLength(1);

    now += 2_000;
    const stale = await call(`${url}/search?q=coffee`);
    expect(stale.json).toEqual(first.json);
    await vi.waitFor(() => expect(stub.callsTo('search')).toHaveLength(2));
  });

  it('in process mode, searchCache keeps the same defaults: an answer is fresh for 6 h there too', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { stub, url } = await setup({ now: () => now, searchCache: { mode: 'process' } });

    await call(`${url}/search?q=coffee`);
    now += 5 * 3600 * 1000;
    const again = await call(`${url}/search?q=coffee`);

    expect(again.status).toBe(200);
    expect(stub.callsTo('search')).toHaveLength(1);
  });

  it('does not cache a failure', async () => {
    const { stub, url } = await setup();
    stub.enqueue('search', { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } });

    const failed = await call(`${url}/search?q=coffee`);
    const retried = await call(`${url}/search?q=coffee`);

    expect(failed.status).toBe(502);
    expect(retried.status).toBe(200);
    expect(stub.callsTo('search')).toHaveLength(2);
  });
});

describe('SearchCache.evict', () => {
  const settings = {
    ttlMs: 30_000,
    staleWhileRevalidateMs: 270_000,
    staleIfErrorMs: 600_000,
    maxEntries: 10,
    now: () => 0,
  };

  it('drops only the answers that match, so their next get goes upstream while the others stay cached', async () => {
    const cache = new SearchCache<string[]>(settings);
    await cache.get('coffee', async () => ['coffeehouse.com', 'coffeeshop.io']);
    await cache.get('tea', async () => ['teahouse.com']);

    expect(cache.evict((domains) => domains.includes('coffeehouse.com'))).toBe(1);

    await expect(cache.get('coffee', async () => ['coffeeshop.io'])).resolves.toEqual({
      value: ['coffeeshop.io'],
      source: 'upstream',
    });
    await expect(cache.get('tea', async () => ['never loaded'])).resolves.toEqual({
      value: ['teahouse.com'],
      source: 'cache',
    });
  });

  it('serves, but does not keep, a matching answer from a load already in flight when the eviction came', async () => {
    const cache = new SearchCache<string[]>(settings);
    const gate = deferred<string[]>();
    const first = cache.get('coffee', () => gate.promise);
    cache.evict((domains) => domains.includes('coffeehouse.com'));
    gate.resolve(['coffeehouse.com']);
    await expect(first).resolves.toEqual({ value: ['coffeehouse.com'], source: 'upstream' });

    await expect(cache.get('coffee', async () => ['coffeeshop.io'])).resolves.toEqual({
      value: ['coffeeshop.io'],
      source: 'upstream',
    });
    // An answer the eviction does not match is kept as usual.
    await expect(cache.get('coffee', async () => ['never loaded'])).resolves.toEqual({
      value: ['coffeeshop.io'],
      source: 'cache',
    });
  });
});
