import { expect } from '@esm-bundle/chai';
import { formatPrice, minorUnitExponent } from './format.ts';

const NBSP = '\u00a0';

describe('formatPrice', () => {
  it('turns integer cents into dollars for en-US, without decimals for whole amounts', () => {
    expect(formatPrice(250000, 'USD', 'en-US')).to.equal('$2,500');
    expect(formatPrice(1999, 'USD', 'en-US')).to.equal('$19.99');
    expect(formatPrice(5, 'USD', 'en-US')).to.equal('$0.05');
  });

  it("follows the locale's separators and symbol position", () => {
    expect(formatPrice(123456, 'EUR', 'de-DE')).to.equal(`1.234,56${NBSP}€`);
    expect(formatPrice(250000, 'USD', 'fr-FR')).to.equal(`2${'\u202f'}500${NBSP}$US`);
  });

  it('isolates the currency of a right-to-left pattern, so "US$" never reads "$US" on a right-to-left line', () => {
    expect(formatPrice(781000, 'USD', 'ar')).to.equal(`\u200f7,810${NBSP}\u2068US$\u2069`);
    expect(formatPrice(781000, 'USD', 'en-GB'), 'left-to-right patterns unchanged').to.equal('US$7,810');
  });

  it('uses the ISO 4217 exponent of the currency (JPY has none, KWD has three)', () => {
    expect(minorUnitExponent('JPY')).to.equal(0);
    expect(minorUnitExponent('kwd')).to.equal(3);
    expect(minorUnitExponent('USD')).to.equal(2);
    expect(formatPrice(1500, 'JPY', 'en-US')).to.equal('¥1,500');
    expect(formatPrice(1250, 'KWD', 'en-US')).to.equal(`KWD${NBSP}1.250`);
  });

  it('never throws: an invalid locale falls back to the browser locale, an invalid currency to plain text', () => {
    expect(formatPrice(1999, 'USD', 'not a locale!')).to.equal(
      new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(19.99),
    );
    expect(formatPrice(1999, 'DOLLARS', 'en-US')).to.equal('19.99 DOLLARS');
  });
});
