/**
 * `GET /siblings?q=`: the visitor's word under other TLDs through the Public API (`POST /api/domain/search`,
 * anonymous, unsigned), in the widget's shape; cached by label with stale-while-revalidate and stale-if-error,
 * identical calls in flight coalesced; bad input refused before anything goes upstream; upstream failures mapped
 * to the BFF's safe answers; `siblings: false` turns the route off.
 */
import { describe, expect, it, vi } from 'vitest';
import { UPSTREAM_ERROR_MESSAGE } from '../src/index.ts';
import { call, type Answer, useFreshStubAndBff, useStubAndBff } from './helpers.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/** What the stub answers for `coffee` (see PUBLIC_TLDS): registered names and the 9th buyable one left out. */
const COFFEE_SIBLINGS = [
  {
    domain: 'coffee.net',
    tld: 'net',
    status: 'for_sale',
    available: true,
    price_cents: null,
    currency: null,
    kind: 'listing',
  },
  {
    domain: 'coffee.org',
    tld: 'org',
    status: 'available',
    available: true,
    price_cents: 1099,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.io',
    tld: 'io',
    status: 'available',
    available: true,
    price_cents: 3900,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.ai',
    tld: 'ai',
    status: 'available',
    available: true,
    price_cents: 16000,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.dev',
    tld: 'dev',
    status: 'for_sale',
    available: true,
    price_cents: null,
    currency: null,
    kind: 'listing',
  },
  {
    domain: 'coffee.app',
    tld: 'app',
    status: 'available',
    available: true,
    price_cents: 1400,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.xyz',
    tld: 'xyz',
    status: 'available',
    available: true,
    price_cents: 200,
    currency: 'USD',
    kind: 'registration',
  },
  {
    domain: 'coffee.shop',
    tld: 'shop',
    status: 'available',
    available: true,
    price_cents: 2900,
    currency: 'USD',
    kind: 'registration',
  },
];

const upstreamError = (status: number, code: string, message: string, headers: Record<string, string> = {}) => ({
  status,
  body: { error: { code, message, request_id: `req_${code}` } },
  headers,
});

