/// <reference path="../types/punycode.d.ts" />
/**
 * How the BFF names a domain to a person (docs/spec-decisions.md, "Widget: internationalised names shown in
 * Unicode"): an internationalised name (IDNA, RFC 5890) is shown in Unicode, `münchen.de` for `xn--mnchen-3ya.de`,
 * while its ASCII form stays the name every request and the marketplace use. A name is shown in Unicode only when
 * each of its labels passes all of:
 *
 * 1. **Valid**: its Unicode form maps back to the very same ASCII form under UTS #46 (WHATWG URL's host parser,
 *    which every BFF runtime has), so a malformed or non-canonical `xn--` label stays ASCII;
 * 2. **Letters, marks, digits and hyphens only**: no symbol, emoji or punctuation;
 * 3. **One script** (UTS #39 "Highly Restrictive"): all its letters in one of the Recommended Scripts of UAX #31
 *    (Table 4), or Latin with Han and Hiragana/Katakana (Japanese), Han and Bopomofo (Chinese) or Han and Hangul
 *    (Korean); characters common to all scripts (digits, the hyphen) go with any;
 * 4. **No whole-script lookalike**: a label in Cyrillic or Greek letters that all look like Latin letters
 *    (`аррӏе` in Cyrillic reads as "apple") is shown in Unicode only under a TLD that is not ASCII.
 *
 * Otherwise the whole name is shown in its ASCII form, as browsers show such hosts in their address bar.
 */
import punycode from 'punycode.js';

/** UAX #31 Table 4, the Recommended Scripts: those in everyday use for identifiers. */
const RECOMMENDED_SCRIPTS = [
  'Arabic',
  'Armenian',
  'Bengali',
  'Bopomofo',
  'Cyrillic',
  'Devanagari',
  'Ethiopic',
  'Georgian',
  'Greek',
  'Gujarati',
  'Gurmukhi',
  'Han',
  'Hangul',
  'Hebrew',
  'Hiragana',
  'Kannada',
  'Katakana',
  'Khmer',
  'Lao',
  'Latin',
  'Malayalam',
  'Myanmar',
  'Oriya',
  'Sinhala',
  'Tamil',
  'Telugu',
  'Thaana',
  'Thai',
  'Tibetan',
] as const;

/** The script sets a label may be written in (UTS #39 5.2, Highly Restrictive), each as a whole-label pattern. */
const SCRIPT_SETS: readonly RegExp[] = [
  ...RECOMMENDED_SCRIPTS.map((script) => [script]),
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
].map(
  (scripts) => new RegExp(`^[${scripts.map((s) => `\\p{sc=${s}}`).join('')}\\p{sc=Common}\\p{sc=Inherited}]+$`, 'u'),
);

/** Letters, combining marks, decimal digits and the hyphen: what a label shown in Unicode may hold. */
const LABEL_CHARACTERS = /^[\p{L}\p{M}\p{Nd}-]+$/u;

/**
 * Cyrillic and Greek letters that look like a Latin lowercase letter in common fonts (а c ԁ е һ і ј к ӏ о р ԛ г
 * ѕ ԝ х у ү ь п; α ε γ ι κ ν ο ρ τ υ χ), with digits and the hyphen: a label made of these alone, with at least one
 * of them, can pass for a Latin one.
 */
const LATIN_LOOKALIKE = /^(?=.*[^a-z0-9-])[асԁеһіјкӏорԛгѕԝхуүьпαεγικνορτυχ0-9-]+$/u;

/** Whether `label` (lowercase, Unicode) may be shown as it is (rules 2 and 3; rule 4 needs the TLD). */
function readable(label: string): boolean {
  return LABEL_CHARACTERS.test(label) && SCRIPT_SETS.some((set) => set.test(label));
}

/** The ASCII form of a host name by UTS #46 (WHATWG URL), or `undefined` when it is no valid host name. */
function asciiOf(name: string): string | undefined {
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * `domain` (its ASCII form, as the marketplace names it) as a person should read it: in Unicode when it is an
 * internationalised name that passes the display rule above (`xn--mnchen-3ya.de` → `münchen.de`), else `domain`
 * itself (every ASCII name, and an IDN shown in Unicode could mislead). Never throws.
 */
export function displayName(domain: string): string {
  const ascii = domain.toLowerCase();
  if (!ascii.includes('xn--')) return domain;
  let unicode: string;
  try {
    unicode = punycode.toUnicode(ascii);
  } catch {
    return domain;
  }
  if (unicode === ascii || asciiOf(unicode) !== ascii) return domain;
  const labels = unicode.split('.');
  const asciiTld = /^[a-z0-9-]*$/.test(labels[labels.length - 1]!);
  const shown = labels.every((label) => readable(label) && !(asciiTld && LATIN_LOOKALIKE.test(label)));
  return shown ? unicode : domain;
}
