import { expect } from '@esm-bundle/chai';
import { mmss } from './clock.ts';
import { highlight } from './highlight.ts';
import { LruCache } from './lru.ts';
import { FakeClock } from './test-support/fake-clock.ts';

describe('highlight', () => {
  it('marks every occurrence of each query word, case-insensitively, merging neighbours', () => {
    expect(highlight('coffeehouse.com', 'coffee house')).to.deep.equal([
      ['coffeehouse', true],
      ['.com', false],
    ]);
    expect(highlight('MyCoffee.app', 'coffee')).to.deep.equal([
      ['My', false],
      ['Coffee', true],
      ['.app', false],
    ]);
    expect(highlight('teatea.io', 'tea')).to.deep.equal([
      ['teatea', true],
      ['.io', false],
    ]);
  });

  it('marks nothing for a query that does not occur, or that is only punctuation', () => {
    expect(highlight('coffee.shop', 'tea')).to.deep.equal([['coffee.shop', false]]);
    expect(highlight('coffee.shop', ' - ')).to.deep.equal([['coffee.shop', false]]);
  });
});

describe('mmss', () => {
  it('formats a countdown, rounding up to the next second and never going below zero', () => {
    expect(mmss(600_000)).to.equal('10:00');
    expect(mmss(599_001)).to.equal('10:00');
    expect(mmss(598_999)).to.equal('09:59');
    expect(mmss(61_000)).to.equal('01:01');
    expect(mmss(-5)).to.equal('00:00');
  });
});

describe('LruCache', () => {
  it('keeps the most recently used entries and drops the least recently used one beyond its size', () => {
    const clock = new FakeClock();
    const cache = new LruCache<number>(2, 60_000, () => clock);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).to.equal(1); // a is now the most recent
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).to.deep.equal([1, undefined, 3]);
  });

  it('forgets entries older than its time-to-live, and everything on clear()', () => {
    const clock = new FakeClock();
    const cache = new LruCache<string>(5, 1000, () => clock);
    cache.set('a', 'x');
    clock.advance(999);
    expect(cache.get('a')).to.equal('x');
    clock.advance(1);
    expect(cache.get('a')).to.equal(undefined);
    cache.set('b', 'y');
    cache.clear();
    expect(cache.get('b')).to.equal(undefined);
  });
});