describe('GET /siblings', () => {
  const suite = useStubAndBff();

  it('answers the buyable siblings, most popular first, at most 8, asking the Public API anonymously', async () => {
    const res = await call(`${suite.bff.url}/siblings?q=%20Coffee%20`);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json).toEqual({ query: 'coffee', siblings: COFFEE_SIBLINGS });
    const upstream = suite.stub.callsTo('public-search');
    expect(upstream).toHaveLength(1);
    expect(upstream[0]).toMatchObject({ method: 'POST', path: '/api/domain/search' });
    expect(JSON.parse(upstream[0]!.body)).toEqual({ q: 'coffee' });
    // Unsigned and anonymous: no credential, signature or token goes to the Public API.
    expect(Object.keys(upstream[0]!.headers).filter((h) => /^x-service-|^authorization$/i.test(h))).toEqual([]);
  });

  it('looks a typed domain up by its label (from the cache) and leaves that very domain out', async () => {
    const before = suite.stub.callsTo('public-search').length;

    const res = await call(`${suite.bff.url}/siblings?q=COFFEE.io`);

    expect(res.status).toBe(200);
    expect(res.json.query).toBe('coffee.io');
    expect(res.json.siblings.map((s: { domain: string }) => s.domain)).toEqual([
      'coffee.net',
      'coffee.org',
      'coffee.ai',
      'coffee.dev',
      'coffee.app',
      'coffee.xyz',
      'coffee.shop',
      'coffee.store',
    ]);
    expect(suite.stub.callsTo('public-search').length - before).toBe(0);
  });

  it('says where the very domain typed stands (taken, for sale, unregistered), and nothing for a bare word', async () => {
    const standing = async (q: string) => (await call(`${suite.bff.url}/siblings?q=${encodeURIComponent(q)}`)).json;

    expect((await standing('coffee.com')).domain).toEqual({ domain: 'coffee.com', status: 'registered' });
    expect((await standing('www.Coffee.net')).domain).toEqual({ domain: 'coffee.net', status: 'for_sale' });
    expect((await standing('coffee.org')).domain).toEqual({ domain: 'coffee.org', status: 'available' });
    // A TLD the Public API does not list: no standing to tell (null), never a guess.
    expect((await standing('coffee.zz')).domain).toBeNull();
    expect(await standing('coffee')).not.toHaveProperty('domain');
    expect(await standing('coffee shop')).not.toHaveProperty('domain');
  });

  it('joins the words of a phrase into one label', async () => {
    const res = await call(`${suite.bff.url}/siblings?q=Coffee%20%20Shop`);

    expect(res.status).toBe(200);
    expect(res.json.query).toBe('coffee shop');
    expect(res.json.siblings[0]).toEqual({
      domain: 'coffeeshop.net',
      tld: 'net',
      status: 'for_sale',
      available: true,
      price_cents: null,
      currency: null,
      kind: 'listing',
    });
    expect(JSON.parse(suite.stub.callsTo('public-search').at(-1)!.body)).toEqual({ q: 'coffeeshop' });
  });

  it('looks an internationalised word up by its A-label (IDNA, UTS #46): "café" as xn--caf-dma', async () => {
    const res = await call(`${suite.bff.url}/siblings?q=${encodeURIComponent('café')}`);

    expect(res.status).toBe(200);
    expect(JSON.parse(suite.stub.callsTo('public-search').at(-1)!.body)).toEqual({ q: 'xn--caf-dma' });
    // Each sibling keeps its A-label as `domain` and names itself in Unicode for the visitor.
    const siblings = (res.json as { siblings: { domain: string; display_name?: string }[] }).siblings;
    expect(siblings.length).toBeGreaterThan(0);
    for (const sibling of siblings) {
      expect(sibling.domain).toMatch(/^xn--caf-dma\./);
      expect(sibling.display_name).toBe(sibling.domain.replace('xn--caf-dma', 'café'));
    }
  });

  it.each(['coffee_shop', '-coffee', '.io'])(
    'answers no siblings, without asking upstream, for %j (not a domain label)',
    async (q) => {
      const before = suite.stub.callsTo('public-search').length;

      const res = await call(`${suite.bff.url}/siblings?q=${encodeURIComponent(q)}`);

      expect(res.status).toBe(200);
      expect(res.json).toEqual({ query: q, siblings: [] });
      expect(suite.stub.callsTo('public-search').length).toBe(before);
    },
  );

  it.each<[string, () => Promise<Answer>, number, RegExp]>([
    [
      'missing q',
      () => call(`${suite.bff.url}/siblings`),
      400,
      /^`q` is required: a word or a domain to search for, 1–100 characters such as "coffee"\.$/,
    ],
    [
      'blank q',
      () => call(`${suite.bff.url}/siblings?q=%20%20`),
      400,
      /^`q` is empty: give a word or a domain to search for/,
    ],
    [
      '300-character q',
      () => call(`${suite.bff.url}/siblings?q=${'a'.repeat(300)}`),
      400,
      /^`q` is too long: at most 100 characters \(received 300\)\.$/,
    ],
    [
      'q given twice',
      () => call(`${suite.bff.url}/siblings?q=a&q=b`),
      400,
      /^`q` must be given once; received it 2 times\.$/,
    ],
    [
      'an unknown query parameter',
      () => call(`${suite.bff.url}/siblings?q=coffee&tld=io`),
      400,
      /^Unknown query parameter `tld`: only `q` is accepted\.$/,
    ],
    [
      'POST',
      () => call(`${suite.bff.url}/siblings?q=coffee`, { method: 'POST' }),
      405,
      /^POST is not supported here: use GET\.$/,
    ],
  ])('refuses %s with a message saying what to fix, sending nothing upstream', async (_name, send, status, message) => {
    const before = suite.stub.callsTo('public-search').length;

    const res = await send();

    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(
      status === 405 ? 'method_not_allowed' : /too long/.test(String(message)) ? 'query_too_long' : 'validation_error',
    );
    expect(res.json.error.message).toMatch(message);
    expect(suite.stub.callsTo('public-search').length).toBe(before);
  });

  it('answers an upstream 500 as 502 upstream_error with the safe message, logs the detail, and caches nothing', async () => {
    suite.stub.enqueue('public-search', upstreamError(500, 'internal_error', 'tld table locked at shard 3'));

    const failed = await call(`${suite.bff.url}/siblings?q=latte`);
    const retried = await call(`${suite.bff.url}/siblings?q=latte`);

    expect(failed.status).toBe(502);
    expect(failed.json).toEqual({ error: { code: 'upstream_error', message: UPSTREAM_ERROR_MESSAGE } });
    expect(failed.text).not.toContain('shard 3');
    const logged = suite.bff.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.upstream?.requestId === 'req_internal_error');
    expect(logged).toMatchObject({
      level: 50,
      msg: 'marketplace request failed',
      route: 'GET /bff/siblings',
      upstream: { status: 500, message: 'tld table locked at shard 3' },
    });
    expect(retried.status).toBe(200);
    expect(retried.json.siblings[0].domain).toBe('latte.net');
  });

  it('answers an upstream 429 as 503 busy with Retry-After and error.retry_after', async () => {
    suite.stub.enqueue(
      'public-search',
      upstreamError(429, 'rate_limited', 'Too many requests', { 'retry-after': '30' }),
    );

    const res = await call(`${suite.bff.url}/siblings?q=mocha`);

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json).toEqual({
      error: { code: 'busy', message: 'The domain search is busy right now; retry in 30 s.', retry_after: 30 },
    });
  });

  it('answers an upstream body of the wrong shape as 502 upstream_error', async () => {
    suite.stub.enqueue('public-search', { status: 200, body: { siblings: 'none' } });

    const res = await call(`${suite.bff.url}/siblings?q=cortado`);

    expect(res.status).toBe(502);
    expect(res.json).toEqual({ error: { code: 'upstream_error', message: UPSTREAM_ERROR_MESSAGE } });
  });
});

