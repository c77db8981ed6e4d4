/**
 * Money, dates and rates as text for the element's locale (`Intl`). Amounts arrive in minor units (cents for USD).
 */

const ZERO_DECIMALS = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const THREE_DECIMALS = 'BHD IQD JOD KWD LYD OMR TND';

/** Decimal places of one major unit of `currency` (ISO 4217): 2 for USD, 0 for JPY, 3 for KWD. */
export function minorUnitExponent(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMALS.includes(code)) return 0;
  if (THREE_DECIMALS.includes(code)) return 3;
  return 2;
}

/** Marks a right-to-left number format starts with (U+200F RLM, U+061C ALM). */
const RTL_MARK = /[\u200f\u061c]/;

/**
 * `amountMinor` (integer minor units of `currency`) as a price for `locale`, e.g. `formatMoney(123450, 'USD', 'en')`
 * → `"$1,234.50"`. In a right-to-left format (Arabic: RLM, `1,234.50 US$`) the currency is isolated (U+2066 … U+2069,
 * Unicode bidi isolates), so `US$` stays one word beside the number and a minus stays on the number; without it a
 * browser shows `$-1,234.50 US`. Never throws: an unknown currency gives `"1234.50 XYZ"`.
 */
export function formatMoney(amountMinor: number, currency: string, locale?: string): string {
  const exponent = minorUnitExponent(currency);
  const major = amountMinor / 10 ** exponent;
  for (const tag of [locale || undefined, undefined]) {
    try {
      const parts = new Intl.NumberFormat(tag, { style: 'currency', currency }).formatToParts(major);
      const rtl = parts.some((p) => RTL_MARK.test(p.value));
      return parts.map((p) => (rtl && p.type === 'currency' ? `\u2066${p.value}\u2069` : p.value)).join('');
    } catch {
      // next
    }
  }
  return `${major.toFixed(exponent)} ${currency}`;
}

/** An ISO 8601 timestamp as a short date and time for `locale` (UTC, as the marketplace records it). */
export function formatDateTime(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale || undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(date);
  } catch {
    return iso;
  }
}

/** An ISO 8601 timestamp (or `YYYY-MM-DD`) as a short date for `locale`, in UTC. */
export function formatDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '';
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale || undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
  } catch {
    return iso;
  }
}

/** A count for `locale` (`1,234`). */
export function formatCount(value: number, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale || undefined).format(value);
  } catch {
    return String(value);
  }
}

/** A ratio (0.25) as a percentage for `locale` (`25%`). */
export function formatRate(value: number, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale || undefined, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  } catch {
    return `${Math.round(value * 1000) / 10}%`;
  }
}
