/**
 * The listing index under the churn of a replica that re-reads every listing others saw (search-service.ts sync):
 * the same domains added again and again, some dropped, while searches run; no background work may fail.
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ListingIndex, type SeenListing } from '../src/search/listing-index.ts';

function listing(i: number, seenMs: number): SeenListing {
  return {
    domain: `coffee${i}house.com`,
    available: true,
    price_cents: 1000 + i,
    currency: 'USD',
    // The words of the queries that listed it change as new queries list it (only `coffee` occurs in the name).
    terms: `coffee house${i % 7} q${seenMs}x${i % 13}`,
    seenMs,
  };
}

describe('the listing index', () => {
  it('keeps answering while the same listings are added again and again and some are dropped', async () => {
    const index = new ListingIndex();
    for (let round = 0; round < 6; round++) {
      for (let batch = 0; batch < 3_000; batch += 250) {
        index.add(Array.from({ length: 250 }, (_, j) => listing(batch + j, round)));
        if (round % 3 === 2) index.remove(`coffee${batch}house.com`);
        await yieldTurn(); // a turn of the event loop, as between two syncs
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(index.size).toBeGreaterThan(2_900);
    expect(index.search('coffee', 5)).toHaveLength(5);
    expect(index.search('coffee1234', 5).map((l) => l.domain)).toContain('coffee1234house.com');
    expect(index.search('house', 5)).toHaveLength(5);
    expect(index.search('house', 5).every((l) => l.terms === 'coffee')).toBe(true); // the name's words only
    expect(index.search('q0x1', 5)).toEqual([]); // a query word absent from the name is never a term of it
  });

  it('forgets a dropped domain', () => {
    const index = new ListingIndex();
    index.add([listing(1, 1), listing(2, 1)]);
    index.add([listing(1, 2)]);

    index.remove('coffee1house.com');

    expect(index.search('coffee1', 5).map((l) => l.domain)).toEqual([]);
    expect(index.search('coffee2', 5).map((l) => l.domain)).toEqual(['coffee2house.com']);
  });
});
