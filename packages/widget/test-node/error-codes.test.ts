/**
 * The widget's side of protocol's error-code list (`WIDGET_ERROR_CODES`): every code the BFF may answer is said
 * with a string of `DkStrings` (never the BFF's English message), its Retry follows the list's `retry` column, and
 * no code reads a string that is not an error message (`unavailable` must not show the "Taken" badge).
 */
import { WIDGET_ERROR_CODES, type WidgetErrorCode } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { defaultStrings } from '../src/default-strings.ts';
import { ar } from '../src/locales/ar.ts';
import { fr } from '../src/locales/fr.ts';
import { canRetry, errorMessage } from '../src/strings.ts';

const codes = Object.keys(WIDGET_ERROR_CODES) as WidgetErrorCode[];
/** The codes of a met limit: said with the time to wait (a sentence made by a string function). */
const LIMITS = new Set<string>(['rate_limited', 'busy']);

/** The strings that are error messages; a code must never be said with any other (a badge, a button...). */
const ERROR_KEYS = [
  'networkError',
  'serviceUnavailable',
  'offline',
  'invalidResponse',
  'upstreamTimeout',
  'queryTooLong',
  'validationError',
  'notFound',
  'conflict',
  'unknownError',
  'quoteExpired',
  'paymentDeclined',
] as const;
const NOT_ERRORS = new Set(
  Object.entries(defaultStrings)
    .filter(([key]) => !(ERROR_KEYS as readonly string[]).includes(key))
    .map(([, value]) => value),
);

describe('the widget says every BFF error code with its own strings', () => {
  it.each(codes.filter((code) => !LIMITS.has(code)))('%s: a string of DkStrings, never an unrelated one', (code) => {
    for (const strings of [defaultStrings, fr, ar]) {
      const shown = errorMessage({ code }, strings);
      expect(Object.values(strings)).toContain(shown);
      expect(NOT_ERRORS.has(shown), `${code} reads "${shown}"`).toBe(false);
    }
  });

  it.each(codes)('%s: Retry offered exactly when the list says a retry can help', (code) => {
    const { status, retry } = WIDGET_ERROR_CODES[code];
    expect(canRetry({ status })).toBe(retry);
  });

  it.each([...LIMITS])('%s: says when to try again, in each language, with or without a buying flow', (code) => {
    for (const strings of [defaultStrings, fr, ar]) {
      // With a buying flow loaded: its sentence with the BFF's Retry-After.
      expect(errorMessage({ code, retryAfter: 42 }, strings)).toBe(strings.rateLimitedFor(42));
      expect(errorMessage({ code, retryAfter: 42 }, strings)).toMatch(/42/);
      // The search alone (no buying flow's strings yet): the search's countdown sentence.
      const { rateLimitedFor: _, ...searchOnly } = strings;
      expect(errorMessage({ code, retryAfter: 7 }, searchOnly as typeof strings)).toBe(strings.busy(7));
      // No Retry-After at all: still a time (the search's 5 s), never "shortly".
      expect(errorMessage({ code }, strings)).toBe(strings.rateLimitedFor(5));
    }
    expect(errorMessage({ code, retryAfter: 3 }, defaultStrings)).toBe(
      'Busy right now. Please try again in 3 seconds.',
    );
  });

  it('an unknown code gets the generic message, in each language', () => {
    for (const strings of [defaultStrings, fr, ar])
      expect(errorMessage({ code: 'added_in_a_later_bff' }, strings)).toBe(strings.unknownError);
    expect(errorMessage({ code: 'constructor' }, defaultStrings)).toBe(defaultStrings.unknownError);
  });
});
