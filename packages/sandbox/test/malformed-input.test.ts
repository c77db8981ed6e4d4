/**
 * Regressions of "every boundary holds": input an attacker or a careless client sends is answered with a 4xx naming
 * what to fix, never a 500 (Partner API spec 7 tells clients to retry a 500, so a 500 for bad input is a retry storm). One
 * `describe` per defect, named after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURE_LIMITS, AuthFailureThrottle } from '../src/auth/failure-throttle.ts';
import { admin, newPartner, send, startTestSandbox, type PartnerTestClient, type TestSandbox } from './helpers.ts';

let t: TestSandbox;
let client: PartnerTestClient;

beforeAll(async () => {
  t = await startTestSandbox();
  ({ client } = await newPartner(t.sandbox, t.clock));
});
afterAll(async () => {
  await t?.stop();
});

describe('malformed percent-escapes in a path', () => {
  it.each(['/api/tlds/%/metadata', '/api/tlds/%C3%28/metadata', '/r/%', '/r/%C3%28', '/market/%'])(
    'GET %s answers 400, not 500',
    async (path) => {
      const answer = await send(t.sandbox, { path });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toMatch(/internal_error|Something went wrong/);
    },
  );

  it.each(['/api/partner/v1/orders/%C3%28', '/api/partner/v1/orders/%'])(
    'signed GET %s answers 400 validation_error',
    async (path) => {
      const answer = await client.request({ path });
      expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
    },
  );

  it('answers 401 where authentication comes first (bulk operation without a token)', async () => {
    const answer = await send(t.sandbox, {
      method: 'POST',
      path: '/api/domains/bulk/%C3%28',
      headers: { 'content-type': 'application/json' },
      body: '{"domains":[]}',
    });
    expect(answer.status).toBe(401);
  });
});

describe('NUL bytes reaching PostgreSQL', () => {
  it.each([
    ['/oauth/authorize', 'client_id=a%00b&response_type=code'],
    ['/market/%00', ''],
  ])('unauthenticated GET %s?%s answers 400, not 500', async (path, query) => {
    const answer = await send(t.sandbox, { path, query });
    expect(answer.status).toBe(400);
  });

  it('a database refusal that gets through is a 4xx and is logged as a defect', async () => {
    const before = t.logs.lines.length;
    const answer = await send(t.sandbox, { path: '/market/%00' });
    expect(answer.status).toBe(400);
    const defects = t.logs
      .entries()
      .slice(before)
      .filter((e) => e.defect === true);
    // Either the input policy refused the value first (no defect) or the database did and the defect is logged.
    for (const d of defects) expect(d.level).toBe(50);
  });
});

describe('NUL bytes and unpaired surrogates never reach PostgreSQL', () => {
  it.each([
    ['a NUL', 'a\u0000b'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('POST /api/oauth/register with %s in client_name answers 400 naming the field', async (_name, clientName) => {
    const answer = await send(t.sandbox, {
      method: 'POST',
      path: '/api/oauth/register',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: clientName, redirect_uris: ['https://app.example/cb'] }),
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('client_name');
  });

  it('signed POST /links with a NUL in label answers 400 validation_error naming label', async () => {
    const answer = await client.request({
      method: 'POST',
      path: '/api/partner/v1/links',
      json: { kind: 'generic', label: 'a\u0000b' },
    });
    expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
    expect(answer.json.error.message).toContain('label');
  });

  it.each([
    ['/api/partner/v1/transactions', 'status=%00'],
    ['/api/partner/v1/orders/%00', ''],
    ['/api/partner/v1/orders', 'cursor=%00'],
  ])('signed GET %s?%s answers 400 validation_error', async (path, query) => {
    const answer = await client.request({ path, query });
    expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
  });
});

describe('numbers and dates past the storage type', () => {
  const brokerage = (budget: number) =>
    client.request({
      method: 'POST',
      path: '/api/partner/v1/brokerage',
      json: { domain: 'coffee-house-brokerage.com', tier: 'self_serve', buyer_email: 'b@example.com', budget },
    });

  it('POST /brokerage with budget 2147483648 answers 400 giving the range (2147483647 is accepted)', async () => {
    const over = await brokerage(2_147_483_648);
    expect([over.status, over.json?.error?.code]).toEqual([400, 'validation_error']);
    expect(over.json.error.message).toMatch(/1 to 2147483647/);
    const max = await brokerage(2_147_483_647);
    expect(max.status).toBeLessThan(500);
    expect(max.status).not.toBe(400);
  });

  it.each([
    '/api/partner/v1/orders',
    '/api/partner/v1/settlements',
    '/api/partner/v1/transactions',
    '/api/partner/v1/payouts',
    '/api/partner/v1/me/sales',
  ])('GET %s with from=0000-01-01T00:00:00Z answers 400', async (path) => {
    const answer = await client.request({ path, query: { from: '0000-01-01T00:00:00Z' } });
    expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
  });

  it.each(['/api/partner/v1/links', '/api/partner/v1/orders'])(
    'GET %s with a cursor the server never issued answers 400',
    async (path) => {
      for (const cursor of ['bm90LWEtY3Vyc29y', Buffer.from('["links","\\u0000"]').toString('base64url')]) {
        const answer = await client.request({ path, query: { cursor } });
        expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
      }
    },
  );

  it('the public listings refuse a foreign cursor with 400', async () => {
    const answer = await send(t.sandbox, { path: '/api/market/listings', query: 'cursor=bm90LWEtY3Vyc29y' });
    expect(answer.status).toBe(400);
  });

  it.each([
    ['3e9', { price_cents: 3e9 }],
    ['below the floor', { price_cents: 1 }],
  ])('admin set-price to %s answers 4xx, not 500', async (_name, body) => {
    const answer = await admin(t.sandbox, 'POST', '/domains/coffee.com/price', body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});

describe('webhook URL hosts are validated', () => {
  it('a webhook URL with a 5,000-character host label is refused with 400', async () => {
    const answer = await client.request({
      method: 'PUT',
      path: '/api/partner/webhooks',
      json: { url: `https://${'a'.repeat(5_000)}.example/hook`, secret: 'whsec_0123456789abcdef' },
    });
    expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
  });
});

describe('an empty timestamp header', () => {
  it('answers invalid_timestamp, not missing_signature_headers', async () => {
    const answer = await client.request({ path: '/api/partner/v1/orders', headers: { 'x-service-timestamp': '' } });
    expect([answer.status, answer.json?.error?.code]).toEqual([401, 'invalid_timestamp']);
  });
});

describe('the admin referral sale', () => {
  it('honours price_cents instead of the listing price', async () => {
    const link = await client.request({ method: 'POST', path: '/api/partner/v1/links', json: { kind: 'generic' } });
    expect(link.status).toBe(201);
    const sale = await admin(t.sandbox, 'POST', `/links/${link.json.link_id}/sales`, {
      domain: 'coffee.com',
      price_cents: 123_400,
    });
    expect(sale.status).toBe(201);
    expect(sale.json.sale.amount_cents).toBe(123_400);
  });
});

describe("/admin/reset clears the OAuth endpoints' rate-limit windows", () => {
  it('registration answers 429 once its window is spent, and 201 again right after a reset', async () => {
    const register = () =>
      send(t.sandbox, {
        method: 'POST',
        path: '/api/oauth/register',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'flood', redirect_uris: ['https://app.example/cb'] }),
      });
    let last = await register();
    for (let i = 0; i < 80 && last.status !== 429; i++) last = await register();
    expect(last.status).toBe(429);
    expect((await admin(t.sandbox, 'POST', '/reset')).status).toBe(200);
    expect((await register()).status).toBe(201);
  });
});

describe('floods of invalid signatures', () => {
  it('a key id flooded from many addresses still serves its partner; only failing requests are refused', () => {
    const throttle = new AuthFailureThrottle();
    let last: unknown;
    for (let i = 0; i <= AUTH_FAILURE_LIMITS.perKeyId; i++)
      last = throttle.recordFailure(`10.0.${i >> 8}.${i & 255}`, 'pk_test_victim', 0);
    expect(last).toMatchObject({ code: 'rate_limited', headers: { 'Retry-After': '60' } });
    // The partner's own address is not blocked: its correctly signed requests never record a failure.
    expect(throttle.checkAddress('192.0.2.7', 1_000)).toBeUndefined();
  });

  it('answers 429 with Retry-After to an address that keeps failing, then serves it after the window', async () => {
    const bad = () =>
      send(t.sandbox, {
        path: '/api/partner/v1/orders',
        headers: {
          'x-service-key-id': 'pk_test_nobody',
          'x-service-timestamp': String(Math.floor(t.clock.now() / 1000)),
          'x-service-nonce': crypto.randomUUID(),
          'x-service-signature': 'v1=00',
        },
      });
    let answer = await bad();
    for (let i = 0; i < AUTH_FAILURE_LIMITS.perAddress + 5 && answer.status !== 429; i++) answer = await bad();
    expect(answer.status).toBe(429);
    expect(answer.json.error.code).toBe('rate_limited');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.advance(AUTH_FAILURE_LIMITS.windowSeconds + 1);
    const ok = await client.request({ path: '/api/partner/v1/orders' });
    expect(ok.status).toBe(200);
  });
});