describe('GET /siblings caching', () => {
  const setup = useFreshStubAndBff();

  it('sends two concurrent lookups of one label upstream once', async () => {
    const bothArrived = deferred<void>();
    let arrived = 0;
    const { stub, url } = await setup({
      siblings: { ttlSeconds: 0 }, // no reuse after the answer: only coalescing can make this one call
      // Runs for each visitor request before the route: once both are in, let upstream answer.
      visitorLimits: {
        searchesPerMinute: 1000,
        keyGenerator: () => {
          if (++arrived === 2) bothArrived.resolve();
          return 'visitor';
        },
      },
    });
    const upstreamAnswer = deferred<void>();
    stub.enqueue('public-search', async () => {
      await upstreamAnswer.promise;
      return {
        status: 200,
        body: {
          query: 'espresso',
          label: 'espresso',
          domain: null,
          siblings: [
            {
              domain: 'espresso.io',
              tld: 'io',
              status: 'available',
              available: true,
              registration: { price_cents: 3900, currency: 'USD', period_years: 1 },
              listing: null,
            },
          ],
          prices_masked: true,
        },
      };
    });
    void bothArrived.promise.then(() => upstreamAnswer.resolve());

    const [a, b] = await Promise.all([call(`${url}/siblings?q=espresso`), call(`${url}/siblings?q=ESPRESSO.com`)]);

    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json.siblings).toEqual([
      {
        domain: 'espresso.io',
        tld: 'io',
        status: 'available',
        available: true,
        price_cents: 3900,
        currency: 'USD',
        kind: 'registration',
      },
    ]);
    expect(b.json.siblings).toEqual(a.json.siblings);
    expect(stub.callsTo('public-search')).toHaveLength(1);
  });

  it('reuses an answer for the TTL, serves it stale while refreshing, then stale when upstream fails', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { stub, url } = await setup({ now: () => now });

    const first = await call(`${url}/siblings?q=coffee`);
    now += 29_000;
    const cached = await call(`${url}/siblings?q=Coffee`);
    expect(cached.json).toEqual(first.json);
    expect(stub.callsTo('public-search')).toHaveLength(1);

    now += 2_000; // 31 s: stale, refreshed in the background
    const stale = await call(`${url}/siblings?q=coffee`);
    expect(stale.json).toEqual(first.json);
    await vi.waitFor(() => expect(stub.callsTo('public-search')).toHaveLength(2));

    now += 301_000; // past stale-while-revalidate: asks upstream first, which fails, so the kept answer is served
    stub.enqueue('public-search', upstreamError(503, 'internal_error', 'maintenance'));
    const kept = await call(`${url}/siblings?q=coffee`);
    expect(kept.status).toBe(200);
    expect(kept.json).toEqual(first.json);
    expect(stub.callsTo('public-search')).toHaveLength(3);
  });

  it("keeps its own freshness whatever the search cache is set to (searchCache is the search feature's)", async () => {
    let now = Date.UTC(2030, 0, 1);
    const { stub, url } = await setup({
      now: () => now,
      searchCache: { ttlSeconds: 0, staleWhileRevalidateSeconds: 0 },
    });

    await call(`${url}/siblings?q=coffee`);
    now += 29_000;
    const again = await call(`${url}/siblings?q=coffee`);

    expect(again.status).toBe(200);
    expect(stub.callsTo('public-search')).toHaveLength(1);
  });

  it('takes its cache settings from siblings: { ttlSeconds, … }', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { stub, url } = await setup({
      now: () => now,
      siblings: { ttlSeconds: 5, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 },
    });

    await call(`${url}/siblings?q=coffee`);
    now += 4_000;
    await call(`${url}/siblings?q=coffee`);
    expect(stub.callsTo('public-search')).toHaveLength(1);
    now += 2_000; // 6 s: past its own 5 s, asked again
    await call(`${url}/siblings?q=coffee`);
    expect(stub.callsTo('public-search')).toHaveLength(2);
  });

  it('is off with siblings: false (the path passes through), while search still answers', async () => {
    const { stub, url } = await setup({ siblings: false });

    const siblings = await call(`${url}/siblings?q=coffee`);
    const search = await call(`${url}/search?q=coffee`);

    expect(siblings.status).toBe(404);
    expect(siblings.json.error.code).toBe('not_found');
    expect(search.status).toBe(200);
    expect(stub.callsTo('public-search')).toHaveLength(0);
  });

  it('counts sibling lookups apart from searches in the visitor limits', async () => {
    const { url } = await setup({ visitorLimits: { searchesPerMinute: 2 } });

    const lookups = [await call(`${url}/siblings?q=coffee`), await call(`${url}/siblings?q=tea`)];
    const search = await call(`${url}/search?q=coffee`);
    const third = await call(`${url}/siblings?q=mate`);

    expect(lookups.map((r) => r.status)).toEqual([200, 200]);
    expect(search.status).toBe(200);
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('rate_limited');
  });
});
