/**
 * Two shops on one BFF database, one with a SANDBOX credential and one with a LIVE one (spec 1 "Environments": one
 * base URL, the credential selects the inventory), never answer from each other's search cache: not from memory,
 * not from the shared answers, not from the listing index, and an eviction in one leaves the other's answers
 * alone. Runs on PGlite (the second shop starts on the first one's data), and on PostgreSQL with TEST_DATABASE_URL,
 * where both run at once and read each other's writes every second.
 */
import { describe, expect, it } from 'vitest';
import {
  KEY_ID,
  LIVE_KEY_ID,
  LIVE_SECRET,
  call,
  databaseKinds,
  postJson,
  startTestBff,
  useDatabaseAndStub,
  type TestBff,
} from './helpers.ts';

const SANDBOX_COFFEE = ['coffeehouse.com', 'coffeeshop.io', 'coffee.net'];
const LIVE_COFFEE = [{ domain: 'coffeehouse.com', available: true, price_cents: 410000, currency: 'USD' }];

describe.each(databaseKinds())('the shared search cache with a SANDBOX and a LIVE shop on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);
  const clock = { now: Date.now() };

  async function shop(keyId: string, overrides: Parameters<typeof startTestBff>[1] = {}): Promise<TestBff> {
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      background: { enabled: false },
      now: () => clock.now,
      ...(keyId === LIVE_KEY_ID && {
        marketplace: { baseUrl: fx.stub.url, keyId: LIVE_KEY_ID, secret: LIVE_SECRET, maxRetries: 0 },
      }),
      ...overrides,
    });
    fx.closers.push(() => bff.close());
    return bff;
  }

  /** Upstream searches for `q` signed with `keyId`. */
  const searches = (keyId: string, q: string) =>
    fx.stub
      .callsTo('search')
      .filter((c) => c.headers['x-service-key-id'] === keyId && new URLSearchParams(c.query).get('q') === q).length;

  const names = (answer: { json: { results: Array<{ domain: string }> } }) => answer.json.results.map((r) => r.domain);

  it('neither shop ever answers the other one’s search', async () => {
    const sandbox = await shop(KEY_ID);
    expect(names(await call(`${sandbox.url}/search?q=coffee`))).toEqual(SANDBOX_COFFEE);

    // The LIVE shop starts on the database the SANDBOX shop already wrote its answer and listings to.
    const live = await shop(LIVE_KEY_ID);
    const liveCoffee = await call(`${live.url}/search?q=coffee`);
    expect(liveCoffee.json.results).toEqual(LIVE_COFFEE);
    expect(liveCoffee.headers['cache-status']).not.toBe('domainkit-bff; hit');
    expect(searches(LIVE_KEY_ID, 'coffee')).toBe(1);

    // The other way round, with both running: the SANDBOX shop reads the LIVE shop's writes, and keeps its own.
    expect(names(await call(`${live.url}/search?q=espresso`))).toEqual(['espressobar.com']);
    await sandbox.bff.syncSearch();
    await live.bff.syncSearch();
    expect((await call(`${sandbox.url}/search?q=espresso`)).json.results).toEqual([]);
    expect(searches(KEY_ID, 'espresso')).toBe(1);
    expect(names(await call(`${sandbox.url}/search?q=coffee`))).toEqual(SANDBOX_COFFEE);
    expect((await call(`${live.url}/search?q=coffee`)).json.results).toEqual(LIVE_COFFEE);
    expect(searches(KEY_ID, 'coffee')).toBe(1);
    expect(searches(LIVE_KEY_ID, 'coffee')).toBe(1);

    // A shop started later fills its memory and listing index from the database: with its own answers only.
    const liveAgain = await shop(LIVE_KEY_ID);
    expect((await call(`${liveAgain.url}/search?q=coffee`)).json.results).toEqual(LIVE_COFFEE);
    expect(searches(LIVE_KEY_ID, 'coffee')).toBe(1);
  });

  it('the listing index of one shop never offers the other one’s names', async () => {
    const sandbox = await shop(KEY_ID);
    expect(names(await call(`${sandbox.url}/search?q=coffeeshop`))).toEqual(['coffeeshop.io']);

    // Two search tokens: spent on `espresso` and `latte`, so `coffeeshop` can only be answered from the LIVE shop's
    // listing index.
    const live = await shop(LIVE_KEY_ID, {
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, searchMaxWaitMs: 1_000 },
    });
    expect(names(await call(`${live.url}/search?q=espresso`))).toEqual(['espressobar.com']);
    expect((await call(`${live.url}/search?q=latte`)).json.results).toEqual([]);
    await live.bff.syncSearch();
    const fromIndex = await call(`${live.url}/search?q=coffeeshop`);

    expect(fromIndex.text).not.toContain('coffeeshop.io');
    expect([fromIndex.status, fromIndex.json.error?.code]).toEqual([503, 'busy']);
  });

  it('a domain evicted in one shop leaves the other shop’s answers listing it alone', async () => {
    const sandbox = await shop(KEY_ID);
    const live = await shop(LIVE_KEY_ID);
    expect(names(await call(`${sandbox.url}/search?q=coffee`))).toEqual(SANDBOX_COFFEE);
    expect((await call(`${live.url}/search?q=coffee`)).json.results).toEqual(LIVE_COFFEE);

    // The SANDBOX marketplace says coffeehouse.com is sold: the SANDBOX shop drops its answers listing it.
    fx.stub.enqueue('checkout', {
      status: 409,
      body: { error: { code: 'conflict', message: 'coffeehouse.com is sold', request_id: 'req_cross0001' } },
    });
    expect((await postJson(`${sandbox.url}/checkout`, { domain: 'coffeehouse.com' })).status).toBe(409);
    await sandbox.bff.idle();
    await sandbox.bff.syncSearch();
    await live.bff.syncSearch();

    const liveCoffee = await call(`${live.url}/search?q=coffee`);
    expect(liveCoffee.json.results).toEqual(LIVE_COFFEE);
    expect(liveCoffee.headers['cache-status']).toBe('domainkit-bff; hit');
    expect(searches(LIVE_KEY_ID, 'coffee')).toBe(1);
    // A LIVE shop starting now still finds the LIVE answer in the database.
    const liveAgain = await shop(LIVE_KEY_ID);
    expect((await call(`${liveAgain.url}/search?q=coffee`)).json.results).toEqual(LIVE_COFFEE);
    expect(searches(LIVE_KEY_ID, 'coffee')).toBe(1);

    // The SANDBOX shop asks upstream again.
    expect(names(await call(`${sandbox.url}/search?q=coffee`))).toEqual(SANDBOX_COFFEE);
    expect(searches(KEY_ID, 'coffee')).toBe(2);
  });
});
