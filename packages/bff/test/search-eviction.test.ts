/**
 * A sold domain leaves the search cache at once: whenever the BFF learns a domain may no longer be for sale (it
 * records an MoR order for it, upstream answers 409 or 404 for a quote or checkout session naming it, a webhook
 * event names it, its detail answers unavailable, the buyer comes back from a hosted checkout with a verified sale of
 * it), the next search listing it goes upstream instead of showing it available from the cache; searches not listing
 * it stay cached. The clock never moves: only the eviction can make the next search go upstream. Runs on PGlite, and
 * on PostgreSQL with TEST_DATABASE_URL, where two BFFs share the database: a sale learned by one evicts on both.
 */
import { signCheckoutReturn } from '@domainkit/protocol';
import { describe, expect, it, vi } from 'vitest';
import { testCardPayments } from '../src/index.ts';
import { SECRET, call, databaseKinds, postJson, startTestBff, useDatabaseAndStub } from './helpers.ts';

const X = 'coffeehouse.com';
const WEBHOOK_SECRET = 'whsec_test_EvictionWebhookSecret01';
/** How long a wait for another replica to catch up may take on a busy machine (a bound, not a timing). */
const WAIT = { timeout: 15_000 };

/** The signed query the lander appends to `return_url` after a hosted checkout sold `domain` (at `nowMs`). */
async function checkoutReturnQuery(domain: string, nowMs: number): Promise<string> {
  return (
    await signCheckoutReturn(SECRET, {
      checkout_session_id: 'cs_evict0001',
      status: 'paid',
      domain,
      price_cents: 250000,
      currency: 'USD',
      ts: Math.floor(nowMs / 1000),
    })
  ).toString();
}

/** A webhook event saying `domain` was bought. */
function orderRecorded(domain: string) {
  return {
    id: 'evt_90001',
    type: 'order.recorded',
    created_at: '2030-01-01T00:00:01.000Z',
    partner_id: 'prt_stub',
    data: {
      order: { public_id: 'ord_9001', domain, status: 'EXTERNALLY_PAID', sale_price_cents: 250000, currency: 'USD' },
    },
  };
}

/** The stub's upstream search answer once X is sold. */
const SOLD_ANSWER = {
  status: 200,
  body: {
    domains: [{ domain: X, tld: 'com', available: false, price_cents: 250000, currency: 'USD' }],
    next_cursor: null,
  },
};

function conflict(message: string) {
  return { status: 409, body: { error: { code: 'conflict', message, request_id: 'req_evict0001' } } };
}

