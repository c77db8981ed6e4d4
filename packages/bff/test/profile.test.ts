/**
 * The test profile (`profile: 'test'`, `DOMAINKIT_PROFILE=test`): a partner's e2e test can write many times in a
 * row where the production limits answer 503 `busy` (write burst 2) and 429 (10 writes a minute per visitor); it is
 * refused when NODE_ENV is production.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBff } from '../src/index.ts';
import { loadBffConfigFromEnv } from '../src/env.ts';
import { KEY_ID, SECRET, postJson, startStubMarketplace, startTestBff, type StubMarketplace } from './helpers.ts';

let stub: StubMarketplace | undefined;
let bff: Awaited<ReturnType<typeof startTestBff>> | undefined;
afterEach(async () => {
  await bff?.close();
  await stub?.close();
  bff = undefined;
  stub = undefined;
});

/** Statuses of `n` checkouts in a row from one visitor. */
async function checkouts(n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++)
    statuses.push((await postJson(`${bff!.url}/checkout`, { domain: 'coffeehouse.com' })).status);
  return statuses;
}

describe('the test profile', () => {
  it('lets 12 writes in a row through where the production limits refuse them', async () => {
    stub = await startStubMarketplace();
    bff = await startTestBff(stub, { visitorLimits: undefined, upstreamBudget: { maxWaitMs: 0 } });
    const production = await checkouts(12);
    // The production write burst (5) goes through; the rest are refused at once.
    expect(production.slice(0, 5)).toEqual(Array(5).fill(201));
    expect(production.slice(5).every((s) => s === 503 || s === 429)).toBe(true);
    await bff.close();

    bff = await startTestBff(stub, { visitorLimits: undefined, upstreamBudget: { maxWaitMs: 0 }, profile: 'test' });
    expect(await checkouts(12)).toEqual(Array(12).fill(201));
  });

  it('is refused when NODE_ENV is production, from options and from the environment', () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(() =>
        createBff({ marketplace: { baseUrl: 'https://m.example', keyId: KEY_ID, secret: SECRET }, profile: 'test' }),
      ).toThrow(/profile: "test"` is refused when NODE_ENV is "production"/);
      expect(() =>
        loadBffConfigFromEnv({
          NODE_ENV: 'production',
          DOMAINKIT_API_BASE_URL: 'https://m.example',
          DOMAINKIT_KEY_ID: KEY_ID,
          DOMAINKIT_API_SECRET: SECRET,
          DOMAINKIT_PROFILE: 'test',
        }),
      ).toThrow(/DOMAINKIT_PROFILE.*refused when NODE_ENV=production/s);
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});
