/**
 * A visitor's query words never become index terms of the names its answer listed: only the words that occur in a
 * listing's own name are kept (de-duplicated, capped), so nobody can tie a word of their choice ("scam", a rival's
 * brand) to a listed name for the visitors later served from the listing index. Through the BFF on PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL (the index is read back from `bff_listings` by a BFF started afterwards).
 */
import { describe, expect, it } from 'vitest';
import { ListingIndex, MAX_LISTING_TERMS } from '../src/search/listing-index.ts';
import { call, databaseKinds, startTestBff, useDatabaseAndStub } from './helpers.ts';

describe('the listing index terms of a name', () => {
  it('keep only the query words found in the name, once each, at most MAX_LISTING_TERMS', () => {
    const index = new ListingIndex();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    index.add([
      {
        domain: 'coffee-house.com',
        available: true,
        price_cents: 1000,
        currency: 'USD',
        terms: ['scam', 'coffee', 'house', 'coffee', 'fee', ...words].join(' '),
        seenMs: 1,
      },
    ]);

    expect(index.search('scam', 5)).toEqual([]);
    expect(index.search('word7', 5)).toEqual([]);
    const [kept] = index.search('coffee', 5);
    expect(kept?.terms.split(' ')).toEqual(['coffee', 'house', 'fee']);
    const long = `${'ab'.repeat(30)}.com`;
    index.add([{ ...kept!, domain: long, terms: Array.from({ length: 30 }, (_, i) => 'ab'.repeat(i + 1)).join(' ') }]);
    expect(index.search('abab', 5)[0]?.terms.split(' ')).toHaveLength(MAX_LISTING_TERMS);
  });
});

describe.each(databaseKinds())('query words and the listing index on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  it('a visitor’s words absent from a name never bring it up for other visitors', async () => {
    const frozen = Date.now();
    const writer = await startTestBff(fx.stub, { database: fx.testDb.database, now: () => frozen });
    // The stub lists every name sharing a word with the query: each of these answers lists coffeehouse.com.
    for (let i = 0; i < 30; i++) {
      const answer = await call(`${writer.url}/search?q=${encodeURIComponent(`coffee scam${i}`)}`);
      expect(answer.json.results.map((r: { domain: string }) => r.domain)).toContain('coffeehouse.com');
    }
    await writer.close();

    // A BFF with two search tokens, started on what the first one stored: `scam7` can only be answered from its index.
    const reader = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      now: () => frozen,
      upstreamBudget: { search: { perMinute: 3, burst: 2 }, searchMaxWaitMs: 1_000 },
    });
    fx.closers.push(() => reader.close());
    await call(`${reader.url}/search?q=zzzz`);
    await call(`${reader.url}/search?q=yyyy`);

    const planted = await call(`${reader.url}/search?q=scam7`);
    expect(planted.text).not.toContain('coffeehouse.com');
    expect([planted.status, planted.json.error?.code]).toEqual([503, 'busy']);
    // The name's own words still find it.
    const own = await call(`${reader.url}/search?q=house`);
    expect([own.json.source, own.json.results.map((r: { domain: string }) => r.domain)]).toEqual([
      'index',
      ['coffeehouse.com'],
    ]);
    const stored = await fx.testDb.database.db
      .selectFrom('bff_listings')
      .select('terms')
      .where('domain', '=', 'coffeehouse.com')
      .executeTakeFirstOrThrow();
    expect(stored.terms).toBe('coffee');
  });
});