describe.each(databaseKinds())('search cache eviction on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  /** A MoR BFF with a webhook receiver and a frozen clock; no background work. */
  async function shop() {
    const frozen = Date.now(); // quotes expire on the stub's real clock: freeze the BFF's at the real now
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      payments: testCardPayments(),
      webhook: { secret: WEBHOOK_SECRET },
      background: { enabled: false },
      now: () => frozen,
    });
    fx.closers.push(() => bff.close());
    return bff;
  }

  const searchesFor = (q: string) =>
    fx.stub.callsTo('search').filter((c) => new URLSearchParams(c.query).get('q') === q).length;

  /** Caches a search listing X (available) and one not listing it; queues X's sold answer for the next search. */
  async function warm(url: string) {
    const listing = await call(`${url}/search?q=coffeehouse`);
    expect(listing.json.results).toEqual([{ domain: X, available: true, price_cents: 250000, currency: 'USD' }]);
    const other = await call(`${url}/search?q=coffeeshop`);
    expect(other.json.results.map((r: { domain: string }) => r.domain)).toEqual(['coffeeshop.io']);
    // Both answers are cached: asking again does not reach upstream.
    await call(`${url}/search?q=coffeehouse`);
    await call(`${url}/search?q=coffeeshop`);
    expect([searchesFor('coffeehouse'), searchesFor('coffeeshop')]).toEqual([1, 1]);
    fx.stub.enqueue('search', SOLD_ANSWER);
  }

  /** The next search listing X goes upstream and shows it sold; the other search is still served from the cache. */
  async function expectEvicted(url: string) {
    const again = await call(`${url}/search?q=coffeehouse`);
    expect(again.status).toBe(200);
    expect(again.json.results).toEqual([{ domain: X, available: false, price_cents: 250000, currency: 'USD' }]);
    expect(searchesFor('coffeehouse')).toBe(2);
    const other = await call(`${url}/search?q=coffeeshop`);
    expect(other.json.results.map((r: { domain: string }) => r.domain)).toEqual(['coffeeshop.io']);
    expect(searchesFor('coffeeshop')).toBe(1);
  }

  it('an MoR order for the domain recorded through the BFF drops the cached searches listing it', async () => {
    const bff = await shop();
    await warm(bff.url);

    const quote = await postJson(`${bff.url}/quotes`, { domain: X });
    expect(quote.status).toBe(201);
    const order = await postJson(`${bff.url}/orders`, {
      quote_id: quote.json.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    });
    expect(order.status).toBe(201);
    expect(fx.stub.deliveries).toEqual([]); // no webhook registered: only the order itself can have evicted

    await expectEvicted(bff.url);
  });

  it('a 409 conflict upstream for a quote naming the domain drops the cached searches listing it', async () => {
    const bff = await shop();
    await warm(bff.url);
    fx.stub.enqueue('quote', conflict(`${X} is sold`));

    const quote = await postJson(`${bff.url}/quotes`, { domain: 'CoffeeHouse.com' });
    expect(quote.status).toBe(409);
    expect(quote.json.error.code).toBe('conflict');

    await expectEvicted(bff.url);
  });

  it('a 409 conflict upstream for a checkout session naming the domain drops the cached searches listing it', async () => {
    const bff = await shop();
    await warm(bff.url);
    fx.stub.enqueue('checkout', conflict(`${X} is reserved`));

    const checkout = await postJson(`${bff.url}/checkout`, { domain: X });
    expect(checkout.status).toBe(409);

    await expectEvicted(bff.url);
  });

  it('a stored webhook event naming the domain drops the cached searches listing it', async () => {
    const bff = await shop();
    await warm(bff.url);
    fx.stub.webhook = { url: `${bff.url}/webhooks`, secret: WEBHOOK_SECRET };

    expect(await fx.stub.deliver(orderRecorded(X))).toBe(200);

    await expectEvicted(bff.url);
  });

  it('a verified return from a hosted checkout that sold the domain drops the cached searches listing it', async () => {
    const bff = await shop();
    await warm(bff.url);
    const forged = await call(
      `${bff.url}/checkout/return?${(await checkoutReturnQuery(X, Date.now())).replace('sig=', 'sig=0')}`,
    );
    expect(forged.status).toBe(400);
    expect(searchesFor('coffeehouse')).toBe(1);
    expect((await call(`${bff.url}/search?q=coffeehouse`)).json.results[0].available).toBe(true); // a forgery evicts nothing

    const back = await call(`${bff.url}/checkout/return?${await checkoutReturnQuery(X, Date.now())}`);
    expect([back.status, back.json.domain]).toEqual([200, X]);

    await expectEvicted(bff.url);
  });

  it('GET /domains/:name answering unavailable drops the cached searches listing it', async () => {
    const bff = await shop();
    await warm(bff.url);
    fx.stub.enqueue('domain', {
      status: 200,
      body: {
        domain: X,
        tld: 'com',
        available: false,
        price_cents: 250000,
        currency: 'USD',
        words: ['coffee', 'house'],
        listed_at: '2025-01-02T03:04:05Z',
        status: 'sold',
      },
    });

    const detail = await call(`${bff.url}/domains/${X}`);
    expect(detail.json).toEqual({ domain: X, available: false, price_cents: 250000, currency: 'USD' });

    await expectEvicted(bff.url);
  });

  it('an available domain detail and a quote that succeeds keep the cached searches', async () => {
    const bff = await shop();
    await warm(bff.url);

    expect((await call(`${bff.url}/domains/${X}`)).json.available).toBe(true);
    expect((await postJson(`${bff.url}/quotes`, { domain: X })).status).toBe(201);

    const again = await call(`${bff.url}/search?q=coffeehouse`);
    expect(again.json.results[0].available).toBe(true);
    expect(searchesFor('coffeehouse')).toBe(1);
  });
});

