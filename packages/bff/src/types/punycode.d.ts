/**
 * Types of `punycode.js` (npm; Punycode, RFC 3492, and IDNA's label conversions, RFC 5891), the part the BFF uses.
 * The package ships none; `@types/punycode` types Node's deprecated built-in `punycode` module instead.
 */
declare module 'punycode.js' {
  /**
   * A domain name with each `xn--` label decoded to Unicode (`xn--mnchen-3ya.de` → `münchen.de`); other labels as
   * they are. Throws a `RangeError` for a label that is no valid Punycode.
   */
  function toUnicode(domain: string): string;
  const punycode: { toUnicode: typeof toUnicode };
  export default punycode;
}
