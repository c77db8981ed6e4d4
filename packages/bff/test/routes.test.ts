/**
 * The widget API over real HTTP, in front of a stub marketplace that verifies every signature: search (cached,
 * coalesced), one domain, checkout, health, and the headers every answer carries.
 */
import { describe, expect, it } from 'vitest';
import { CANCEL_URL, RETURN_URL, SHOP_ORIGIN, call, postJson, useStubAndBff } from './helpers.ts';

const suite = useStubAndBff();

describe('GET /search', () => {
  it('answers the widget shape: the normalised query and results without upstream extras', async () => {
    const res = await call(`${suite.bff.url}/search?q=${encodeURIComponent('  Coffee   HOUSE ')}`);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      query: 'coffee house',
      results: [
        { domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' },
        { domain: 'coffeeshop.io', available: true, price_cents: 120000, currency: 'USD' },
        { domain: 'coffee.net', available: false, price_cents: 990000, currency: 'USD' },
      ],
    });
    // What went upstream is the normalised query, signed (the stub verified it).
    expect(suite.stub.callsTo('search').at(-1)?.query).toBe('q=coffee%20house');
  });

  it('answers equal queries from the cache: one upstream call for different spellings', async () => {
    const before = suite.stub.callsTo('search').length;

    const a = await call(`${suite.bff.url}/search?q=Espresso%20Bar`);
    const b = await call(`${suite.bff.url}/search?q=%20espresso%20%20%20bar%20`);
    const c = await call(`${suite.bff.url}/search?q=ESPRESSO%09BAR`);

    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(b.json).toEqual(a.json);
    expect(suite.stub.callsTo('search').length - before).toBe(1);
  });
});

describe('GET /domains/:name', () => {
  it('answers one domain in the widget shape', async () => {
    const res = await call(`${suite.bff.url}/domains/CoffeeHouse.com`);

    expect(res.status).toBe(200);
    expect(res.json).toEqual({ domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' });
    expect(suite.stub.callsTo('domain').at(-1)?.path).toBe('/api/partner/v1/domains/coffeehouse.com');
  });

  it('passes not_found through as 404', async () => {
    const res = await call(`${suite.bff.url}/domains/unlisted.com`);

    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: { code: 'not_found', message: 'That domain is not listed for sale.' } });
  });
});

describe('POST /checkout', () => {
  it('creates a checkout session with the configured return and cancel URLs, answering only its URL, expiry and price', async () => {
    const res = await postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com' });

    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      checkout_url: 'http://127.0.0.1/checkout?pt=tok_coffeehouse.com',
      expires_at: '2030-01-08T00:00:00Z',
      price_cents: 250000,
      currency: 'USD',
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const upstream = suite.stub.callsTo('checkout').at(-1)!;
    expect(JSON.parse(upstream.body)).toEqual({
      domain: 'coffeehouse.com',
      return_url: RETURN_URL,
      cancel_url: CANCEL_URL,
    });
  });
});

describe("POST /checkout: the page's language", () => {
  it("passes the page's language tag on to the checkout session (the hosted checkout speaks it)", async () => {
    const res = await postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com', locale: 'ar-EG' });
    expect(res.status).toBe(201);
    expect(JSON.parse(suite.stub.callsTo('checkout').at(-1)!.body)).toMatchObject({ locale: 'ar-EG' });
  });

  it('refuses what is not a language tag with 400 validation_error naming `locale`, before any upstream call', async () => {
    const before = suite.stub.callsTo('checkout').length;
    for (const locale of ['en_US', 'x', `en-${'a'.repeat(40)}`, 42]) {
      const res = await postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com', locale });
      expect([res.status, res.json.error.code], String(locale)).toEqual([400, 'validation_error']);
      expect(res.json.error.message).toMatch(/locale/);
    }
    expect(suite.stub.callsTo('checkout')).toHaveLength(before);
  });
});

