/**
 * The unsigned Public API (Public API spec 4.2) as an anonymous caller sees it: domain search with alternate-TLD siblings and
 * masked marketplace prices, WHOIS, TLD pricing and metadata, aftermarket listings (cursor paging stable under
 * concurrent inserts, offset paging), batching (21 operations → 400), bad input → 400 with a message, rate limits
 * (429 + Retry-After), and every answer of this file checked against the served openapi.json.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import { TLDS } from '../src/inventory/tlds.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';
import { call, checkAgainstOpenApi, checkRecordedAnswers } from './public-api-helpers.ts';

let t: TestSandbox;
const inventory = generateInventory({ environment: 'SANDBOX' });
const listed = inventory.find((d) => d.words.length === 1 && d.tld === 'com') ?? inventory[0]!;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t?.stop());
// Each test starts in a fresh rate-limit window (the limits have their own test below).
beforeEach(() => t.clock.advance(60));

describe('POST /api/domain/search', () => {
  it('answers a listed domain as for sale with its price masked for an anonymous caller', async () => {
    const answer = await call(t, { path: '/api/domain/search', json: { q: listed.name } });
    expect(answer.status).toBe(200);
    expect(answer.json.query).toBe(listed.name);
    expect(answer.json.label).toBe(listed.label);
    expect(answer.json.prices_masked).toBe(true);
    expect(answer.json.domain).toEqual({
      domain: listed.name,
      tld: 'com',
      status: 'for_sale',
      available: true,
      registration: null,
      listing: { price_cents: null, currency: 'USD', price_masked: true },
    });
    expect(answer.text).not.toContain(String(listed.price_cents));
  });

  it('lists the same label under every other known TLD, most popular first, each with an availability', async () => {
    const answer = await call(t, { path: '/api/domain/search', json: { q: listed.name } });
    const siblings = answer.json.siblings as Array<{
      domain: string;
      tld: string;
      status: string;
      available: boolean;
      registration: unknown;
    }>;
    expect(siblings.map((s) => s.tld)).toEqual(TLDS.map((x) => x.tld).filter((x) => x !== 'com'));
    for (const s of siblings) {
      expect(s.domain).toBe(`${listed.label}.${s.tld}`);
      expect(['available', 'for_sale', 'registered']).toContain(s.status);
      expect(s.available).toBe(s.status !== 'registered');
      if (s.status === 'available')
        expect(s.registration).toMatchObject({ currency: 'USD', price_cents: expect.any(Number) });
    }
  });

  it('takes a bare label (no exact domain, siblings under every TLD), case- and space-insensitively', async () => {
    const answer = await call(t, { path: '/api/domain/search', json: { q: `  ${listed.label.toUpperCase()} ` } });
    expect(answer.status).toBe(200);
    expect(answer.json.domain).toBeNull();
    expect(answer.json.label).toBe(listed.label);
    expect(answer.json.siblings).toHaveLength(TLDS.length);
  });

  it('offers an unusual label for registration at the TLD price', async () => {
    const answer = await call(t, { path: '/api/domain/search', json: { q: 'zq7-unlikely-label-42.io' } });
    expect(answer.json.domain).toEqual({
      domain: 'zq7-unlikely-label-42.io',
      tld: 'io',
      status: 'available',
      available: true,
      registration: { price_cents: 3999, currency: 'USD', period_years: 1 },
      listing: null,
    });
  });

  it('answers the same question the same way (deterministic)', async () => {
    const a = await call(t, { path: '/api/domain/search', json: { q: 'harbor' } });
    const b = await call(t, { path: '/api/domain/search', json: { q: 'harbor' } });
    expect(a.json).toEqual(b.json);
  });

  it.each([
    [{}, /q is required/],
    [{ q: '' }, /q must not be blank/],
    [{ q: 'coffee house' }, /q must be a label/],
    [{ q: 'coffee.zzz' }, /\.zzz is not a TLD this service knows/],
    [{ q: 42 }, /q is required/],
    [[1, 2], /Invalid search request/],
  ])('refuses %j with a 400 that says what to fix', async (body, message) => {
    const answer = await call(t, { path: '/api/domain/search', json: body });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('validation_error');
    expect(answer.json.error.message).toMatch(message);
    expect(answer.json.error.request_id).toMatch(/^req_/);
  });

  it('refuses a body that is not JSON, and malformed JSON, with a 400', async () => {
    const form = await call(t, {
      path: '/api/domain/search',
      body: 'q=coffee',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.json.error.message).toMatch(/Content-Type: application\/json/);
    const broken = await call(t, {
      path: '/api/domain/search',
      body: '{"q": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.message).toMatch(/not valid JSON/);
  });

  it('answers an unknown Bearer token with 401 invalid_token, never a silent fallback to masked prices', async () => {
    const answer = await call(t, {
      path: '/api/domain/search',
      json: { q: listed.name },
      token: 'dka_not-a-real-token',
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(answer.headers.get('www-authenticate')).toContain(
      `resource_metadata="${t.sandbox.url}/.well-known/oauth-protected-resource"`,
    );
    expect(answer.json.error.code).toBe('invalid_token');
    const basic = await call(t, {
      path: '/api/domain/search',
      json: { q: listed.name },
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(400);
    expect(basic.json.error.code).toBe('invalid_request');
  });
});

describe('POST /api/tools/whois', () => {
  it('answers a registered domain with registrar, registrant, dates and nameservers, the same every time', async () => {
    const a = await call(t, { path: '/api/tools/whois', json: { domain: listed.name } });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ domain: listed.name, registered: true, source: 'sandbox' });
    expect(a.json.registrar.name).toMatch(/Registrar/);
    expect(a.json.registrant.name).toBe('REDACTED FOR PRIVACY');
    expect(a.json.nameservers.length).toBeGreaterThanOrEqual(2);
    expect(Date.parse(a.json.dates.registered)).toBeLessThan(Date.parse(a.json.dates.expires));
    const b = await call(t, { path: '/api/tools/whois', json: { domain: listed.name.toUpperCase() } });
    expect(b.json).toEqual(a.json);
  });

  it('answers an unregistered domain with registered: false and empty fields', async () => {
    const answer = await call(t, { path: '/api/tools/whois', json: { domain: 'zq7-unlikely-label-42.io' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      registered: false,
      registrar: null,
      registrant: null,
      nameservers: [],
      dates: { registered: null, updated: null, expires: null },
    });
  });

  it('answers the live-site scenario name as registered, in search and WHOIS alike', async () => {
    const search = await call(t, { path: '/api/domain/search', json: { q: 'live-site.com' } });
    expect(search.json.domain).toMatchObject({ domain: 'live-site.com', status: 'registered', available: false });
    const whois = await call(t, { path: '/api/tools/whois', json: { domain: 'live-site.com' } });
    expect(whois.json).toMatchObject({ registered: true, registrar: { name: expect.any(String) } });
  });

  it.each([
    [{}, /domain/],
    [{ domain: 'not a domain' }, /must be a domain name/],
    [{ domain: 'coffee.zzz' }, /\.zzz is not a TLD/],
    [{ domain: 'www.coffee.com' }, /second-level domain/],
  ])('refuses %j with a 400', async (body, message) => {
    const answer = await call(t, { path: '/api/tools/whois', json: body });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(message);
  });
});

describe('GET /api/pricing/tld and GET /api/tlds/{tld}/metadata', () => {
  it('prices each operation in USD cents, register by default, over the minimum term', async () => {
    const prices: Record<string, number> = {};
    for (const op of ['register', 'renew', 'transfer', 'restore']) {
      const answer = await call(t, { path: `/api/pricing/tld?tld=com&op=${op}` });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ tld: 'com', op, currency: 'USD' });
      prices[op] = answer.json.price_cents;
    }
    expect(prices).toEqual({ register: 1099, renew: 1099, transfer: 1099, restore: 8000 });
    const byDefault = await call(t, { path: '/api/pricing/tld?tld=.AI' });
    expect(byDefault.json).toEqual({ tld: 'ai', op: 'register', price_cents: 15998, currency: 'USD', period_years: 2 });
  });

  it('refuses a missing tld or an unknown operation with 400, and answers 404 for a TLD it does not know', async () => {
    const missing = await call(t, { path: '/api/pricing/tld?op=renew' });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/tld is required/);
    const badOp = await call(t, { path: '/api/pricing/tld?tld=com&op=buy' });
    expect(badOp.status).toBe(400);
    expect(badOp.json.error.message).toMatch(/op must be one of register, renew, transfer, restore/);
    const unknown = await call(t, { path: '/api/pricing/tld?tld=zzz' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toMatch(/\.zzz is not a TLD this service knows/);
  });

  it('tells the term range, organisation and nameserver rules of a TLD', async () => {
    const ai = await call(t, { path: '/api/tlds/ai/metadata' });
    expect(ai.status).toBe(200);
    expect(ai.json).toMatchObject({
      tld: 'ai',
      type: 'ccTLD',
      term: { min_years: 2, max_years: 10 },
      nameservers: { min: 2, max: 13 },
    });
    const us = await call(t, { path: '/api/tlds/US/metadata' });
    expect(us.json.organization).toMatchObject({ local_presence_required: true, presence_region: 'US' });
    const dev = await call(t, { path: '/api/tlds/dev/metadata' });
    expect(dev.json.https_required).toBe(true);
    expect((await call(t, { path: '/api/tlds/zzz/metadata' })).status).toBe(404);
    expect((await call(t, { path: '/api/tlds/c_m/metadata' })).status).toBe(400);
  });
});

describe('GET /api/market/listings', () => {
  async function walk(query: string): Promise<{ domains: string[]; pages: number }> {
    const domains: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer = await call(t, {
        path: `/api/market/listings?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      });
      expect(answer.status).toBe(200);
      domains.push(...answer.json.listings.map((l: { domain: string }) => l.domain));
      cursor = answer.json.page.next_cursor;
      pages++;
    } while (cursor !== null && pages < 100);
    return { domains, pages };
  }

  it('pages newest first with masked prices, filtered by TLD, through page.next_cursor to the end', async () => {
    const first = await call(t, { path: '/api/market/listings?tld=io&limit=5' });
    expect(first.status).toBe(200);
    expect(first.json.listings).toHaveLength(5);
    for (const l of first.json.listings)
      expect(l).toMatchObject({ tld: 'io', price_cents: null, price_masked: true, currency: 'USD' });
    const times = first.json.listings.map((l: { listed_at: string }) => Date.parse(l.listed_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const all = await walk('tld=io&limit=37');
    const rows = await t.sandbox.db
      .selectFrom('domains')
      .select('name')
      .where('environment', '=', 'SANDBOX')
      .where('status', '=', 'listed')
      .where('tld', '=', 'io')
      .execute();
    const expected = rows.map((r) => r.name);
    expect(expected.length).toBeGreaterThan(100);
    expect(new Set(all.domains).size).toBe(all.domains.length);
    expect(all.domains.sort()).toEqual(expected.sort());
    expect(first.json.page.total).toBe(expected.length);
  });

  it('stays stable under concurrent inserts: following the cursor never repeats or skips a listing', async () => {
    const seen: string[] = [];
    const firstPage = await call(t, { path: '/api/market/listings?limit=200' });
    const before = firstPage.json.page.total as number;
    expect(before).toBeGreaterThanOrEqual(inventory.length);
    seen.push(...firstPage.json.listings.map((l: { domain: string }) => l.domain));
    // Listings arrive while the caller is paging (newer than everything it has seen).
    const now = new Date(t.clock.now());
    await t.sandbox.db
      .insertInto('domains')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          environment: 'SANDBOX' as const,
          name: `freshlisting${i}.com`,
          label: `freshlisting${i}`,
          tld: 'com',
          words: ['fresh'],
          price_cents: 100_000,
          floor_price_cents: 50_000,
          currency: 'USD',
          status: 'listed' as const,
          listed_at: new Date(now.getTime() + i * 1000),
        })),
      )
      .execute();
    // Offset paging shifts under inserts: the second page by offset now repeats listings of the first.
    const byOffset = await call(t, { path: '/api/market/listings?limit=200&offset=200' });
    expect(byOffset.json.page.offset).toBe(200);
    expect(byOffset.json.listings.some((l: { domain: string }) => seen.includes(l.domain))).toBe(true);
    // The cursor does not.
    let cursor: string | null = firstPage.json.page.next_cursor;
    while (cursor !== null) {
      const answer = await call(t, { path: `/api/market/listings?limit=200&cursor=${encodeURIComponent(cursor)}` });
      seen.push(...answer.json.listings.map((l: { domain: string }) => l.domain));
      cursor = answer.json.page.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(before);
    expect(seen.some((d) => d.startsWith('freshlisting'))).toBe(false);
    const fresh = await call(t, { path: '/api/market/listings?limit=7' });
    expect(fresh.json.listings.map((l: { domain: string }) => l.domain)).toEqual(
      [6, 5, 4, 3, 2, 1, 0].map((i) => `freshlisting${i}.com`),
    );
  });

  it.each([
    ['limit=0', /limit must be at least 1/],
    ['limit=500', /limit must be at most 200/],
    ['limit=abc', /limit must be a whole number|expected number/],
    ['offset=-1', /offset must be 0 or more/],
    ['cursor=abc&offset=5', /either cursor .* or offset, not both/],
    ['cursor=not-a-cursor', /cursor is not valid/],
  ])('refuses %s with a 400', async (query, message) => {
    const answer = await call(t, { path: `/api/market/listings?${query}` });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(message);
  });

  it('refuses a cursor followed under another tld filter', async () => {
    const first = await call(t, { path: '/api/market/listings?tld=io&limit=2' });
    const answer = await call(t, { path: `/api/market/listings?tld=ai&cursor=${first.json.page.next_cursor}` });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/cursor was issued for tld=io/);
  });
});

describe('POST /api/batch and GET /api/batch', () => {
  it('publishes the catalogue of the three operations with their params', async () => {
    const answer = await call(t, { path: '/api/batch' });
    expect(answer.status).toBe(200);
    expect(answer.json.max_operations).toBe(20);
    expect(answer.json.operations.map((o: { op: string }) => o.op)).toEqual([
      'search_domain',
      'tld_registration_price',
      'whois_lookup',
    ]);
    const price = answer.json.operations.find((o: { op: string }) => o.op === 'tld_registration_price');
    expect(Object.keys(price.params.properties)).toEqual(['tld', 'op']);
    expect(price.params.properties.op.enum).toEqual(['register', 'renew', 'transfer', 'restore']);
  });

  it('ties each result to its operation by id; a failing operation does not fail the others', async () => {
    const answer = await call(t, {
      path: '/api/batch',
      json: {
        operations: [
          { id: 'search', op: 'search_domain', params: { q: listed.name } },
          { id: 'price', op: 'tld_registration_price', params: { tld: 'io', op: 'renew' } },
          { id: 'bad-tld', op: 'whois_lookup', params: { domain: 'coffee.zzz' } },
          { id: 'no-params', op: 'whois_lookup' },
          { id: 'unknown', op: 'buy_domain', params: {} },
          { id: 'whois', op: 'whois_lookup', params: { domain: listed.name } },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const byId = Object.fromEntries(answer.json.results.map((r: { id: string }) => [r.id, r]));
    expect(answer.json.results.map((r: { id: string }) => r.id)).toEqual([
      'search',
      'price',
      'bad-tld',
      'no-params',
      'unknown',
      'whois',
    ]);
    expect(byId.search).toMatchObject({ ok: true, status: 200, result: { query: listed.name, prices_masked: true } });
    expect(byId.price).toMatchObject({ ok: true, result: { tld: 'io', op: 'renew', price_cents: 5499 } });
    expect(byId['bad-tld']).toMatchObject({
      ok: false,
      status: 400,
      error: { code: 'validation_error', message: expect.stringMatching(/\.zzz/) },
    });
    expect(byId['no-params']).toMatchObject({
      ok: false,
      status: 400,
      error: { message: expect.stringMatching(/domain/) },
    });
    expect(byId.unknown).toMatchObject({
      ok: false,
      status: 400,
      error: { message: expect.stringMatching(/Unknown op "buy_domain"/) },
    });
    expect(byId.whois).toMatchObject({ ok: true, result: { domain: listed.name, registered: true } });
  });

  it('refuses 21 operations with a clear 400 (and runs none of them)', async () => {
    const operations = Array.from({ length: 21 }, (_, i) => ({
      id: `op${i}`,
      op: 'tld_registration_price',
      params: { tld: 'com' },
    }));
    const answer = await call(t, { path: '/api/batch', json: { operations } });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe('validation_error');
    expect(answer.json.error.message).toBe(
      'A batch holds at most 20 operations; this one has 21. Split it into batches of 20.',
    );
    const twenty = await call(t, { path: '/api/batch', json: { operations: operations.slice(0, 20) } });
    expect(twenty.status).toBe(200);
    expect(twenty.json.results).toHaveLength(20);
  });

  it.each([
    [{}, /operations/],
    [{ operations: [] }, /at least one operation/],
    [{ operations: [{ op: 'search_domain', params: { q: 'x' } }] }, /each operation needs an id/],
    [
      {
        operations: [
          { id: 'a', op: 'search_domain', params: { q: 'x' } },
          { id: 'a', op: 'search_domain', params: { q: 'y' } },
        ],
      },
      /ids must be unique.*"a"/,
    ],
  ])('refuses the batch %j with a 400', async (body, message) => {
    const answer = await call(t, { path: '/api/batch', json: body });
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(message);
  });
});

describe('sign-in gates and discovery', () => {
  it('GET /api without a token answers 401 pointing at the protected resource metadata', async () => {
    const answer = await call(t, { path: '/api' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.sandbox.url}/.well-known/oauth-protected-resource"`,
    );
  });

  it('bulk operations and the owned-domain list need a token', async () => {
    const bulk = await call(t, { path: '/api/domains/bulk/lock', json: { domains: ['a.com'] } });
    expect(bulk.status).toBe(401);
    expect(bulk.headers.get('www-authenticate')).toContain('scope="domains:manage"');
    expect((await call(t, { path: '/api/domains' })).status).toBe(401);
  });

  it('serves the agent-auth document as Markdown with this service\u2019s URLs', async () => {
    const res = await fetch(`${t.sandbox.url}/auth.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    expect(text).toContain(`${t.sandbox.url}/.well-known/oauth-protected-resource`);
    expect(text).toContain('grant_type=refresh_token');
    expect(text).toContain('S256');
  });

  it('answers CORS preflights of the Public API from any origin, but not of the Partner API', async () => {
    const pre = await fetch(`${t.sandbox.url}/api/domain/search`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization/i);
    const partner = await fetch(`${t.sandbox.url}/api/partner/v1/domains/search?q=x`, {
      headers: { origin: 'https://agent.example' },
    });
    expect(partner.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limits', () => {
  it('answers 429 rate_limited with Retry-After once an anonymous caller spends its 120 requests a minute, and serves it again in the next window', async () => {
    for (let i = 0; i < 120; i++) expect((await call(t, { path: '/api/pricing/tld?tld=com' })).status).toBe(200);
    const limited = await call(t, { path: '/api/pricing/tld?tld=com' });
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    t.clock.advance(retryAfter);
    expect((await call(t, { path: '/api/pricing/tld?tld=com' })).status).toBe(200);
  });

  it('counts a batch as one request per operation', async () => {
    const operations = Array.from({ length: 20 }, (_, i) => ({
      id: `op${i}`,
      op: 'tld_registration_price',
      params: { tld: 'com' },
    }));
    for (let i = 0; i < 6; i++) expect((await call(t, { path: '/api/batch', json: { operations } })).status).toBe(200);
    expect((await call(t, { path: '/api/batch', json: { operations: operations.slice(0, 1) } })).status).toBe(429);
  });
});

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (standard validator) describing every Public API endpoint of Public API spec 4.2', async () => {
    const answer = await call(t, { path: '/openapi.json' });
    expect(answer.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(answer.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const doc = answer.json;
    expect(doc.servers).toEqual([{ url: t.sandbox.url }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/domain/search',
        '/api/tools/whois',
        '/api/pricing/tld',
        '/api/tlds/{tld}/metadata',
        '/api/market/listings',
        '/api/batch',
        '/api/domains/bulk/{op}',
        '/api/oauth/register',
        '/api/oauth/token',
      ]),
    );
    expect(Object.keys(doc.paths['/api/batch'])).toEqual(['get', 'post']);
    expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: `${t.sandbox.url}/oauth/authorize`,
      tokenUrl: `${t.sandbox.url}/api/oauth/token`,
      scopes: { 'pricing:read': expect.any(String) },
    });
    expect(doc.paths['/api/domain/search'].post.responses['429'].headers['Retry-After']).toBeDefined();
    // Generated from the handlers' zod schemas: the request schema carries the handler's own pattern and limits.
    expect(doc.components.schemas.DomainSearchRequest.properties.q).toMatchObject({
      type: 'string',
      maxLength: 253,
      pattern: expect.any(String),
    });
    expect(doc.components.schemas.BatchRequest.properties.operations.maxItems).toBe(20);
    expect(doc.components.schemas.BulkRequest.properties.domains.maxItems).toBe(1000);
  });

  it('flags answers that break the document (so the check below can fail)', async () => {
    const doc = (await call(t, { path: '/openapi.json' })).json;
    const wrong = checkAgainstOpenApi(doc, [
      {
        method: 'POST',
        path: '/api/domain/search',
        status: 200,
        contentType: 'application/json',
        json: { query: 'x', label: 'x', domain: null, siblings: [], prices_masked: 'no' },
      },
      { method: 'GET', path: '/api/pricing/tld?tld=com', status: 418, contentType: 'application/json', json: {} },
      {
        method: 'GET',
        path: '/api/tlds/com/metadata',
        status: 200,
        contentType: 'application/json',
        json: { tld: 'com', extra: true },
      },
    ]);
    expect(wrong.problems).toHaveLength(3);
    expect(wrong.problems[0]).toMatch(/prices_masked/);
    expect(wrong.problems[1]).toMatch(/status 418 not documented/);
  });

  it('documents every answer of this file: each status and body matches the served document', async () => {
    const { problems, checked } = await checkRecordedAnswers(t);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
