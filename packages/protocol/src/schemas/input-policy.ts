/**
 * The input policy of every trust boundary (sandbox, BFF, client), declared once here (docs/spec-decisions.md
 * "Input policy, limits and timeouts"):
 *
 * - **Text** holds no NUL, no other C0 control character (U+0000–U+001F) and no DEL (U+007F), except tab, line feed
 *   and carriage return where a field documents multi-line text, and no unpaired UTF-16 surrogate (it cannot be
 *   stored as UTF-8 without being replaced). Such input is refused with 400 `validation_error` naming the field.
 * - **Integers** are bounded to what storage holds: {@link INT32_MAX} for `integer` columns, with a message giving
 *   the range.
 * - **Dates** are bounded to years 0001–9999 (what ISO 8601 without expansion and PostgreSQL `timestamptz` share).
 * - **URLs** are parsed and their host validated: DNS labels of 1–63 characters, at most 253 in all (RFC 1035
 *   2.3.4), or an IP literal.
 *
 * Cursors are verified by the server that issued them (signed or checked); malformed percent-escapes in a path are
 * refused by each server's router.
 */
import { z } from 'zod';

/** Largest value of a PostgreSQL `integer` (32-bit signed) column. */
export const INT32_MAX = 2_147_483_647;

/** Earliest and latest instants a date field accepts: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z. */
export const DATE_RANGE = {
  min: Date.parse('0001-01-01T00:00:00.000Z'),
  max: Date.parse('9999-12-31T23:59:59.999Z'),
} as const;

/** What is wrong with a text value, or `undefined` when it follows the policy. */
export function textProblem(value: string, options: { multiline?: boolean } = {}): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) {
      if (options.multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      const name = c === 0 ? 'a NUL character' : 'a control character';
      return `must not contain ${name} (U+${c.toString(16).toUpperCase().padStart(4, '0')} at position ${i})`;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `must not contain an unpaired UTF-16 surrogate (at position ${i})`;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return `must not contain an unpaired UTF-16 surrogate (at position ${i})`;
  }
  return undefined;
}

/** A value somewhere in a parsed input that breaks the text policy: its field path (`buyer.name`) and the problem. */
export interface TextViolation {
  readonly field: string;
  readonly problem: string;
}

/**
 * Walks a parsed input (query object, JSON body, form) and returns the first string, key included, that breaks
 * the text policy, or `undefined`. Depth and breadth are bounded by the body limits of the servers.
 * @param root - how the top level is named in the field path (`''` for a body, `query` for a query string).
 * @param options.multiline - allow tab, line feed and carriage return in values (fields that document them, such as
 *   a search query where they count as spaces).
 */
export function findTextViolation(
  value: unknown,
  root = '',
  options: { multiline?: boolean } = {},
): TextViolation | undefined {
  const join = (base: string, key: string | number) =>
    typeof key === 'number' ? `${base}[${key}]` : base === '' ? key : `${base}.${key}`;
  const walk = (v: unknown, path: string, depth: number): TextViolation | undefined => {
    if (typeof v === 'string') {
      const problem = textProblem(v, options);
      return problem === undefined ? undefined : { field: path || 'the body', problem };
    }
    if (depth > 64 || typeof v !== 'object' || v === null) return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], join(path, i), depth + 1);
        if (found) return found;
      }
      return undefined;
    }
    for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
      const keyProblem = textProblem(key);
      if (keyProblem !== undefined)
        return { field: path || 'the body', problem: `has a field name that ${keyProblem}` };
      const found = walk(item, join(path, key.slice(0, 60)), depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return walk(value, root, 0);
}

/** Adds the text policy to a zod string schema (refuses NUL, other controls, unpaired surrogates). */
export function policyText<S extends z.ZodString>(schema: S, options: { multiline?: boolean } = {}) {
  return schema.superRefine((value, ctx) => {
    const problem = textProblem(value, options);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** A text field under the policy: trimmed, `min`–`max` characters. */
export function safeTextSchema(options: { min?: number; max: number; multiline?: boolean }) {
  return policyText(
    z
      .string()
      .trim()
      .min(options.min ?? 1)
      .max(options.max),
    options,
  );
}

/**
 * An integer from `min` to `max` (default the `integer` column range 0–{@link INT32_MAX}), with a message giving
 * the range.
 */
export function boundedIntSchema(options: { min?: number; max?: number; unit?: string } = {}) {
  const min = options.min ?? 0;
  const max = options.max ?? INT32_MAX;
  const message = `must be an integer from ${min} to ${max}${options.unit ? ` (${options.unit})` : ''}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** An ISO 8601 timestamp with an offset whose instant lies in years 0001–9999. */
export const boundedTimestampSchema = z
  .string()
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp such as "2025-01-31T00:00:00Z"' })
  .refine(
    (value) => {
      const ms = Date.parse(value);
      return Number.isFinite(ms) && ms >= DATE_RANGE.min && ms <= DATE_RANGE.max;
    },
    { message: 'must be a date in the years 0001 to 9999' },
  );

/** True when `host` (a URL's hostname, IP literals bracketed) is a valid DNS name or IP literal. */
export function isValidHost(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) return true; // IPv6 literal: the URL parser checked it
  if (host.length === 0 || host.length > 253) return false;
  return host
    .replace(/\.$/, '')
    .split('.')
    .every((label) => label.length >= 1 && label.length <= 63 && /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/i.test(label));
}

/** What is wrong with an absolute http(s) URL (parsed with WHATWG URL), or `undefined` when it is acceptable. */
export function urlProblem(value: string, options: { maxLength?: number } = {}): string | undefined {
  const max = options.maxLength ?? 2048;
  if (value.length > max) return `must be at most ${max} characters`;
  const text = textProblem(value);
  if (text !== undefined) return text;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL such as "https://shop.example/hooks"';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (!isValidHost(url.hostname))
    return 'must have a valid host name (labels of 1 to 63 letters, digits or hyphens; at most 253 characters)';
  return undefined;
}

/** An absolute http(s) URL, parsed, with a valid host and at most 2,048 characters. */
export const policyUrlSchema = z.string().superRefine((value, ctx) => {
  const problem = urlProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});
