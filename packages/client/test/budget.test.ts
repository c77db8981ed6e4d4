/**
 * The UpstreamBudget hook: asked before every attempt (retries included) with the endpoint's Partner API spec 8 class, told
 * about every 429 with its Retry-After, able to refuse a call before anything is sent, and skipped for the first
 * attempt when the caller already took the budget.
 */
import { describe, expect, it } from 'vitest';
import type { BudgetRequest, RateLimitedNotice, UpstreamBudget } from '../src/index.ts';
import { errorBody, mockAgentPerTest, orderAnswer, quoteAnswer, script, searchAnswer, testClient } from './helpers.ts';

const agent = mockAgentPerTest();

function recordingBudget(refuse?: (request: BudgetRequest) => Error | undefined) {
  const asked: Array<Pick<BudgetRequest, 'rateClass' | 'attempt' | 'endpoint'>> = [];
  const limited: RateLimitedNotice[] = [];
  const budget: UpstreamBudget = {
    acquire(request) {
      asked.push({ rateClass: request.rateClass, attempt: request.attempt, endpoint: request.endpoint });
      const error = refuse?.(request);
      if (error) throw error;
    },
    onRateLimited(notice) {
      limited.push(notice);
    },
  };
  return { budget, asked, limited };
}

describe('UpstreamBudget', () => {
  it('is asked before every attempt with the rate class, and told about each 429', async () => {
    const a = agent();
    script(a, 'GET', (p) => p.startsWith('/api/partner/v1/domains/search'), [
      { status: 429, body: errorBody('rate_limited', 'Slow down'), headers: { 'retry-after': '1' } },
      { status: 500, body: errorBody('internal_error', 'boom') },
      { status: 200, body: searchAnswer },
    ]);
    script(a, 'POST', '/api/partner/v1/quotes', [{ status: 201, body: quoteAnswer }]);
    const { budget, asked, limited } = recordingBudget();
    const { client } = testClient(a, { budget });

    await client.searchDomains('coffee');
    await client.quotes.create({ domain: 'coffeehouse.com' });

    expect(asked).toEqual([
      { rateClass: 'search', attempt: 0, endpoint: 'GET /api/partner/v1/domains/search' },
      { rateClass: 'search', attempt: 1, endpoint: 'GET /api/partner/v1/domains/search' },
      { rateClass: 'search', attempt: 2, endpoint: 'GET /api/partner/v1/domains/search' },
      { rateClass: 'write', attempt: 0, endpoint: 'POST /api/partner/v1/quotes' },
    ]);
    expect(limited).toEqual([{ rateClass: 'search', endpoint: 'GET /api/partner/v1/domains/search', retryAfter: 1 }]);
  });

  it('can refuse a call: the refusal is what the call rejects with, and nothing is sent', async () => {
    const a = agent(); // no interceptor
    const busy = new Error('no token for 12 s');
    const { budget } = recordingBudget(() => busy);
    const { client } = testClient(a, { budget });

    await expect(client.getDomain('coffeehouse.com')).rejects.toBe(busy);
  });

  it('is told when each attempt ended, with the request it acquired for, and whether an answer came back', async () => {
    const a = agent();
    script(a, 'GET', (p) => p.startsWith('/api/partner/v1/domains/search'), [
      new Error('connection reset'),
      { status: 500, body: errorBody('internal_error', 'boom') },
      { status: 200, body: searchAnswer },
    ]);
    const acquired: BudgetRequest[] = [];
    const settled: Array<{ request: BudgetRequest; answered: boolean }> = [];
    const budget: UpstreamBudget = {
      acquire: (request) => void acquired.push(request),
      settled: (request, outcome) => void settled.push({ request, answered: outcome.answered }),
    };
    const { client } = testClient(a, { budget, initialRetryDelayMs: 1 });

    await client.searchDomains('coffee');

    expect(settled.map((s) => s.answered)).toEqual([false, true, true]);
    expect(settled.map((s, i) => s.request === acquired[i])).toEqual([true, true, true]);
  });

  it('is not asked for the first attempt when the caller already took it, but is for retries', async () => {
    const a = agent();
    script(a, 'POST', '/api/partner/v1/orders', [
      { status: 503, body: errorBody('internal_error', 'busy') },
      { status: 201, body: orderAnswer() },
    ]);
    const { budget, asked } = recordingBudget();
    const { client } = testClient(a, { budget });

    await client.orders.create({ domain: 'coffeehouse.com', quote_id: 'qt_1' }, { budgetAcquired: true });

    expect(asked).toEqual([{ rateClass: 'write', attempt: 1, endpoint: 'POST /api/partner/v1/orders' }]);
  });
});
