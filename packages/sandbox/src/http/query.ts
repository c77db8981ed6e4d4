/**
 * The query-string parser of the whole app. It reads the query as Partner API spec 5.1 does (docs/spec-decisions.md): a `+` is
 * a literal plus, not a space (`%20` is a space), a bare key has an empty value, a repeated key gives an array.
 * Unlike Node's `querystring`, it never throws and never builds objects from `a[b]=c`.
 */

/** A decoded query: one string per key, or an array when the key repeats. */
export type ParsedQuery = Record<string, string | string[]>;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a malformed escape stays as sent; signed routes reject it as invalid_signature first
  }
}

/** Parses a raw query string (without its `?`). Keys such as `__proto__` are plain keys (null-prototype object). */
export function parseQueryString(raw: string): ParsedQuery {
  const out: ParsedQuery = Object.create(null) as ParsedQuery;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = decode(eq === -1 ? '' : part.slice(eq + 1));
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** Splits a request's raw URL (`req.originalUrl`) into the path as sent and the raw query (no `?`). */
export function splitRawUrl(originalUrl: string): { path: string; query: string } {
  const q = originalUrl.indexOf('?');
  return q === -1
    ? { path: originalUrl, query: '' }
    : { path: originalUrl.slice(0, q), query: originalUrl.slice(q + 1) };
}
