/**
 * The canonical request of Partner API spec 5.1: canonical query and the six-line canonical string that the HMAC signs.
 *
 * Partner API spec 5.1 "Canonical query":
 * 1. split into key/value pairs, a blank value is kept;
 * 2. sort ascending by key, then by value when keys are equal (on the decoded strings, by UTF-8 bytes);
 * 3. encode each key and value as a URI component: `A-Z a-z 0-9 - _ . ~` stay, every other byte is `%XX` of its
 *    UTF-8 with uppercase hex (so `! ' ( ) *` are encoded too, and a space is `%20`);
 * 4. join `key=value` with `&`, no leading `?`.
 */
import { sha256HexOf, utf8Bytes } from './web-crypto.ts';

/** A query given as pairs, as a raw string (with or without `?`), or as URLSearchParams. */
export type QueryInput =
  | string
  | URLSearchParams
  | ReadonlyArray<readonly [string, string]>
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Lowercase hex SHA-256 of the empty string: the body hash of a GET, HEAD or body-less request (Partner API spec 5.1). */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * Percent-encodes a string as Partner API spec 5.1 step 3 requires (RFC 3986 unreserved characters stay).
 *
 * Unlike `encodeURIComponent`, this also encodes `! ' ( ) *`.
 * @throws {URIError} for a lone UTF-16 surrogate, which has no UTF-8 encoding.
 */
export function encodeComponent(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Splits a raw query string into decoded pairs, as a server reads what it received.
 *
 * A bare key (`flag`) is the pair `["flag", ""]`. A `+` is a literal plus sign, not a space: the canonical query is
 * RFC 3986 encoded (space is `%20`), not `application/x-www-form-urlencoded` (docs/spec-decisions.md).
 *
 * @param raw - the query with or without its leading `?`.
 * @throws {URIError} when a pair holds a malformed percent-escape such as `%zz`.
 */
export function parseQuery(raw: string): Array<[string, string]> {
  const query = raw.startsWith('?') ? raw.slice(1) : raw;
  if (query === '') return [];
  const pairs: Array<[string, string]> = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([decodeURIComponent(key), decodeURIComponent(value)]);
  }
  return pairs;
}

function toPairs(query: QueryInput | undefined): Array<[string, string]> {
  if (query === undefined) return [];
  if (typeof query === 'string') return parseQuery(query);
  if (query instanceof URLSearchParams) return [...query.entries()];
  if (Array.isArray(query)) return query.map(([k, v]) => [k, v] as [string, string]);
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(query as Record<string, string | readonly string[] | undefined>)) {
    if (value === undefined) continue;
    if (typeof value === 'string') pairs.push([key, value]);
    else for (const v of value) pairs.push([key, v]);
  }
  return pairs;
}

function compareUtf8(a: string, b: string): number {
  const x = utf8Bytes(a);
  const y = utf8Bytes(b);
  const length = Math.min(x.length, y.length);
  for (let i = 0; i < length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * Builds the canonical query of Partner API spec 5.1 from decoded pairs (or a raw query string, which is parsed first).
 *
 * Examples: `foo=b&foo=a` → `foo=a&foo=b`; `flag` → `flag=`; `q=!'()*` → `q=%21%27%28%29%2A`;
 * `a=1&|=2` → `a=1&%7C=2` (sorted before encoding).
 *
 * @returns the canonical query, or `""` when there is no query.
 * @throws {URIError} when a raw query holds a malformed percent-escape.
 */
export function canonicalQuery(query?: QueryInput): string {
  return toPairs(query)
    .sort(([ka, va], [kb, vb]) => compareUtf8(ka, kb) || compareUtf8(va, vb))
    .map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`)
    .join('&');
}

/**
 * Lowercase hex SHA-256 of the raw body bytes exactly as sent (Partner API spec 5.1 line 6), on Web Crypto
 * (asynchronous: Web Crypto digests are).
 * @param body - the bytes, or a string taken as UTF-8; `undefined` or empty hashes the empty string.
 */
export async function sha256Hex(body?: string | Uint8Array | null): Promise<string> {
  if (body === undefined || body === null || body.length === 0) return EMPTY_BODY_SHA256;
  return sha256HexOf(body);
}

/** The inputs of the canonical string (Partner API spec 5.1). */
export interface CanonicalRequestInput {
  /** HTTP verb; uppercased. */
  readonly method: string;
  /** The URL path actually requested, beginning with `/` (the full `/api/partner/v1/...` path), without query. */
  readonly path: string;
  /** The query, in any {@link QueryInput} form; canonicalised here. */
  readonly query?: QueryInput;
  /** Unix time in seconds, as the exact string of the timestamp header. */
  readonly timestamp: string | number;
  /** The exact string of the nonce header. */
  readonly nonce: string;
  /** The raw body bytes as sent, or a precomputed {@link sha256Hex} via `bodySha256`. */
  readonly body?: string | Uint8Array | null;
  /** Lowercase hex SHA-256 of the body, when the caller already has it (takes precedence over `body`). */
  readonly bodySha256?: string;
}

/**
 * Builds the six-line canonical string of Partner API spec 5.1: METHOD, PATH, QUERY_STRING, TIMESTAMP, NONCE, BODY_SHA256_HEX,
 * joined by `\n` with no trailing newline. Asynchronous because the body hash is a Web Crypto digest;
 * pass `bodySha256` to skip it.
 *
 * @throws {TypeError} when the path does not begin with `/` or contains a `?`, or a field contains a newline.
 * @throws {URIError} when a raw query holds a malformed percent-escape.
 */
export async function canonicalString(input: CanonicalRequestInput): Promise<string> {
  const { method, path, nonce } = input;
  const timestamp = String(input.timestamp);
  if (!path.startsWith('/'))
    throw new TypeError(
      `path must begin with "/" (the full /api/partner/v1/... path); received ${JSON.stringify(path)}`,
    );
  if (path.includes('?')) throw new TypeError('path must not contain the query: pass it as `query`');
  for (const [name, value] of [
    ['method', method],
    ['path', path],
    ['timestamp', timestamp],
    ['nonce', nonce],
  ] as const) {
    if (/[\r\n]/.test(value)) throw new TypeError(`${name} must not contain a line break`);
  }
  return [
    method.toUpperCase(),
    path,
    canonicalQuery(input.query),
    timestamp,
    nonce,
    input.bodySha256 ?? (await sha256Hex(input.body)),
  ].join('\n');
}
