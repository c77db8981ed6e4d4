/**
 * Price formatting: integer minor units (ISO 4217) to a string for the visitor's locale, with
 * `Intl.NumberFormat`. The only place in domainkit where money is turned into text (docs/architecture.md "Contracts").
 */

/**
 * The currencies whose ISO 4217 minor-unit exponent is not 2 (ISO 4217 list one), indexed by exponent. The
 * wire's minor units follow ISO 4217, so amounts are converted with this table; how many decimals are then
 * *displayed* is left to `Intl` (CLDR data), which is what visitors expect to read.
 */
const EXPONENTS = [
  'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  '',
  '',
  'BHD IQD JOD KWD LYD OMR TND',
  'CLF UYW',
];

/** Number of decimal places of one major unit of `currency` (2 for USD: 1 dollar = 100 cents). */
export function minorUnitExponent(currency: string): number {
  const code = currency.toUpperCase();
  const exponent = /^[A-Z]{3}$/.test(code) ? EXPONENTS.findIndex((codes) => codes.includes(code)) : -1;
  return exponent < 0 ? 2 : exponent;
}

/** The currency formats made so far, by locale tag and currency code (a page shows few of each). */
const formats = new Map<string, Intl.NumberFormat>();

/**
 * The format of `currency` amounts in `tag` (`undefined`: the browser's locale), made once: making one costs ten
 * times formatting with it (1 to 2 ms at 4x CPU slowdown), and every result row shows a price. Throws as
 * `Intl.NumberFormat` does for a malformed tag or currency code (nothing is kept then).
 */
function currencyFormat(tag: string | undefined, currency: string): Intl.NumberFormat {
  const key = `${tag ?? ''} ${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag, { style: 'currency', currency, trailingZeroDisplay: 'stripIfInteger' });
    formats.set(key, format);
  }
  return format;
}

/**
 * Formats a price given in minor units for display, e.g. `formatPrice(250000, 'USD', 'en-US')` → `"$2,500"`,
 * `formatPrice(1999, 'USD', 'en-US')` → `"$19.99"`, `formatPrice(123456, 'EUR', 'de-DE')` → `"1.234,56 €"`.
 * Whole amounts are shown without decimals.
 *
 * @param amountMinor integer amount in minor units of `currency` (cents for USD, yen for JPY).
 * @param currency ISO 4217 code, e.g. `USD`.
 * @param locale BCP 47 tag; `undefined` (or an invalid tag) uses the browser's locale.
 * @returns the formatted price; never throws: an unknown currency code gives `"<amount> <code>"`. In a
 *   right-to-left pattern the currency is isolated (see {@link isolate}), so `"US$"` never reads `"$US"`. Put the
 *   whole price in a `<bdi>` (or {@link isolate} it inside a sentence).
 */
export function formatPrice(amountMinor: number, currency: string, locale?: string): string {
  const exponent = minorUnitExponent(currency);
  const major = amountMinor / 10 ** exponent;
  // A malformed locale tag is the page's mistake, not the visitor's: fall back to the browser's locale. A
  // malformed currency code throws with any locale: plain text then.
  for (const tag of [locale, undefined]) {
    try {
      const parts = currencyFormat(tag, currency).formatToParts(major);
      // A right-to-left pattern (`ar`: "‏7,810 US$", its right-to-left mark first) read in a right-to-left line
      // would show "$US 7,810": its "$" joins the line's direction, away from "US". Isolated, "US$" stays whole.
      const rtl = /^[\u200f\u061c]/.test(parts[0]?.value ?? '');
      return parts.map(({ type, value }) => (rtl && type === 'currency' ? isolate(value) : value)).join('');
    } catch {
      // next
    }
  }
  return `${major.toFixed(exponent)} ${currency}`;
}

/**
 * `text` wrapped in FSI … PDI (U+2068 FIRST STRONG ISOLATE, U+2069 POP DIRECTIONAL ISOLATE; Unicode Bidirectional
 * Algorithm, UAX #9 X5c): the plain-text form of `<bdi>`, for a value put inside a sentence (a domain, a query, a
 * price). Its direction comes from its own first strong character and it cannot reorder the sentence around it:
 * `coffee.com` inside an Arabic sentence, or `٧٬٨١٠ US$` inside an English one, reads as written.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
