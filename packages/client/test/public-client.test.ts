/**
 * PublicClient against a mock marketplace (undici MockAgent, network disabled): every endpoint's request, masked
 * and real prices, batches chunked at 20, listings as an async iterator over `page.next_cursor`, bulk chunked at
 * 1,000, errors and retries, and a 401 `invalid_token` handed to the token source once.
 */
import { MockAgent } from 'undici';
import type { MockInterceptor } from 'undici/types/mock-interceptor.js';
import { describe, expect, it } from 'vitest';
import { MarketplaceError, MarketplaceValidationError, PublicClient, type AccessTokenSource } from '../src/index.ts';

const ORIGIN = 'https://marketplace.test';

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  body: any;
}

function lower(headers: MockInterceptor.MockResponseCallbackOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers ?? {});
  for (const [k, v] of entries) out[k.toLowerCase()] = String(v);
  return out;
}

/** A mock marketplace whose handler answers every request and records it. */
function mock(handler: (req: Seen) => { status?: number; body: unknown; headers?: Record<string, string> }) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const seen: Seen[] = [];
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((opts) => {
      const req = {
        method: opts.method,
        path: opts.path,
        headers: lower(opts.headers),
        body: typeof opts.body === 'string' ? JSON.parse(opts.body) : undefined,
      };
      seen.push(req);
      const answer = handler(req);
      return {
        statusCode: answer.status ?? 200,
        data: JSON.stringify(answer.body),
        responseOptions: { headers: { 'content-type': 'application/json', ...answer.headers } },
      };
    })
    .persist();
  const sleeps: number[] = [];
  const client = (accessToken?: string | AccessTokenSource) =>
    new PublicClient({
      baseUrl: `${ORIGIN}/`,
      dispatcher: agent,
      accessToken,
      sleep: async (ms) => void sleeps.push(ms),
    });
  return { agent, seen, sleeps, client };
}

const result = (domain: string, price: number | null) => ({
  domain,
  tld: domain.split('.')[1],
  status: 'for_sale',
  available: true,
  registration: null,
  listing: { price_cents: price, currency: 'USD', price_masked: price === null },
});

