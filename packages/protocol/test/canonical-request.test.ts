import { describe, expect, it } from 'vitest';
import {
  EMPTY_BODY_SHA256,
  canonicalQuery,
  canonicalString,
  encodeComponent,
  parseQuery,
  sha256Hex,
} from '../src/index.ts';

describe('canonicalQuery (Partner API spec 5.1 "Canonical query")', () => {
  it.each([
    ['sorts by key, then by value', 'foo=b&foo=a', 'foo=a&foo=b'],
    ['sorts by byte order (uppercase before lowercase)', 'foo=Zoo&foo=aha', 'foo=Zoo&foo=aha'],
    ['keeps blank values', 'a=&b=1', 'a=&b=1'],
    ['gives a bare key a blank value', 'flag', 'flag='],
    ["encodes ! ' ( ) * too", "q=!'()*", 'q=%21%27%28%29%2A'],
    ['encodes a received %2B as a literal plus', 'q=a%2Bb', 'q=a%2Bb'],
    ['reads a received + as a literal plus, not a space', 'q=a+b', 'q=a%2Bb'],
    ['encodes a space as %20', 'q=a%20b', 'q=a%20b'],
    ['encodes UTF-8 with uppercase hex', '%E1%88%B4=bar', '%E1%88%B4=bar'],
    ['sorts before encoding', 'a=1&|=2', 'a=1&%7C=2'],
    ['sorts keys before values across pairs', 'b=1&a=2&a=1', 'a=1&a=2&b=1'],
    ['drops a leading ?', '?z=1&y=2', 'y=2&z=1'],
    ['leaves unreserved characters', 'k=A-Z_a.z~0', 'k=A-Z_a.z~0'],
  ])('%s: %s → %s', (_name, input, expected) => {
    expect(canonicalQuery(input)).toBe(expected);
  });

  it('encodes pairs given as values: a literal + becomes %2B and a space %20', () => {
    expect(canonicalQuery([['q', 'a+b c']])).toBe('q=a%2Bb%20c');
    expect(canonicalQuery({ ሴ: 'bar' })).toBe('%E1%88%B4=bar');
    expect(
      canonicalQuery(
        new URLSearchParams([
          ['flag', ''],
          ['a', '1'],
        ]),
      ),
    ).toBe('a=1&flag=');
  });

  it('is empty when there is no query', () => {
    expect(canonicalQuery()).toBe('');
    expect(canonicalQuery('')).toBe('');
    expect(canonicalQuery('?')).toBe('');
  });

  it('sorts by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF5E (EF BD 9E) sorts before U+1F600 (F0 9F 98 80) in UTF-8, but after it in UTF-16 code units.
    expect(
      canonicalQuery([
        ['k', '😀'],
        ['k', '～'],
      ]),
    ).toBe('k=%EF%BD%9E&k=%F0%9F%98%80');
  });

  it('refuses a malformed percent-escape', () => {
    expect(() => canonicalQuery('q=%zz')).toThrow(URIError);
  });

  it('parses pairs as received', () => {
    expect(parseQuery('a=1&&b&c=x=y')).toEqual([
      ['a', '1'],
      ['b', ''],
      ['c', 'x=y'],
    ]);
  });

  it('encodes components as RFC 3986 unreserved-only', () => {
    expect(encodeComponent("a b!'()*~")).toBe('a%20b%21%27%28%29%2A~');
  });
});

describe('canonicalString (Partner API spec 5.1 "Canonical string")', () => {
  it('joins exactly six lines with no trailing newline', async () => {
    const s = await canonicalString({
      method: 'post',
      path: '/api/partner/v1/orders',
      query: 'b=2&a=1',
      timestamp: 1700000000,
      nonce: '6f1c3e9a-0000-4000-8000-000000000000',
      body: '{"domain":"example.com"}',
    });
    expect(s.split('\n')).toEqual([
      'POST',
      '/api/partner/v1/orders',
      'a=1&b=2',
      '1700000000',
      '6f1c3e9a-0000-4000-8000-000000000000',
      await sha256Hex('{"domain":"example.com"}'),
    ]);
    expect(s.endsWith('\n')).toBe(false);
  });

  it('hashes an empty body as the SHA-256 of the empty string', async () => {
    expect(EMPTY_BODY_SHA256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('')).toBe(EMPTY_BODY_SHA256);
    expect(await sha256Hex(undefined)).toBe(EMPTY_BODY_SHA256);
    expect(await sha256Hex(new Uint8Array())).toBe(EMPTY_BODY_SHA256);
    const s = await canonicalString({ method: 'GET', path: '/api/partner/v1/pricing', timestamp: '1', nonce: 'n' });
    expect(s.split('\n')[5]).toBe(EMPTY_BODY_SHA256);
  });

  it('hashes the bytes as sent, whitespace included', async () => {
    expect(await sha256Hex('{"a":1}')).not.toBe(await sha256Hex('{ "a": 1 }'));
    expect(await sha256Hex(Buffer.from('é', 'utf8'))).toBe(await sha256Hex('é'));
  });

  it('refuses a path without a leading slash or with a query', async () => {
    await expect(
      canonicalString({ method: 'GET', path: 'api/partner/v1/pricing', timestamp: 1, nonce: 'n' }),
    ).rejects.toThrow(/begin with "\/"/);
    await expect(canonicalString({ method: 'GET', path: '/x?y=1', timestamp: 1, nonce: 'n' })).rejects.toThrow(/query/);
    await expect(canonicalString({ method: 'GET', path: '/x', timestamp: 1, nonce: 'a\nb' })).rejects.toThrow(
      /line break/,
    );
  });
});