describe.each(databaseKinds().filter((k) => k === 'postgres'))(
  'search cache eviction on every replica (%s)',
  (kind) => {
    const fx = useDatabaseAndStub(kind);

    /** Two BFFs on one database, each with its own in-memory layer, both having answered a search listing X. */
    async function replicas() {
      const clock = { now: Date.now() }; // moved by hand: only an eviction can make a search go upstream
      const options = {
        database: fx.testDb.database,
        payments: testCardPayments(),
        webhook: { secret: WEBHOOK_SECRET },
        background: { enabled: false },
        now: () => clock.now,
      };
      const a = await startTestBff(fx.stub, options);
      const b = await startTestBff(fx.stub, options);
      fx.closers.push(
        () => a.close(),
        () => b.close(),
      );
      for (const bff of [a, b, a, b]) {
        const listing = await call(`${bff.url}/search?q=coffeehouse`);
        expect(listing.json.results).toEqual([{ domain: X, available: true, price_cents: 250000, currency: 'USD' }]);
      }
      expect(fx.stub.callsTo('search')).toHaveLength(1); // b answered from a's answer; both now hold it in memory
      fx.stub.enqueue('search', SOLD_ANSWER);
      return { a, b, clock };
    }

    /** Neither replica answers the stale listing any more: the sold answer is fetched once and shown by both. */
    async function expectEvictedOnBoth(
      a: { url: string; bff: { syncSearch(): Promise<void> } },
      b: typeof a,
      clock: { now: number },
    ) {
      clock.now += 1_000; // the answer fetched after the sale is newer than the sale (a frozen clock would tie them)
      const sold = [{ domain: X, available: false, price_cents: 250000, currency: 'USD' }];
      await vi.waitFor(async () => {
        await Promise.all([a.bff.syncSearch(), b.bff.syncSearch()]); // each does it every second by itself
        expect((await call(`${b.url}/search?q=coffeehouse`)).json.results).toEqual(sold);
      }, WAIT);
      expect((await call(`${a.url}/search?q=coffeehouse`)).json.results).toEqual(sold);
      expect(fx.stub.callsTo('search')).toHaveLength(2);
    }

    it('a webhook event stored by one replica', async () => {
      const { a, b, clock } = await replicas();
      fx.stub.webhook = { url: `${a.url}/webhooks`, secret: WEBHOOK_SECRET };
      expect(await fx.stub.deliver(orderRecorded(X))).toBe(200);
      await expectEvictedOnBoth(a, b, clock);
    });

    it('a 409 conflict upstream for a quote on one replica', async () => {
      const { a, b, clock } = await replicas();
      fx.stub.enqueue('quote', conflict(`${X} is sold`));
      expect((await postJson(`${a.url}/quotes`, { domain: X })).status).toBe(409);
      await expectEvictedOnBoth(a, b, clock);
    });

    it('a 404 upstream for a checkout session on one replica', async () => {
      const { a, b, clock } = await replicas();
      fx.stub.enqueue('checkout', {
        status: 404,
        body: { error: { code: 'not_found', message: `${X} is not listed`, request_id: 'req_evict0002' } },
      });
      expect((await postJson(`${a.url}/checkout`, { domain: X })).status).toBe(404);
      await expectEvictedOnBoth(a, b, clock);
    });

    it('a verified checkout return on one replica', async () => {
      const { a, b, clock } = await replicas();
      expect((await call(`${a.url}/checkout/return?${await checkoutReturnQuery(X, Date.now())}`)).status).toBe(200);
      await expectEvictedOnBoth(a, b, clock);
    });
  },
);
