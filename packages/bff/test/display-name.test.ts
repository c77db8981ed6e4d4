/**
 * How the BFF names a domain to a person (src/http/display-name.ts; docs/spec-decisions.md, "Widget:
 * internationalised names shown in Unicode"): an IDN in Unicode when the display rule allows it, its ASCII form
 * otherwise, and `display_name` in an answer only when it differs from `domain`.
 */
import { describe, expect, it } from 'vitest';
import { named, toWidgetDomain } from '../src/http/widget.ts';
import { displayName } from '../src/http/display-name.ts';

describe('displayName', () => {
  it.each([
    ['xn--mnchen-3ya.de', 'münchen.de'],
    ['xn--caf-dma.com', 'café.com'],
    ['XN--BCHER-KVA.CH', 'bücher.ch'],
    ['xn--e1afmkfd.xn--p1ai', 'пример.рф'], // Cyrillic under a Cyrillic TLD
    ['xn--hxargifdar.gr', 'ελληνικά.gr'], // Greek, not all of it Latin lookalikes
    ['xn--mgbh0fb.xn--ngbrx', 'مثال.عرب'],
    ['xn--fiqs8s.cn', '中国.cn'],
    ['xn--wgv71a119e.jp', '日本語.jp'],
    ['xn--eckwd4c7c.xn--zckzah', 'ドメイン.テスト'], // Katakana
    ['xn--3e0b707e.xn--3e0b707e', '한국.한국'],
  ])('shows %s in Unicode: %s', (ascii, unicode) => {
    expect(displayName(ascii)).toBe(unicode);
  });

  it.each([
    ['coffee.com', 'an ASCII name'],
    ['xn--80ak6aa92e.com', 'Cyrillic letters that all look Latin ("аррӏе") under an ASCII TLD'],
    ['xn--pple-43d.com', 'Latin mixed with Cyrillic ("аpple")'],
    ['xn--ls8h.la', 'an emoji'],
    ['xn--abc.com', 'a label that is no valid Punycode'],
    ['xn--mnchen-3ya-.de', 'a label with a trailing hyphen'],
    ['xn--mnchen-psa.de', 'an upper-case letter ("mÜnchen"): UTS #46 maps it, so its ASCII form is another'],
    ['xn--a-ecp.com', 'a character UTS #46 maps away ("a⒈": ⒈ is "1.")'],
  ])('keeps %s in ASCII: %s', (ascii) => {
    expect(displayName(ascii)).toBe(ascii);
  });

  it('never throws, whatever it is given', () => {
    for (const odd of ['', '.', 'xn--', 'xn--.com', 'a..b', 'xn--zz-'.repeat(40), 'xn--mnchen-3ya.xn--']) {
      expect(() => displayName(odd)).not.toThrow();
    }
  });
});

describe('display_name in answers', () => {
  it('is added beside an IDN and left out for an ASCII name', () => {
    expect(named('xn--mnchen-3ya.de')).toEqual({ domain: 'xn--mnchen-3ya.de', display_name: 'münchen.de' });
    expect(named('coffee.com')).toEqual({ domain: 'coffee.com' });
    expect(named('xn--80ak6aa92e.com')).toEqual({ domain: 'xn--80ak6aa92e.com' });
    expect(
      toWidgetDomain({ domain: 'xn--mnchen-3ya.de', available: true, price_cents: 120_000, currency: 'USD' }),
    ).toEqual({
      domain: 'xn--mnchen-3ya.de',
      display_name: 'münchen.de',
      available: true,
      price_cents: 120_000,
      currency: 'USD',
    });
  });
});
