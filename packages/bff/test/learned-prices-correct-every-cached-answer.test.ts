/**
 * Every price the BFF learns for a domain (a quote, a checkout session, a domain detail, an order refused for its
 * price, another query's search answer) corrects at once every cached answer listing that domain, on every replica: no visitor is shown the old
 * price of a domain the BFF already knows was repriced (the marketplace sends no event for a reprice). No cached
 * query goes upstream again: the answers are corrected, not dropped. The clock moves only by hand. On PGlite (one
 * BFF), and on PostgreSQL with TEST_DATABASE_URL, where a second BFF on the same database shows the new price too,
 * both from its memory and from the shared answers.
 */
import { describe, expect, it, vi } from 'vitest';
import { testCardPayments } from '../src/index.ts';
import {
  call,
  databaseKinds,
  postJson,
  startTestBff,
  useDatabaseAndStub,
  type StubMarketplace,
  type TestBff,
} from './helpers.ts';

const X = 'coffeehouse.com';
const OLD = 250000;
const NEW = 275000;
/** How long a wait for another replica to catch up may take on a busy machine (a bound, not a timing). */
const WAIT = { timeout: 15_000 };

/** Ways the BFF learns X's new price, each through a request a visitor makes. */
const LEARNED: Array<[string, (bff: TestBff, stub: StubMarketplace) => Promise<void>]> = [
  [
    'a checkout session',
    async (bff) => expect((await postJson(`${bff.url}/checkout`, { domain: X })).status).toBe(201),
  ],
  ['a quote', async (bff) => expect((await postJson(`${bff.url}/quotes`, { domain: X })).json.price_cents).toBe(NEW)],
  ['a domain detail', async (bff) => expect((await call(`${bff.url}/domains/${X}`)).json.price_cents).toBe(NEW)],
  [
    'an order refused for its price',
    async (bff, stub) => {
      // A quote locked before the reprice: the marketplace refuses the order at it, and the BFF looks the price up.
      const expires = new Date(Date.now() + 600_000).toISOString();
      const old = { quote_id: 'qt_old.sig', domain: X, price_cents: OLD, currency: 'USD', expires_at: expires };
      stub.enqueue('quote', { status: 201, body: old });
      stub.enqueue('order', { status: 422, body: { error: { code: 'price_mismatch', message: 'the price changed' } } });
      const quote = await postJson(`${bff.url}/quotes`, { domain: X });
      const order = await postJson(`${bff.url}/orders`, {
        quote_id: quote.json.quote_id,
        buyer: { email: 'ada@example.com' },
        payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
      });
      expect([order.status, order.json.error.code, order.json.error.price_cents]).toEqual([422, 'price_mismatch', NEW]);
    },
  ],
  [
    'another query’s answer',
    async (bff) => {
      const house = await call(`${bff.url}/search?q=house`);
      expect(house.json.results).toContainEqual({ domain: X, available: true, price_cents: NEW, currency: 'USD' });
    },
  ],
];

describe.each(databaseKinds())('a price learned on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  async function replica(clock: { now: number }): Promise<TestBff> {
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      payments: testCardPayments(),
      background: { enabled: false },
      now: () => clock.now,
    });
    fx.closers.push(() => bff.close());
    return bff;
  }

  const priceOfX = async (bff: TestBff, q: string) => {
    const answer = await call(`${bff.url}/search?q=${q}`);
    return answer.json.results.find((r: { domain: string }) => r.domain === X)?.price_cents;
  };

  it.each(LEARNED)('through %s is shown by every query and replica', async (_how, learn) => {
    const clock = { now: Date.now() };
    const a = await replica(clock);
    const b = kind === 'postgres' ? await replica(clock) : undefined;
    expect(await priceOfX(a, 'coffee')).toBe(OLD);
    expect(await priceOfX(a, 'coffeehouse')).toBe(OLD);
    if (b !== undefined) {
      await b.bff.syncSearch();
      expect(await priceOfX(b, 'coffee')).toBe(OLD); // held in b's memory; `coffeehouse` stays in the shared answers
    }
    const searches = fx.stub.callsTo('search').length;

    fx.stub.reprice(X, NEW);
    clock.now += 1_000;
    await learn(a, fx.stub);

    expect(await priceOfX(a, 'coffee')).toBe(NEW);
    expect(await priceOfX(a, 'coffeehouse')).toBe(NEW);
    if (b !== undefined) {
      await vi.waitFor(async () => {
        await b.bff.syncSearch(); // done every second by itself
        expect(await priceOfX(b, 'coffee')).toBe(NEW);
      }, WAIT);
      expect(await priceOfX(b, 'coffeehouse')).toBe(NEW);
    }
    // A BFF started now fills its memory from the database: at the new price too.
    const later = await replica(clock);
    expect(await priceOfX(later, 'coffee')).toBe(NEW);
    expect(await priceOfX(later, 'coffeehouse')).toBe(NEW);
    // Corrected, not dropped: no cached query went upstream again.
    const learnedBySearch = _how === 'another query’s answer' ? 1 : 0;
    expect(fx.stub.callsTo('search').length).toBe(searches + learnedBySearch);
  });
});
