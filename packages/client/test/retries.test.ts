/**
 * Retries (RETRY_RULES): each attempt signed afresh with a new nonce; 5xx and network errors retried only for
 * requests safe to repeat; 429 waits Retry-After; replay_detected retried; back-off capped; no real waiting.
 */
import type { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { MarketplaceConnectionError, MarketplaceError, backoffDelayMs } from '../src/index.ts';
import { ORIGIN, checkoutAnswer, errorBody, mockAgentPerTest, receive, searchAnswer, testClient } from './helpers.ts';

const agent = mockAgentPerTest({ assertNoPendingInterceptors: true });

const SEARCH = (p: string) => p.startsWith('/api/partner/v1/domains/search');

/** Replies with each answer in turn, verifying every attempt's signature and recording its nonce. */
function sequence(
  a: MockAgent,
  path: string | ((p: string) => boolean),
  method: string,
  answers: Array<{ status: number; body: string; headers?: Record<string, string> } | Error>,
) {
  const nonces: string[] = [];
  const pool = a.get(ORIGIN);
  for (const answer of answers) {
    const interceptor = pool.intercept({ path, method });
    if (answer instanceof Error) {
      interceptor.replyWithError(answer);
      continue;
    }
    interceptor.reply(async (opts) => {
      nonces.push((await receive(opts)).signature.nonce);
      return {
        statusCode: answer.status,
        data: answer.body,
        responseOptions: { headers: { 'content-type': 'application/json', ...answer.headers } },
      };
    });
  }
  return nonces;
}

const ok = { status: 200, body: JSON.stringify(searchAnswer) };
const unavailable = { status: 503, body: errorBody('internal_error', 'Service unavailable') };

describe('retries', () => {
  it('retries a 503 and succeeds, signing the retry with a fresh nonce', async () => {
    const a = agent();
    const nonces = sequence(a, SEARCH, 'GET', [unavailable, ok]);
    const { client, sleeps } = testClient(a);

    const result = await client.searchDomains('coffee');

    expect(result.domains).toHaveLength(1);
    expect(nonces).toHaveLength(2);
    expect(new Set(nonces).size).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it('retries replay_detected with a fresh nonce', async () => {
    const a = agent();
    const nonces = sequence(a, SEARCH, 'GET', [
      { status: 401, body: errorBody('replay_detected', 'Nonce reused') },
      ok,
    ]);
    const { client } = testClient(a);

    await client.searchDomains('coffee');

    expect(nonces).toHaveLength(2);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('waits the Retry-After seconds of a 429 before retrying', async () => {
    const a = agent();
    sequence(a, SEARCH, 'GET', [
      { status: 429, body: errorBody('rate_limited', 'Slow down'), headers: { 'retry-after': '3' } },
      ok,
    ]);
    const { client, sleeps } = testClient(a);

    await client.searchDomains('coffee');

    expect(sleeps).toEqual([3000]);
  });

  it('raises a 429 at once, with retryAfter, when Retry-After exceeds maxRetryDelayMs', async () => {
    const a = agent();
    sequence(a, SEARCH, 'GET', [
      { status: 429, body: errorBody('rate_limited', 'Slow down'), headers: { 'retry-after': '30' } },
    ]);
    const { client, sleeps } = testClient(a, { maxRetryDelayMs: 5_000 });

    const error = await client.searchDomains('coffee').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 30 });
    expect(sleeps).toEqual([]);
  });

  it('gives up after maxRetries with the last error, backing off exponentially with full jitter under the cap', async () => {
    const a = agent();
    const nonces = sequence(a, SEARCH, 'GET', [unavailable, unavailable, unavailable, unavailable]);
    const { client, sleeps } = testClient(a, {
      maxRetries: 3,
      initialRetryDelayMs: 100,
      maxRetryDelayMs: 300,
      random: () => 0.5,
    });

    const error = await client.searchDomains('coffee').catch((e: unknown) => e);

    expect(error).toMatchObject({
      status: 503,
      code: 'internal_error',
      message: 'Service unavailable',
      requestId: 'req_test123',
    });
    expect(nonces).toHaveLength(4);
    // 0.5 × min(300, 100·2^n): 50, 100, 150 (capped).
    expect(sleeps).toEqual([50, 100, 150]);
  });

  it('does not retry a checkout session after a 5xx (no Idempotency-Key: it may have been created)', async () => {
    const a = agent();
    const nonces = sequence(a, '/api/partner/v1/checkout-session', 'POST', [unavailable]);
    const { client, sleeps } = testClient(a);

    await expect(client.createCheckoutSession({ domain: 'coffeehouse.com' })).rejects.toMatchObject({ status: 503 });
    expect(nonces).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does retry a checkout session after a 429 (refused before processing)', async () => {
    const a = agent();
    const nonces = sequence(a, '/api/partner/v1/checkout-session', 'POST', [
      { status: 429, body: errorBody('rate_limited', 'Slow down'), headers: { 'retry-after': '1' } },
      { status: 201, body: JSON.stringify(checkoutAnswer) },
    ]);
    const { client, sleeps } = testClient(a);

    const session = await client.createCheckoutSession({ domain: 'coffeehouse.com' });

    expect(session.domain).toBe('coffeehouse.com');
    expect(nonces).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('retries a GET after a network error, but not a checkout session', async () => {
    const a = agent();
    sequence(a, SEARCH, 'GET', [new Error('socket hang up'), ok]);
    sequence(a, '/api/partner/v1/checkout-session', 'POST', [new Error('socket hang up')]);
    const { client } = testClient(a);

    await expect(client.searchDomains('coffee')).resolves.toMatchObject({ domains: [{ domain: 'coffeehouse.com' }] });
    const error = await client.createCheckoutSession({ domain: 'coffeehouse.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketplaceConnectionError);
    expect(error).toMatchObject({
      code: 'connection_error',
      status: undefined,
      endpoint: 'POST /api/partner/v1/checkout-session',
    });
  });

  it('does not retry a 404', async () => {
    const a = agent();
    const nonces = sequence(a, '/api/partner/v1/pricing?domain=unlisted.com', 'GET', [
      { status: 404, body: errorBody('not_found', 'unlisted.com is not listed') },
    ]);
    const { client } = testClient(a);

    await expect(client.getPricing('unlisted.com')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(nonces).toHaveLength(1);
  });

  it('stops waiting and rejects with the reason when the caller aborts', async () => {
    const a = agent();
    sequence(a, SEARCH, 'GET', [unavailable]);
    const controller = new AbortController();
    const reason = new Error('visitor went away');
    const { client } = testClient(a, {
      sleep: async () => {
        controller.abort(reason);
        throw reason;
      },
    });

    await expect(client.searchDomains('coffee', { signal: controller.signal })).rejects.toBe(reason);
  });
});

describe('backoffDelayMs', () => {
  it('is a uniform draw below min(cap, initial · 2^retry)', () => {
    const opts = { initialDelayMs: 500, maxDelayMs: 8000, random: () => 0.999 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, opts))).toEqual([499, 999, 1998, 3996, 7992, 7992]);
    expect(backoffDelayMs(3, { ...opts, random: () => 0 })).toBe(0);
  });
});
