/**
 * The synthetic inventory and the search query analysis, without a server.
 */
import { describe, expect, it } from 'vitest';
import { generateInventory, INVENTORY_SIZE } from '../src/index.ts';
import { analyseQuery } from '../src/inventory/catalog.ts';
import { WORDS, WORD_SET } from '../src/inventory/words.ts';

describe('generateInventory', () => {
  const sandbox = generateInventory({ environment: 'SANDBOX' });

  it('gives a few thousand unique names over real TLDs', () => {
    expect(sandbox).toHaveLength(INVENTORY_SIZE.SANDBOX);
    expect(INVENTORY_SIZE.SANDBOX).toBeGreaterThanOrEqual(2000);
    expect(new Set(sandbox.map((d) => d.name)).size).toBe(sandbox.length);
    const tlds = new Set(sandbox.map((d) => d.tld));
    for (const tld of ['com', 'net', 'org', 'io', 'co', 'dev', 'app', 'ai', 'shop', 'store'])
      expect(tlds).toContain(tld);
  });

  it('builds every label from one or two real words', () => {
    for (const d of sandbox) {
      expect(d.words.length === 1 || d.words.length === 2).toBe(true);
      expect(d.words.every((w) => WORD_SET.has(w))).toBe(true);
      expect(d.label).toBe(d.words.join(''));
      expect(d.name).toBe(`${d.label}.${d.tld}`);
    }
    expect(sandbox.some((d) => d.words.length === 1)).toBe(true);
    expect(sandbox.some((d) => d.words.length === 2)).toBe(true);
  });

  it('prices in whole dollars between $500 and $25,000, with the floor below the buy-now price', () => {
    for (const d of sandbox) {
      expect(d.price_cents % 100).toBe(0);
      expect(d.floor_price_cents % 100).toBe(0);
      expect(d.price_cents).toBeGreaterThanOrEqual(50_000);
      expect(d.price_cents).toBeLessThanOrEqual(2_500_000);
      expect(d.floor_price_cents).toBeGreaterThan(0);
      expect(d.floor_price_cents).toBeLessThan(d.price_cents);
    }
  });

  it('is deterministic from the seed', () => {
    expect(generateInventory({ environment: 'SANDBOX', seed: 42 })).toEqual(
      generateInventory({ environment: 'SANDBOX', seed: 42 }),
    );
    const a = generateInventory({ environment: 'SANDBOX', seed: 42 }).map((d) => d.name);
    const b = generateInventory({ environment: 'SANDBOX', seed: 43 }).map((d) => d.name);
    expect(a).not.toEqual(b);
  });

  it('gives LIVE a separate, smaller inventory', () => {
    const live = generateInventory({ environment: 'LIVE' });
    expect(live.length).toBe(INVENTORY_SIZE.LIVE);
    expect(live.length).toBeLessThan(sandbox.length);
    expect(live.slice(0, 20).map((d) => d.name)).not.toEqual(sandbox.slice(0, 20).map((d) => d.name));
  });
});

describe('the word list', () => {
  it('holds a few hundred unique lowercase words', () => {
    expect(WORDS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(WORDS).size).toBe(WORDS.length);
    for (const w of WORDS) expect(w).toMatch(/^[a-z]{3,8}$/);
  });
});

describe('analyseQuery', () => {
  it('recognises a domain name and splits words', () => {
    expect(analyseQuery('Coffee-House.IO')).toMatchObject({
      label: 'coffeehouse',
      tld: 'io',
      words: ['coffee', 'house'],
    });
    expect(analyseQuery('coffeehouse')).toMatchObject({
      label: 'coffeehouse',
      tld: undefined,
      words: ['coffee', 'house'],
    });
    expect(analyseQuery('  green   tea ')).toMatchObject({ label: 'greentea', words: ['green', 'tea'] });
  });

  it('reads an internationalised name in either form as one name, its words without accents', () => {
    expect(analyseQuery('xn--mnchen-3ya.de')).toMatchObject({ label: 'xn--mnchen-3ya', tld: 'de', terms: ['munchen'] });
    expect(analyseQuery('münchen').terms).toEqual(['munchen']);
    expect(analyseQuery('xn--caf-dma shop')).toMatchObject({ words: ['cafe', 'shop'], terms: ['cafe', 'shop'] });
  });

  it('yields no term for a query without letters or digits', () => {
    expect(analyseQuery('!!! ...').terms).toEqual([]);
  });
});
