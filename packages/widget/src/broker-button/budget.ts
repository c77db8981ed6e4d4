/**
 * The budget a buyer types into `<dk-broker-button>`'s form, read into minor units. It refuses rather than guesses:
 * an amount it cannot read exactly is never rounded, nor read with other separators than the ones typed.
 */

/**
 * The largest budget the BFF takes, in minor units: `budget_cents` is a 32-bit integer (the protocol's `INT32_MAX`,
 * not imported: the widget's files carry none of the protocol's schemas).
 */
export const MAX_BUDGET_MINOR = 2_147_483_647;

/** Arabic-Indic (U+0660–0669) and extended Arabic-Indic (U+06F0–06F9) digits, read as their ASCII digits. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) & 0xf));
}

/** A number format of `lang` (the browser's language when undefined; English when the tag is malformed). */
function numberFormat(lang: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(lang, options);
  } catch {
    return new Intl.NumberFormat('en', options);
  }
}

/** The decimal and group separators of `lang` (the browser's language when undefined). */
function separators(lang: string | undefined): { decimal: string; group: string } {
  const parts = numberFormat(lang).formatToParts(12345.6);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

/**
 * Reads a typed budget as an amount in minor units (cents for USD), with the separators of the visitor's language:
 * `"1,500.50"` in English and `"1 500,50"` in French are both 150050 with exponent 2. Spaces are ignored, Arabic-Indic
 * digits and separators read as such, and `.` is a decimal point too where it does not group thousands (French,
 * Arabic).
 * @param typed - the field's value as typed.
 * @param exponent - the currency's minor-unit exponent (ISO 4217: 2 for USD, 0 for JPY).
 * @param lang - a BCP 47 language tag for the separators; the browser's when undefined.
 * @returns the amount in minor units (`Infinity` past what a number holds exactly: compare with
 *   {@link MAX_BUDGET_MINOR}), or `undefined` when `typed` is not an amount: empty, not figures, more decimals than
 *   the currency has (`"99.999"` in USD), or groups not of three digits (`"1,50"` in English).
 */
export function parseBudget(typed: string, exponent: number, lang: string | undefined): number | undefined {
  const { decimal, group } = separators(lang);
  // Arabic's own decimal (U+066B) and group (U+066C) separators read as the language's.
  const text = asciiDigits(typed)
    .replace(/\u066b/g, decimal)
    .replace(/\u066c/g, group)
    .replace(/[\s\u00a0\u202f]/g, '');
  const points = group === '.' ? [decimal] : [decimal, '.'];
  const at = Math.max(...points.map((p) => text.lastIndexOf(p)));
  const whole = at < 0 ? text : text.slice(0, at);
  const fraction = at < 0 ? '' : text.slice(at + 1);
  if (!/^\d*$/.test(fraction) || fraction.length > exponent) return undefined;
  // Thousands grouped with the language's separator (a space one is gone with the spaces): groups of three.
  const groups = /^[\s\u00a0\u202f]$/.test(group) ? [whole] : whole.split(group);
  if (
    !groups.every((g, i) => (i === 0 ? /^\d+$/.test(g) && (groups.length === 1 || g.length <= 3) : /^\d{3}$/.test(g)))
  )
    return undefined;
  const minor = Number(groups.join('')) * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
  return Number.isSafeInteger(minor) ? minor : Number.POSITIVE_INFINITY;
}

/**
 * An amount as the visitor's language writes it, for the message that asks for figures: 1,500.50 in English,
 * 1 500,50 in French (1,500 for a currency without minor units).
 * @param exponent - the currency's minor-unit exponent.
 * @param lang - a BCP 47 language tag; the browser's when undefined.
 */
export function budgetExample(exponent: number, lang: string | undefined): string {
  const digits = { minimumFractionDigits: exponent, maximumFractionDigits: exponent };
  return numberFormat(lang, digits).format(exponent === 0 ? 1500 : 1500.5);
}
