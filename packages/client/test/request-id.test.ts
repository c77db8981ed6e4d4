/**
 * Request ids both ways: the caller's id goes upstream as `X-Request-Id` on every attempt, and the marketplace's
 * id comes back on results (`lastResponse.requestId`) as it does on errors (`requestId`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MarketplaceError, lastResponseOf } from '../src/index.ts';
import { JSON_HEADERS, ORIGIN, coffeehouse, errorBody, mockAgent, testClient } from './helpers.ts';

const agents: Array<ReturnType<typeof mockAgent>> = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

describe('request ids', () => {
  it("sends the caller's request id on every attempt and exposes the marketplace's on the result", async () => {
    const a = mockAgent();
    agents.push(a);
    const seen: Array<string | undefined> = [];
    const pool = a.get(ORIGIN);
    pool.intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search') }).reply((opts) => {
      seen.push((opts.headers as Record<string, string>)['x-request-id']);
      return { statusCode: 500, data: errorBody('internal_error', 'try again', 'req_upstream_1') };
    });
    pool.intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search') }).reply((opts) => {
      seen.push((opts.headers as Record<string, string>)['x-request-id']);
      return {
        statusCode: 200,
        data: JSON.stringify({ domains: [coffeehouse], next_cursor: null }),
        responseOptions: { headers: { ...JSON_HEADERS, 'x-request-id': 'req_upstream_2' } },
      };
    });
    const attempts: Array<[string, number, number]> = [];
    const { client } = testClient(a, {
      requestId: () => 'visitor-req-42',
      onAttempt: (r) => attempts.push([r.rateClass, r.status, r.retry]),
    });

    const result = await client.searchDomains('coffee');

    expect(seen).toEqual(['visitor-req-42', 'visitor-req-42']);
    expect(attempts).toEqual([
      ['search', 500, 0],
      ['search', 200, 1],
    ]);
    expect(lastResponseOf(result)).toEqual({ requestId: 'req_upstream_2', status: 200 });
    expect((result as unknown as { lastResponse: { requestId: string } }).lastResponse.requestId).toBe(
      'req_upstream_2',
    );
    // Not part of the data: JSON and key listings show only the marketplace's fields.
    expect(Object.keys(result)).not.toContain('lastResponse');
    expect(JSON.stringify(result)).not.toContain('req_upstream_2');
  });

  it("sends nothing when there is no id, and errors carry the marketplace's", async () => {
    const a = mockAgent();
    agents.push(a);
    let header: string | undefined = 'unset';
    a.get(ORIGIN)
      .intercept({ path: '/api/partner/v1/domains/nope.com' })
      .reply((opts) => {
        header = (opts.headers as Record<string, string>)['x-request-id'];
        return { statusCode: 404, data: errorBody('not_found', 'nope', 'req_upstream_3') };
      });
    const { client } = testClient(a, { maxRetries: 0 });
    const error = await client.getDomain('nope.com').catch((e: unknown) => e);
    expect(header).toBeUndefined();
    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ requestId: 'req_upstream_3' });
  });
});
