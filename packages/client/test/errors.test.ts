/**
 * Error answers become one MarketplaceError from a single factory: nested and flat bodies (Partner API spec 7), request id
 * from the body or X-Request-Id, Retry-After in seconds; connection failures and timeouts become
 * MarketplaceConnectionError; a 2xx body breaking its schema names the endpoint and the field.
 */
import { describe, expect, it } from 'vitest';
import {
  MarketplaceConnectionError,
  MarketplaceError,
  MarketplaceResponseError,
  errorFromResponse,
  parseRetryAfter,
} from '../src/index.ts';
import { ORIGIN, detailAnswer, errorBody, mockAgentPerTest, searchAnswer, testClient } from './helpers.ts';

const agent = mockAgentPerTest();

async function failure(promise: Promise<unknown>): Promise<MarketplaceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketplaceError);
  return error as MarketplaceError;
}

describe('error answers', () => {
  it('reads the nested body {error: {code, message, request_id}}', async () => {
    const a = agent();
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/domains/nope.com' })
      .reply(404, errorBody('not_found', 'nope.com is not listed', 'req_nested1'));
    const { client } = testClient(a);

    const error = await failure(client.getDomain('nope.com'));

    expect(error).toMatchObject({
      name: 'MarketplaceError',
      status: 404,
      code: 'not_found',
      message: 'nope.com is not listed',
      requestId: 'req_nested1',
      retryAfter: undefined,
    });
    expect(error.endpoint).toBe('GET /api/partner/v1/domains/{name}');
  });

  it('keeps the further fields of an error body as details (the new price of a price_mismatch)', async () => {
    const a = agent();
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/orders', method: 'POST' })
      .reply(
        422,
        JSON.stringify({
          error: {
            code: 'price_mismatch',
            message: 'The price changed',
            request_id: 'req_pm',
            price_cents: 330000,
            currency: 'USD',
          },
        }),
      );
    const { client } = testClient(a);

    const error = await failure(client.orders.create({ domain: 'coffeehouse.com', quote_id: 'qt_1' }));

    expect(error).toMatchObject({
      status: 422,
      code: 'price_mismatch',
      requestId: 'req_pm',
      details: { price_cents: 330000, currency: 'USD' },
    });
  });

  it('reads a flat body {code, message} and takes the request id from X-Request-Id', async () => {
    const a = agent();
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/domains/nope.com' })
      .reply(403, JSON.stringify({ code: 'forbidden', message: 'The credential lacks the search scope' }), {
        headers: { 'x-request-id': 'req_header9' },
      });
    const { client } = testClient(a);

    const error = await failure(client.getDomain('nope.com'));

    expect(error).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: 'The credential lacks the search scope',
      requestId: 'req_header9',
    });
  });

  it('still raises a clear error for an error answer without a readable body', async () => {
    const a = agent();
    a.get(ORIGIN).intercept({ path: '/api/partner/v1/domains/nope.com' }).reply(502, '<html>Bad gateway</html>');
    const { client } = testClient(a, { maxRetries: 0 });

    const error = await failure(client.getDomain('nope.com'));

    expect(error).toMatchObject({
      status: 502,
      code: 'internal_error',
      message: 'GET /api/partner/v1/domains/{name} answered HTTP 502 without a readable error body.',
    });
  });

  it('turns a network failure into MarketplaceConnectionError (code connection_error)', async () => {
    const a = agent();
    a.get(ORIGIN).intercept({ path: '/api/partner/v1/domains/nope.com' }).replyWithError(new Error('ECONNRESET'));
    const { client } = testClient(a, { maxRetries: 0 });

    const error = await failure(client.getDomain('nope.com'));

    expect(error).toBeInstanceOf(MarketplaceConnectionError);
    expect(error).toMatchObject({
      code: 'connection_error',
      status: undefined,
      message: expect.stringContaining('ECONNRESET'),
    });
  });

  it('turns a timed-out attempt into MarketplaceConnectionError', async () => {
    const a = agent();
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/domains/slow.com' })
      .reply(200, JSON.stringify(detailAnswer))
      .delay(60_000);
    const { client } = testClient(a, { maxRetries: 0, timeoutMs: 20 });

    const error = await failure(client.getDomain('slow.com'));

    expect(error).toBeInstanceOf(MarketplaceConnectionError);
    expect(error.message).toContain('timed out after 20 ms');
  });

  it('names the endpoint and the field when a 2xx answer breaks its schema', async () => {
    const a = agent();
    const broken = { domains: [{ ...searchAnswer.domains[0], price_cents: '2500.00' }], next_cursor: null };
    a.get(ORIGIN)
      .intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search') })
      .reply(200, JSON.stringify(broken), { headers: { 'x-request-id': 'req_schema' } });
    const { client } = testClient(a);

    const error = await failure(client.searchDomains('coffee'));

    expect(error).toBeInstanceOf(MarketplaceResponseError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200, requestId: 'req_schema' });
    expect(error.message).toContain('GET /api/partner/v1/domains/search (searchDomains)');
    expect(error.message).toContain('`domains[0].price_cents`');
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    const a = agent();
    a.get(ORIGIN).intercept({ path: '/api/partner/v1/domains/coffeehouse.com' }).reply(200, 'OK');
    const { client } = testClient(a);

    const error = await failure(client.getDomain('coffeehouse.com'));

    expect(error).toMatchObject({
      code: 'invalid_response',
      message: 'GET /api/partner/v1/domains/{name} answered HTTP 200 with a body that is not JSON.',
    });
  });
});

describe('errorFromResponse', () => {
  const now = Date.UTC(2030, 0, 1);
  it.each([
    [
      'nested',
      errorBody('rate_limited', 'Too many', 'req_a'),
      {},
      { code: 'rate_limited', message: 'Too many', requestId: 'req_a' },
    ],
    [
      'flat with header id',
      JSON.stringify({ code: 'conflict', message: 'Sold' }),
      { 'x-request-id': 'req_b' },
      { code: 'conflict', message: 'Sold', requestId: 'req_b' },
    ],
    [
      'body id wins over header',
      errorBody('forbidden', 'No scope', 'req_body'),
      { 'x-request-id': 'req_hdr' },
      { requestId: 'req_body' },
    ],
    ['empty 429', '', { 'retry-after': '7' }, { code: 'rate_limited', retryAfter: 7 }],
  ])('%s', (_name, bodyText, headers, expected) => {
    const error = errorFromResponse({ status: 429, headers, bodyText }, 'GET /x', now);
    expect(error).toMatchObject(expected);
  });

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    expect(parseRetryAfter('12', now)).toBe(12);
    expect(parseRetryAfter(new Date(now + 5_000).toUTCString(), now)).toBe(5);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
