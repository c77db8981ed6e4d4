/**
 * What the issue must show, item 4 (on the embedded database; postgres-partner.test.ts shows two processes on one
 * PostgreSQL): rate limits per credential and class (Partner API spec 8) answer 429 `rate_limited` with `Retry-After`, after
 * which the call succeeds. The clock is injected: the test moves it instead of sleeping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import { RATE_CLASSES } from '../src/limits/partner.ts';
import { newPartner, startTestSandbox, type TestSandbox } from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(800);

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
});
afterAll(() => t?.stop());

describe('the documented budgets', () => {
  it('are Partner API spec 8 figures for search, writes and reporting', () => {
    expect(RATE_CLASSES.search.limit).toBe(60);
    expect(RATE_CLASSES.write.limit).toBe(20);
    expect(RATE_CLASSES.reporting.limit).toBe(30);
    for (const c of Object.values(RATE_CLASSES)) expect(c.windowSeconds).toBe(60);
  });
});

describe('search: 60 per minute per credential', () => {
  it('answers the 61st request 429 with Retry-After, and succeeds once that many seconds have passed', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    // The test clock runs on from real time, so the window opens somewhere during the first request: bracket it.
    let windowOpened: { from: number; to: number } | undefined;
    for (let i = 0; i < 60; i++) {
      const from = t.clock.now();
      const ok = await client.request({ path: `${V1}/domains/search`, query: { q: 'sun' } });
      windowOpened ??= { from, to: t.clock.now() };
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(59 - i));
    }
    t.clock.advance(20);
    const sentFrom = t.clock.now();
    const limited = await client.request({ path: `${V1}/domains/search`, query: { q: 'sun' } });
    const sentTo = t.clock.now();
    expect({ status: limited.status, code: limited.json.error.code }).toEqual({ status: 429, code: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    // Whole seconds until the window that opened with the first request closes (60 s later), rounded up.
    expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((windowOpened!.from + 60_000 - sentTo) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((windowOpened!.to + 60_000 - sentFrom) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(40);
    expect(limited.json.error.retry_after).toBe(retryAfter);

    t.clock.advance(retryAfter - 2);
    expect((await client.request({ path: `${V1}/domains/search`, query: { q: 'sun' } })).status).toBe(429);
    t.clock.advance(2);
    const again = await client.request({ path: `${V1}/domains/search`, query: { q: 'sun' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('59');
  });
});

describe('writes: 20 per minute, per credential and class', () => {
  it('limits quotes and orders together, leaves other classes and other credentials alone', async () => {
    const a = await newPartner(t.sandbox, t.clock);
    const b = await newPartner(t.sandbox, t.clock);
    for (let i = 0; i < 20; i++) {
      expect(
        (await a.client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[i]!.name } })).status,
      ).toBe(201);
    }
    const d = pool[30]!;
    const limited = await a.client.request({
      method: 'POST',
      path: `${V1}/orders`,
      headers: { 'Idempotency-Key': 'rl-1' },
      json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
    });
    expect({ status: limited.status, code: limited.json.error.code }).toEqual({ status: 429, code: 'rate_limited' });
    // The refused order stored nothing under its idempotency key.
    expect(
      await t.sandbox.db
        .selectFrom('idempotency_keys')
        .select('idem_key')
        .where('key_id', '=', a.credential.key_id)
        .execute(),
    ).toEqual([]);
    // Other classes of the same credential, and other credentials, are unaffected.
    expect((await a.client.request({ path: `${V1}/orders` })).status).toBe(200);
    expect((await a.client.request({ path: `${V1}/domains/search`, query: { q: 'tea' } })).status).toBe(200);
    expect(
      (await b.client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[31]!.name } })).status,
    ).toBe(201);

    t.clock.advance(Number(limited.headers.get('retry-after')));
    const retried = await a.client.request({
      method: 'POST',
      path: `${V1}/orders`,
      headers: { 'Idempotency-Key': 'rl-1' },
      json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
    });
    expect(retried.status).toBe(201);
  });
});

describe('reporting: 30 per minute', () => {
  it('limits settlements, transactions and payouts as one class', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    const paths = ['/settlements', '/transactions', '/payouts'];
    for (let i = 0; i < 30; i++) expect((await client.request({ path: `${V1}${paths[i % 3]}` })).status).toBe(200);
    const limited = await client.request({ path: `${V1}/transactions` });
    expect(limited.status).toBe(429);
    t.clock.advance(Number(limited.headers.get('retry-after')));
    expect((await client.request({ path: `${V1}/transactions` })).status).toBe(200);
  });
});
