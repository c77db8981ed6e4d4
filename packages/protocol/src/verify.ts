/**
 * Server-side verification of Partner API spec 5.1: the signing headers, the timestamp window and the `v1=` signature,
 * compared in constant time. Nonce tracking needs storage and stays with the server: verify the signature first,
 * then record the nonce, so that a failed attempt never consumes its nonce.
 */
import { canonicalString, type QueryInput } from './canonical-request.ts';
import { ProtocolError } from './errors.ts';
import { DEFAULT_HEADER_PREFIX, headerNames } from './headers.ts';
import { TIMESTAMP_TOLERANCE_SECONDS } from './limits.ts';
import { SIGNATURE_SCHEME, hmacHexMatches, type HmacKeyInput } from './sign.ts';

/** Request headers as Node gives them (lowercase names) or any case-insensitive lookup. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>> | Headers;

/** The four signing headers, read and checked. */
export interface SignatureHeaders {
  readonly keyId: string;
  /** The timestamp header exactly as sent (the canonical string uses this string). */
  readonly timestamp: string;
  /** The timestamp as Unix seconds. */
  readonly timestampSeconds: number;
  readonly nonce: string;
  /** The signature header value, `v1=<hex>`. */
  readonly signature: string;
}

/** Options of {@link readSignatureHeaders}. */
export interface ReadSignatureHeadersOptions {
  /** Header prefix, default `X-Service-`. */
  readonly headerPrefix?: string;
  /** Server time in milliseconds since the epoch; default `Date.now()`. */
  readonly now?: number;
  /** Allowed skew in seconds; default 300 (Partner API spec 5.1, 8). */
  readonly toleranceSeconds?: number;
}

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const lower = name.toLowerCase();
  const value = headers[lower] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === lower)?.[1];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value[0];
}

/**
 * Reads the signing headers and checks the timestamp window (Partner API spec 5.1, 7).
 *
 * @returns the header values once all four are present and the timestamp is fresh.
 * @throws {ProtocolError} `missing_credentials` when the key id header is absent; `missing_signature_headers`
 *   when the key id is present but the timestamp, nonce or signature is absent; `invalid_timestamp` when the
 *   timestamp is empty or not whole Unix seconds (milliseconds are named as such) or drifts beyond the tolerance.
 */
export function readSignatureHeaders(headers: HeaderBag, options: ReadSignatureHeadersOptions = {}): SignatureHeaders {
  const names = headerNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX);
  const keyId = header(headers, names.keyId)?.trim();
  if (!keyId)
    throw new ProtocolError(
      'missing_credentials',
      `The ${names.keyId} header is missing: send your public key id (pk_…).`,
    );
  // A timestamp header that is present but empty is a malformed timestamp (`invalid_timestamp`), not a missing one.
  const missing = [names.timestamp, names.nonce, names.signature].filter((n) =>
    n === names.timestamp ? header(headers, n) === undefined : !header(headers, n)?.trim(),
  );
  if (missing.length > 0) {
    throw new ProtocolError(
      'missing_signature_headers',
      `Missing signing header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.`,
    );
  }
  const timestamp = header(headers, names.timestamp)!.trim();
  const nonce = header(headers, names.nonce)!.trim();
  const signature = header(headers, names.signature)!.trim();
  if (!/^\d{1,12}$/.test(timestamp)) {
    const hint = /^\d{13,}$/.test(timestamp) ? ' It looks like milliseconds: send whole seconds.' : '';
    throw new ProtocolError('invalid_timestamp', `${names.timestamp} must be Unix time in whole seconds (UTC).${hint}`);
  }
  const timestampSeconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS;
  const drift = timestampSeconds - nowSeconds;
  if (Math.abs(drift) > tolerance) {
    if (/^\d{13,}$/.test(String(timestampSeconds)))
      throw new ProtocolError('invalid_timestamp', `${names.timestamp} looks like milliseconds: send whole seconds.`);
    throw new ProtocolError(
      'invalid_timestamp',
      `${names.timestamp} is ${Math.abs(drift)} s ${drift > 0 ? 'ahead of' : 'behind'} server time; the allowed skew is ±${tolerance} s. Check the clock.`,
    );
  }
  return { keyId, timestamp, timestampSeconds, nonce, signature };
}

/** The received request to check. */
export interface VerifySignatureInput {
  /** HMAC key of the credential's secret (from `createHmacKey`), or the secret itself. */
  readonly key: HmacKeyInput;
  readonly method: string;
  /** The path as received, without the query. */
  readonly path: string;
  /** The raw query string as received (or pairs); canonicalised here. */
  readonly query?: QueryInput;
  /** The raw body bytes as received. */
  readonly body?: string | Uint8Array | null;
  readonly timestamp: string;
  readonly nonce: string;
  /** The signature header value, `v1=<hex>`. */
  readonly signature: string;
}

/**
 * Rebuilds the canonical string and checks the `v1=` signature with `crypto.subtle.verify`, which compares in
 * constant time (Partner API spec 5.1 "Signature").
 *
 * @returns once the signature matches.
 * @throws {ProtocolError} (a rejection) `invalid_signature` when the scheme prefix is missing, the hex is malformed, or the
 *   signature does not match; `validation_error` never (a malformed query is an `invalid_signature` too).
 */
export async function verifySignature(input: VerifySignatureInput): Promise<void> {
  if (!input.signature.startsWith(SIGNATURE_SCHEME)) {
    throw new ProtocolError(
      'invalid_signature',
      `The signature must start with "${SIGNATURE_SCHEME}" followed by lowercase hex.`,
    );
  }
  const given = input.signature.slice(SIGNATURE_SCHEME.length);
  if (!/^[0-9a-f]{64}$/.test(given)) {
    throw new ProtocolError('invalid_signature', 'The signature must be 64 lowercase hex digits after "v1=".');
  }
  let canonical: string;
  try {
    canonical = await canonicalString(input);
  } catch (cause) {
    throw new ProtocolError(
      'invalid_signature',
      'The request could not be put in canonical form (malformed percent-escape in the query?).',
      { cause },
    );
  }
  if (!(await hmacHexMatches(input.key, given, canonical))) {
    throw new ProtocolError(
      'invalid_signature',
      'Signature mismatch. Check: the sk_ secret (not the key id), the full /api/partner/v1 path, the canonical query order, the raw body bytes, seconds (not ms).',
    );
  }
}
