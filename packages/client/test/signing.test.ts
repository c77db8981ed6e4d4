/**
 * The exact signed request (Partner API spec 5.1): the four headers, `v1=` + 64 hex, the canonical query sent as the URL's
 * query, the body bytes hashed as sent, the full /api/partner/v1 path. Each reply callback runs the protocol's
 * verifier, so a request that would be rejected by the marketplace fails the test.
 */
import { sha256Hex } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import {
  ORIGIN,
  KEY_ID,
  JSON_HEADERS,
  checkoutAnswer,
  detailAnswer,
  mockAgentPerTest,
  receive,
  searchAnswer,
  testClient,
  type ReceivedRequest,
} from './helpers.ts';

const agent = mockAgentPerTest({ assertNoPendingInterceptors: true });

describe('signed requests', () => {
  it('signs a search with the canonical query sent as the URL query and the full path', async () => {
    const a = agent();
    let seen: ReceivedRequest | undefined;
    a.get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search'), method: 'GET' })
      .reply(async (opts) => {
        seen = await receive(opts);
        return { statusCode: 200, data: JSON.stringify(searchAnswer), responseOptions: { headers: JSON_HEADERS } };
      });
    const { client } = testClient(a);

    const result = await client.searchDomains("coffee & tea's");

    expect(seen).toBeDefined();
    const req = seen!;
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/api/partner/v1/domains/search');
    // RFC 3986 encoding of Partner API spec 5.1: space %20, & %26, ' %27.
    expect(req.query).toBe('q=coffee%20%26%20tea%27s');
    expect(req.headers['x-service-key-id']).toBe(KEY_ID);
    expect(req.headers['x-service-timestamp']).toMatch(/^\d{10}$/);
    expect(req.headers['x-service-nonce']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.headers['x-service-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^domainkit-client\//);
    expect(req.body.length).toBe(0);
    expect(result.domains[0]?.domain).toBe('coffeehouse.com');
  });

  it('keeps a path prefix of baseUrl and puts /api/partner/v1 after it', async () => {
    const a = agent();
    let seen: ReceivedRequest | undefined;
    a.get(ORIGIN)
      .intercept({ path: '/marketplace/api/partner/v1/domains/coffeehouse.com', method: 'GET' })
      .reply(async (opts) => {
        seen = await receive(opts);
        return { statusCode: 200, data: JSON.stringify(detailAnswer) };
      });
    const { client } = testClient(a, { baseUrl: `${ORIGIN}/marketplace/` });

    const detail = await client.getDomain('CoffeeHouse.com');

    expect(seen?.path).toBe('/marketplace/api/partner/v1/domains/coffeehouse.com');
    expect(detail.words).toEqual(['coffee', 'house']);
  });

  it('hashes exactly the body bytes it sends on a POST', async () => {
    const a = agent();
    let seen: ReceivedRequest | undefined;
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/checkout-session', method: 'POST' })
      .reply(async (opts) => {
        seen = await receive(opts);
        return { statusCode: 201, data: JSON.stringify(checkoutAnswer) };
      });
    const { client } = testClient(a);

    const session = await client.createCheckoutSession({
      domain: 'coffeehouse.com',
      return_url: 'https://shop.example/thanks?ü=1',
    });

    const req = seen!;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.query).toBe('');
    expect(JSON.parse(req.body.toString('utf8'))).toEqual({
      domain: 'coffeehouse.com',
      return_url: 'https://shop.example/thanks?ü=1',
    });
    // The body hash in the canonical string is of these bytes (verifySignature in receive() rebuilt it from them).
    expect(await sha256Hex(req.body)).not.toBe(await sha256Hex(''));
    expect(session.checkout_url).toBe(checkoutAnswer.checkout_url);
  });

  it('signs the availability and pricing queries', async () => {
    const a = agent();
    const pool = a.get(ORIGIN);
    const queries: string[] = [];
    pool.intercept({ path: '/api/partner/v1/availability?domain=coffeehouse.com' }).reply(async (opts) => {
      queries.push((await receive(opts)).query);
      return {
        statusCode: 200,
        data: JSON.stringify({ domain: 'coffeehouse.com', available: false, price_cents: null, currency: null }),
      };
    });
    pool.intercept({ path: '/api/partner/v1/pricing?domain=coffeehouse.com' }).reply(async (opts) => {
      queries.push((await receive(opts)).query);
      return {
        statusCode: 200,
        data: JSON.stringify({
          domain: 'coffeehouse.com',
          price_cents: 250000,
          floor_price_cents: 200000,
          currency: 'USD',
        }),
      };
    });
    const { client } = testClient(a);

    const availability = await client.getAvailability('coffeehouse.com');
    const pricing = await client.getPricing('coffeehouse.com');

    expect(queries).toEqual(['domain=coffeehouse.com', 'domain=coffeehouse.com']);
    expect(availability).toEqual({ domain: 'coffeehouse.com', available: false, price_cents: null, currency: null });
    expect(pricing.floor_price_cents).toBe(200000);
  });

  it('uses the configured header prefix and the injected clock (Unix seconds)', async () => {
    const a = agent();
    const now = Date.UTC(2030, 0, 1, 12, 0, 0, 789);
    let seen: ReceivedRequest | undefined;
    a.get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search') })
      .reply(async (opts) => {
        seen = await receive(opts, { headerPrefix: 'X-Acme-', now });
        return { statusCode: 200, data: JSON.stringify(searchAnswer) };
      });
    const { client } = testClient(a, { headerPrefix: 'X-Acme-', now: () => now });

    await client.searchDomains('coffee');

    expect(seen?.headers['x-acme-timestamp']).toBe(String(Math.floor(now / 1000)));
    expect(seen?.headers['x-service-signature']).toBeUndefined();
    expect(seen?.headers['x-acme-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  });

  it('keeps unknown response fields', async () => {
    const a = agent();
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/domains/coffeehouse.com' })
      .reply(200, JSON.stringify({ ...detailAnswer, appraisal_cents: 310000 }));
    const { client } = testClient(a);

    const detail = await client.getDomain('coffeehouse.com');

    expect((detail as Record<string, unknown>).appraisal_cents).toBe(310000);
  });

  it('refuses a malformed argument before sending anything', async () => {
    const a = agent(); // no interceptor: a request would fail as a connection error
    const { client } = testClient(a);

    await expect(client.searchDomains('   ')).rejects.toMatchObject({
      code: 'validation_error',
      status: undefined,
      message: expect.stringMatching(/q is required/),
    });
    await expect(client.getDomain('not a domain')).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/`name`: must be a domain name/),
    });
    await expect(
      client.createCheckoutSession({ domain: 'a.com', return_url: 'javascript:alert(1)' }),
    ).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/`return_url`/),
    });
  });
});
