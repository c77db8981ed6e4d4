/**
 * Upstream failures become visitor-safe answers: 429 → 503 busy with Retry-After; 401/403/5xx/unreachable/broken
 * answers → 502 with one fixed message; 409 → 409 with a visitor-safe message. The detail is logged, not sent.
 */
import { describe, expect, it } from 'vitest';
import { UPSTREAM_ERROR_MESSAGE } from '../src/index.ts';
import { KEY_ID, call, postJson, startStubMarketplace, startTestBff, useStubAndBff } from './helpers.ts';

const suite = useStubAndBff();

const upstreamError = (status: number, code: string, message: string, headers: Record<string, string> = {}) => ({
  status,
  body: { error: { code, message, request_id: `req_${code}` } },
  headers,
});

describe('upstream errors', () => {
  it('answers a 429 as 503 busy, with Retry-After and error.retry_after', async () => {
    // Its own BFF: a 429 pauses that BFF's upstream searches for the Retry-After seconds.
    const paused = await startTestBff(suite.stub);
    try {
      suite.stub.enqueue('search', upstreamError(429, 'rate_limited', 'Rate limit exceeded', { 'retry-after': '30' }));

      const res = await call(`${paused.url}/search?q=latte`);

      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json).toEqual({
        error: { code: 'busy', message: 'The domain search is busy right now; retry in 30 s.', retry_after: 30 },
      });
    } finally {
      await paused.close();
    }
  });

  it('answers a 500 as 502 upstream_error with a safe message, and logs the detail', async () => {
    suite.stub.enqueue('domain', upstreamError(500, 'internal_error', 'db pool exhausted at shard 7'));

    const res = await call(`${suite.bff.url}/domains/coffeehouse.com`);

    expect(res.status).toBe(502);
    expect(res.json).toEqual({ error: { code: 'upstream_error', message: UPSTREAM_ERROR_MESSAGE } });
    expect(res.text).not.toContain('shard 7');
    const logged = suite.bff.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.upstream?.requestId === 'req_internal_error');
    expect(logged).toMatchObject({
      level: 50,
      msg: 'marketplace request failed',
      route: 'GET /bff/domains/coffeehouse.com',
      upstream: { status: 500, code: 'internal_error', message: 'db pool exhausted at shard 7' },
    });
  });

  it.each([
    ['401 invalid_signature', upstreamError(401, 'invalid_signature', 'Signature mismatch')],
    ['403 forbidden', upstreamError(403, 'forbidden', 'The credential lacks the embed scope')],
    ['503', upstreamError(503, 'internal_error', 'maintenance')],
    ['400 from upstream', upstreamError(400, 'validation_error', 'domain is malformed')],
    ['a body breaking the schema', { status: 201, body: { checkout_url: 'not a url' } }],
    [
      'a javascript: checkout_url',
      {
        status: 201,
        body: {
          checkout_url: 'javascript:alert(1)',
          domain: 'coffeehouse.com',
          price_cents: 1,
          currency: 'USD',
          expires_at: '2030-01-01T00:00:00Z',
        },
      },
    ],
  ])('answers %s on checkout as 502 upstream_error', async (_name, answer) => {
    suite.stub.enqueue('checkout', answer);

    const res = await postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com' });

    expect(res.status).toBe(502);
    expect(res.json).toEqual({ error: { code: 'upstream_error', message: UPSTREAM_ERROR_MESSAGE } });
  });

  it('answers a 409 (domain sold) as 409 with a visitor-safe message', async () => {
    suite.stub.enqueue('checkout', upstreamError(409, 'conflict', 'listing 991 state=SOLD order=ord_123'));

    const res = await postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com' });

    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      error: { code: 'conflict', message: 'That domain has just been sold or reserved; choose another one.' },
    });
  });

  it('answers 502 when the marketplace cannot be reached', async () => {
    const dead = await startStubMarketplace();
    await dead.close(); // its port is now closed
    const lonely = await startTestBff(dead);
    try {
      const res = await call(`${lonely.url}/search?q=coffee`);

      expect(res.status).toBe(502);
      expect(res.json.error).toEqual({ code: 'upstream_error', message: UPSTREAM_ERROR_MESSAGE });
      const logged = lonely.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'marketplace request failed');
      expect(logged.upstream.code).toBe('connection_error');
    } finally {
      await lonely.close();
    }
  });

  it('answers 502 when the marketplace rejects the credential (wrong secret), logging invalid_signature', async () => {
    const wrong = await startTestBff(suite.stub, {
      marketplace: { baseUrl: suite.stub.url, keyId: KEY_ID, secret: 'sk_test_wrong_secret', maxRetries: 0 },
    });
    try {
      const res = await call(`${wrong.url}/search?q=mocha`);

      expect(res.status).toBe(502);
      expect(suite.stub.rejected.at(-1)).toBe('invalid_signature');
      const logged = wrong.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'marketplace request failed');
      expect(logged.upstream).toMatchObject({ status: 401, code: 'invalid_signature' });
    } finally {
      await wrong.close();
    }
  });
});
