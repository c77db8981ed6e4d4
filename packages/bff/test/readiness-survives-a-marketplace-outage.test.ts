/**
 * Issue 26, finding 4: `/readyz` failed on any marketplace outage once its cached success expired (5 minutes), while
 * `/search` still answered from its cache, so every replica left the load balancer exactly when stale answers were
 * all the shop could serve. Readiness now tells "the credential is wrong" (503 with the reason) from "the marketplace
 * is down or unreachable" after a first success (200 `degraded` with the reason, and a metric).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, startStubMarketplace, startTestBff, type StubMarketplace, type TestBff } from './helpers.ts';

const SIX_MINUTES = 6 * 60_000;
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A stub and a BFF proving its credential, on a clock the test moves. */
async function start(): Promise<{ stub: StubMarketplace; bff: TestBff; later(ms: number): void }> {
  const stub = await startStubMarketplace();
  let now = Date.now();
  const bff = await startTestBff(stub, { checkCredential: true, metrics: true, now: () => now });
  open.push(stub, bff);
  return { stub, bff, later: (ms) => (now += ms) };
}

const failure = (status: number, code: string) => ({
  status,
  body: { error: { code, message: `${code} (test)`, request_id: `req_${code}` } },
});

describe('readiness while the marketplace is down', () => {
  it('stays 200 "degraded" with the reason when the marketplace is unreachable after a first success', async () => {
    const { stub, bff, later } = await start();
    expect((await call(`${bff.url}/readyz`)).json).toEqual({ status: 'ready', database: 'none' });
    const search = await call(`${bff.url}/search?q=coffee`);
    expect(search.status).toBe(200);

    await stub.close(); // the marketplace is gone: connections refused
    open.splice(open.indexOf(stub), 1);
    later(SIX_MINUTES);

    const ready = await call(`${bff.url}/readyz`);
    expect([ready.status, ready.json]).toEqual([200, { status: 'degraded', database: 'none', reason: 'unreachable' }]);
    expect((await call(`${bff.url}/search?q=coffee`)).status).toBe(200); // what the shop can still serve
    const metrics = await call(`${bff.url}/metrics`);
    expect(metrics.text).toMatch(/^domainkit_bff_degraded\{reason="unreachable"\} 1$/m);
  });

  it('stays 200 "degraded" when the marketplace answers 5xx after a first success', async () => {
    const { stub, bff, later } = await start();
    expect((await call(`${bff.url}/readyz`)).status).toBe(200);

    later(SIX_MINUTES);
    stub.enqueue('domain', failure(503, 'internal_error'), failure(503, 'internal_error'));

    const ready = await call(`${bff.url}/readyz`);
    expect([ready.status, ready.json]).toEqual([
      200,
      { status: 'degraded', database: 'none', reason: 'marketplace_error' },
    ]);
  });

  it('answers 503 with the reason when the credential stops working, whatever came before', async () => {
    const { stub, bff, later } = await start();
    expect((await call(`${bff.url}/readyz`)).status).toBe(200);

    later(SIX_MINUTES);
    stub.enqueue('domain', failure(401, 'invalid_signature'));
    const revoked = await call(`${bff.url}/readyz`);
    expect([revoked.status, revoked.json.error.code, revoked.json.error.reason]).toEqual([
      503,
      'unavailable',
      'invalid_signature',
    ]);

    later(SIX_MINUTES);
    stub.enqueue('checkout', failure(403, 'forbidden'));
    const scope = await call(`${bff.url}/readyz`);
    expect([scope.status, scope.json.error.reason]).toEqual([503, 'forbidden: scope embed missing']);
    const metrics = await call(`${bff.url}/metrics`);
    expect(metrics.text).not.toMatch(/^domainkit_bff_degraded\{[^}]*\} 1$/m);
  });

  it('answers 503 when the marketplace was never reached: nothing proves the credential yet', async () => {
    const stub = await startStubMarketplace();
    const url = stub.url;
    await stub.close();
    const bff = await startTestBff({ url } as StubMarketplace, { checkCredential: true });
    open.push(bff);

    const ready = await call(`${bff.url}/readyz`);
    expect([ready.status, ready.json.error.reason]).toEqual([503, 'unreachable']);
  });
});