describe('POST /checkout: where the widget asks the buyer to come back (return-path, cancel-path)', () => {
  const checkout = (body: object, origin?: string) =>
    postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com', ...body }, origin ? { origin } : {});
  const sent = () => JSON.parse(suite.stub.callsTo('checkout').at(-1)!.body) as Record<string, string>;

  it("resolves a path against the page's origin when that is one of the shop's", async () => {
    const res = await checkout({ return_url: '/thanks?from=search', cancel_url: '/domains#results' }, SHOP_ORIGIN);
    expect(res.status).toBe(201);
    expect(sent()).toMatchObject({
      return_url: 'https://shop.example/thanks?from=search',
      cancel_url: 'https://shop.example/domains#results',
    });
  });

  it('resolves a path against the configured return URL without an Origin', async () => {
    expect((await checkout({ return_url: '/welcome' })).status).toBe(201);
    expect(sent()).toMatchObject({ return_url: 'https://shop.example/welcome', cancel_url: CANCEL_URL });
  });

  it("takes an absolute URL on the shop's origins", async () => {
    expect((await checkout({ return_url: 'https://shop.example/a' }, SHOP_ORIGIN)).status).toBe(201);
    expect(sent().return_url).toBe('https://shop.example/a');
  });

  it.each([
    ['an absolute URL on another site', { return_url: 'https://evil.example/steal' }, 'return_url_not_allowed'],
    ['a cancel URL on another site', { cancel_url: 'http://shop.example:8080/cart' }, 'return_url_not_allowed'],
    ['a protocol-relative "path"', { return_url: '//evil.example/x' }, 'validation_error'],
    ['a backslash "path"', { return_url: '/\\evil.example/x' }, 'validation_error'],
    ['a javascript: URL', { return_url: 'javascript:alert(1)' }, 'validation_error'],
    ['a relative path without its slash', { return_url: 'thanks' }, 'validation_error'],
  ])('refuses %s with 400 %s, before any upstream call', async (_name, body, code) => {
    const before = suite.stub.callsTo('checkout').length;
    const res = await checkout(body, SHOP_ORIGIN);
    expect([res.status, res.json.error.code]).toEqual([400, code]);
    expect(res.json.error.message).toMatch(/return_url|cancel_url/);
    expect(suite.stub.callsTo('checkout')).toHaveLength(before);
  });
});

describe('POST /checkout on a shop with no return origins', () => {
  const bare = useStubAndBff({ returnUrl: undefined, cancelUrl: undefined, allowedOrigins: [] });

  it('refuses a path it cannot place with 400 return_url_not_allowed', async () => {
    const res = await postJson(`${bare.bff.url}/checkout`, { domain: 'coffeehouse.com', return_url: '/thanks' });
    expect([res.status, res.json.error.code]).toEqual([400, 'return_url_not_allowed']);
    expect(res.json.error.message).toMatch(/no return origins configured/);
  });
});

describe('GET /healthz and common headers', () => {
  it('answers {status: ok} with helmet headers and no-store', async () => {
    const res = await call(`${suite.bff.url}/healthz`);

    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows exactly the configured origins (CORS), varying by Origin', async () => {
    const allowed = await call(`${suite.bff.url}/healthz`, { headers: { origin: SHOP_ORIGIN } });
    const other = await call(`${suite.bff.url}/healthz`, { headers: { origin: 'https://evil.example' } });
    const lookalike = await call(`${suite.bff.url}/healthz`, { headers: { origin: `${SHOP_ORIGIN}.evil.example` } });

    expect(allowed.headers['access-control-allow-origin']).toBe(SHOP_ORIGIN);
    expect(allowed.headers.vary).toMatch(/Origin/);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(lookalike.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a CORS preflight for an allowed origin, and gives nothing to another', async () => {
    const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
    const allowed = await call(`${suite.bff.url}/checkout`, {
      method: 'OPTIONS',
      headers: { origin: SHOP_ORIGIN, ...preflight },
    });
    const other = await call(`${suite.bff.url}/checkout`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', ...preflight },
    });

    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(SHOP_ORIGIN);
    expect(allowed.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(allowed.headers['access-control-allow-headers']).toBe(
      'Content-Type, X-Order-Token, Idempotency-Key, X-Request-Id',
    );
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers 405 with Allow for a known path and another method, and 404 JSON outside the BFF', async () => {
    const wrongMethod = await call(`${suite.bff.url}/search?q=coffee`, { method: 'DELETE' });
    const unknown = await call(`${suite.bff.url}/admin`);

    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET');
    expect(wrongMethod.json.error.code).toBe('method_not_allowed');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');
  });
});