describe('PublicClient', () => {
  it('searches anonymously (no Authorization header) and reads masked prices', async () => {
    const m = mock(() => ({
      body: {
        query: 'coffee.io',
        label: 'coffee',
        domain: result('coffee.io', null),
        siblings: [result('coffee.com', null)],
        prices_masked: true,
        extra: 'kept',
      },
    }));
    const answer = await m.client().searchDomain('coffee.io');
    expect(m.seen[0]).toMatchObject({ method: 'POST', path: '/api/domain/search', body: { q: 'coffee.io' } });
    expect(m.seen[0]!.headers.authorization).toBeUndefined();
    expect(answer.domain?.listing?.price_cents).toBeNull();
    expect(answer.siblings).toHaveLength(1);
  });

  it('sends the access token as a Bearer header and reads real prices', async () => {
    const m = mock(() => ({
      body: {
        query: 'coffee.io',
        label: 'coffee',
        domain: result('coffee.io', 250000),
        siblings: [],
        prices_masked: false,
      },
    }));
    const answer = await m.client('dka_token').searchDomain('coffee.io');
    expect(m.seen[0]!.headers.authorization).toBe('Bearer dka_token');
    expect(answer.domain?.listing?.price_cents).toBe(250000);
  });

  it('calls WHOIS, TLD pricing and TLD metadata with the right method, path and query', async () => {
    const m = mock((req) => {
      if (req.path.startsWith('/api/tools/whois'))
        return {
          body: {
            domain: 'a.io',
            registered: false,
            status: [],
            registrar: null,
            registrant: null,
            dates: { registered: null, updated: null, expires: null },
            nameservers: [],
          },
        };
      if (req.path.startsWith('/api/pricing/tld'))
        return { body: { tld: 'ai', op: 'renew', price_cents: 7999, currency: 'USD', period_years: 2 } };
      return {
        body: { tld: 'ai', term: { min_years: 2, max_years: 10 }, organization: {}, nameservers: { min: 2, max: 13 } },
      };
    });
    const client = m.client();
    expect((await client.whois('a.io')).registered).toBe(false);
    expect((await client.tldPrice('ai', 'renew')).price_cents).toBe(7999);
    expect((await client.tldMetadata('.ai')).term.min_years).toBe(2);
    expect(m.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /api/tools/whois',
      'GET /api/pricing/tld?tld=ai&op=renew',
      'GET /api/tlds/ai/metadata',
    ]);
    expect(m.seen[0]!.body).toEqual({ domain: 'a.io' });
  });

  it('chunks a batch of 45 operations into requests of 20, 20 and 5, and returns results in the order given', async () => {
    const m = mock((req) => ({
      body: {
        results: [...(req.body.operations as Array<{ id: string; op: string }>)]
          .reverse()
          .map((o) => ({ id: o.id, op: o.op, ok: o.id !== 'op7', status: 200, result: {} })),
      },
    }));
    const operations = Array.from({ length: 45 }, (_, i) => ({
      id: `op${i}`,
      op: 'tld_registration_price',
      params: { tld: 'com' },
    }));
    const results = await m.client().batch(operations);
    expect(m.seen.map((s) => s.body.operations.length)).toEqual([20, 20, 5]);
    expect(m.seen[1]!.body.operations[0].id).toBe('op20');
    expect(results.map((r) => r.id)).toEqual(operations.map((o) => o.id));
    expect(results[7]!.ok).toBe(false);
  });

  it('refuses duplicate batch ids and a blank search before sending anything', async () => {
    const m = mock(() => ({ body: { results: [] } }));
    await expect(
      m.client().batch([
        { id: 'a', op: 'search_domain' },
        { id: 'a', op: 'whois_lookup' },
      ]),
    ).rejects.toBeInstanceOf(MarketplaceValidationError);
    await expect(m.client().searchDomain('  ')).rejects.toBeInstanceOf(MarketplaceValidationError);
    expect(m.seen).toHaveLength(0);
  });

  it('iterates listings lazily through page.next_cursor, keeping the filter', async () => {
    const pages: Record<string, { listings: Array<{ domain: string }>; page: { next_cursor: string | null } }> = {
      '': { listings: [{ domain: 'a.io' }, { domain: 'b.io' }], page: { next_cursor: 'c1' } },
      c1: { listings: [{ domain: 'c.io' }], page: { next_cursor: 'c2' } },
      c2: { listings: [{ domain: 'd.io' }], page: { next_cursor: null } },
    };
    const m = mock((req) => ({ body: pages[new URL(req.path, ORIGIN).searchParams.get('cursor') ?? '']! }));
    const names: string[] = [];
    for await (const listing of m.client().listings({ tld: 'io', pageSize: 2 })) names.push(listing.domain);
    expect(names).toEqual(['a.io', 'b.io', 'c.io', 'd.io']);
    expect(m.seen.map((s) => s.path)).toEqual([
      '/api/market/listings?tld=io&limit=2',
      '/api/market/listings?tld=io&limit=2&cursor=c1',
      '/api/market/listings?tld=io&limit=2&cursor=c2',
    ]);
    const first = await m.client().listingsPage({ offset: 40, limit: 10 });
    expect(first.listings).toHaveLength(2);
    expect(m.seen.at(-1)!.path).toBe('/api/market/listings?limit=10&offset=40');
  });

  it('chunks bulk operations at 1,000 domains and merges the per-domain results', async () => {
    const m = mock((req) => ({
      body: { op: 'lock', results: req.body.domains.map((d: string) => ({ domain: d, ok: d.startsWith('mine') })) },
    }));
    const domains = Array.from({ length: 1500 }, (_, i) => (i % 3 === 0 ? `mine${i}.com` : `other${i}.com`));
    const answer = await m.client('dka_t').bulk('lock', domains);
    expect(m.seen.map((s) => s.body.domains.length)).toEqual([1000, 500]);
    expect(m.seen[0]!.path).toBe('/api/domains/bulk/lock');
    expect(answer.results.map((r) => r.domain)).toEqual(domains);
    expect(answer.summary).toEqual({ requested: 1500, succeeded: 500, failed: 1000 });
  });

  it('raises a MarketplaceError with the code, message and request id of an error answer', async () => {
    const m = mock(() => ({
      status: 400,
      body: { error: { code: 'validation_error', message: 'q must not be blank', request_id: 'req_1' } },
    }));
    const error = await m
      .client()
      .searchDomain('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: 'q must not be blank',
      requestId: 'req_1',
    });
  });

  it('waits Retry-After seconds after a 429 and tries again', async () => {
    let calls = 0;
    const m = mock(() =>
      ++calls === 1
        ? {
            status: 429,
            body: { error: { code: 'rate_limited', message: 'slow down', request_id: 'r' } },
            headers: { 'retry-after': '3' },
          }
        : { body: { tld: 'com', op: 'register', price_cents: 1099, currency: 'USD' } },
    );
    expect((await m.client().tldPrice('com')).price_cents).toBe(1099);
    expect(m.sleeps).toEqual([3000]);
  });

  it('hands a 401 invalid_token to the token source once, then retries with the new token; a second 401 is raised', async () => {
    let current = 'dka_old';
    const source: AccessTokenSource = {
      getAccessToken: async () => current,
      handleInvalidToken: async () => {
        current = 'dka_new';
        return true;
      },
    };
    const m = mock((req) =>
      req.headers.authorization === 'Bearer dka_new'
        ? { body: { query: 'a.io', label: 'a', domain: null, siblings: [], prices_masked: false } }
        : {
            status: 401,
            body: { error: { code: 'invalid_token', message: 'expired', request_id: 'r' } },
            headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
          },
    );
    expect((await m.client(source).searchDomain('a')).prices_masked).toBe(false);
    expect(m.seen.map((s) => s.headers.authorization)).toEqual(['Bearer dka_old', 'Bearer dka_new']);

    const stuck = mock(() => ({
      status: 401,
      body: { error: { code: 'invalid_token', message: 'revoked', request_id: 'r' } },
    }));
    const error = await stuck
      .client({ getAccessToken: async () => 'dka_x', handleInvalidToken: async () => true })
      .searchDomain('a')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'invalid_token' });
    expect(stuck.seen).toHaveLength(2);
  });

  it('shares the Partner client’s retry rules: jittered back-off on a 5xx read, no retry of a bulk write', async () => {
    const m = mock(() => ({
      status: 503,
      body: { error: { code: 'internal_error', message: 'down', request_id: 'r' } },
    }));
    const sleeps: number[] = [];
    const client = new PublicClient({
      baseUrl: ORIGIN,
      dispatcher: m.agent,
      maxRetries: 2,
      initialRetryDelayMs: 200,
      random: () => 0.5,
      sleep: async (ms) => void sleeps.push(ms),
    });
    await expect(client.tldMetadata('io')).rejects.toMatchObject({ status: 503 });
    expect(m.seen.map((s) => s.path)).toEqual(Array(3).fill('/api/tlds/io/metadata'));
    expect(sleeps).toEqual([100, 200]);

    await expect(client.bulk('lock', ['a.com'])).rejects.toMatchObject({ status: 503 });
    expect(m.seen).toHaveLength(4);
  });

  it('stops a call when its AbortSignal aborts, sending nothing once aborted', async () => {
    const m = mock(() => ({ body: { tld: 'com', op: 'register', price_cents: 1099, currency: 'USD' } }));
    const controller = new AbortController();
    controller.abort(new Error('visitor left'));
    await expect(m.client().tldPrice('com', 'register', { signal: controller.signal })).rejects.toThrow('visitor left');
    expect(m.seen).toHaveLength(0);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new PublicClient({ baseUrl: 'ftp://x' })).toThrow(/http\(s\)/);
  });
});
