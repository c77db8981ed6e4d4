/**
 * Issue 26, finding 7: after an upstream 429 pause, a live visitor lost to the backlog. The visitors who searched
 * during the pause were answered "busy" and left, but their queries kept their demand: when the `Retry-After` ended,
 * the refilled burst went to those queries (upstream searches nobody waited for) and the first new visitor was
 * answered "busy" too. A visitor waiting now must get the next token, and work whose visitors are gone may spend only
 * tokens no visitor needs.
 *
 * The BFF runs on a frozen clock the test moves past the pause; searches and tokens are counted, never timed.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { call, startStubMarketplace, startTestBff, type StubMarketplace, type TestBff } from './helpers.ts';

let stub: StubMarketplace;
let bff: TestBff;
let now = Date.now();

beforeAll(async () => {
  stub = await startStubMarketplace();
  bff = await startTestBff(stub, {
    // The production budget: 60 searches a minute, a burst of 6 (Partner API spec 8).
    upstreamBudget: { search: { perMinute: 60, burst: 6 }, searchMaxWaitMs: 300 },
    searchCache: { index: false },
    now: () => now,
  });
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
});

it('gives the first token after the pause to the visitor waiting, not to queries whose visitors left', async () => {
  stub.enqueue('search', {
    status: 429,
    headers: { 'retry-after': '2' },
    body: { error: { code: 'rate_limited', message: 'Rate limit exceeded', request_id: 'req_429' } },
  });
  expect((await call(`${bff.url}/search?q=alpha`)).status).toBe(503); // the 429: searches paused for 2 s

  // Visitors searching during the pause are told "busy" and leave.
  for (const q of ['bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']) {
    const answer = await call(`${bff.url}/search?q=${q}`);
    expect([answer.status, answer.json.error.code]).toEqual([503, 'busy']);
  }
  const beforeResume = stub.callsTo('search').length;

  // The pause ends (the clock moves past it; the bucket has refilled its burst), and the queue resumes.
  now += 3_000;
  await vi.waitFor(() => expect(bff.bff.searchStats().backgroundLoads).toBeGreaterThan(0), { timeout: 15_000 });

  // A new visitor arrives: answered with results, from the marketplace.
  const live = await call(`${bff.url}/search?q=coffee`);
  expect(live.status, JSON.stringify(live.json)).toBe(200);
  expect(live.json.results.map((r: { domain: string }) => r.domain)).toContain('coffeehouse.com');
  const after = stub.callsTo('search').slice(beforeResume);
  expect(after.some((c) => c.query.includes('q=coffee'))).toBe(true);
  // The departed visitors' queries took no more than the tokens a visitor could not have used: the burst is kept.
  expect(bff.bff.searchStats().backgroundLoads).toBeLessThanOrEqual(1);
});
