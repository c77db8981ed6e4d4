/**
 * Request signing of Partner API spec 5.1: `X-Service-Signature: v1=<hex HMAC-SHA256(secret, canonical string)>`.
 *
 * Signing runs on Web Crypto (`crypto.subtle`), so it works on Node, Bun, Deno, browsers and Workers alike, and is
 * therefore asynchronous. The HMAC key is imported once per credential as a `CryptoKey`: importing the raw secret
 * on every call costs a second Web Crypto round trip.
 */
import { canonicalString, canonicalQuery, type CanonicalRequestInput, type QueryInput } from './canonical-request.ts';
import { DEFAULT_HEADER_PREFIX, headerNames } from './headers.ts';
import { fromHex, hmacSha256, hmacSha256Verify, importHmacKey, toHex, type CryptoKey } from './web-crypto.ts';

/** The signature scheme prefix of Partner API spec 5.1 and 9. */
export const SIGNATURE_SCHEME = 'v1=';

/** An HMAC-SHA256 key from {@link createHmacKey}, or the secret itself (imported on every use: slower). */
export type HmacKeyInput = CryptoKey | string;

/**
 * Creates the HMAC-SHA256 key for a secret once, to reuse for every signature: a non-extractable Web Crypto
 * `CryptoKey` usable for signing and verifying.
 * @param secret - the API secret (`sk_…`) or a webhook secret, taken as UTF-8.
 * @throws {TypeError} (synchronously) when the secret is empty.
 */
export function createHmacKey(secret: string): Promise<CryptoKey> {
  return importHmacKey(secret);
}

/** The key of an {@link HmacKeyInput}: a secret string is imported here. */
export async function hmacKeyOf(key: HmacKeyInput): Promise<CryptoKey> {
  return typeof key === 'string' ? importHmacKey(key) : key;
}

/**
 * Lowercase hex HMAC-SHA256 of a message (Partner API spec 5.1 "Signature", 5.3).
 * @param key - a key from {@link createHmacKey} (or a secret string, imported on every call: slower).
 * @param message - a string (taken as UTF-8) or the bytes.
 * @throws {TypeError} (a rejection) when the key is an empty secret.
 */
export async function hmacHex(key: HmacKeyInput, message: string | Uint8Array): Promise<string> {
  return toHex(await hmacSha256(await hmacKeyOf(key), message));
}

/**
 * Whether `hex` is the lowercase hex HMAC-SHA256 of `message` under `key`, checked with `crypto.subtle.verify` (a
 * constant-time comparison). Anything but 64 lowercase hex digits is no match.
 */
export async function hmacHexMatches(key: HmacKeyInput, hex: string, message: string | Uint8Array): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(hex)) return false;
  return hmacSha256Verify(await hmacKeyOf(key), fromHex(hex), message);
}

/** A request to sign: the canonical request fields, with timestamp and nonce generated when omitted. */
export interface SignRequestInput extends Omit<CanonicalRequestInput, 'timestamp' | 'nonce'> {
  /** Unix seconds; defaults to the signer's clock. */
  readonly timestamp?: number | string;
  /** Defaults to a fresh UUID v4. */
  readonly nonce?: string;
}

/** The headers to send, and the values that went into them. */
export interface SignedRequest {
  /** The four signing headers, keyed by their configured names. */
  readonly headers: Record<string, string>;
  /** The canonical query to send as the URL's query string (so what is signed is exactly what is sent). */
  readonly query: string;
  readonly timestamp: string;
  readonly nonce: string;
  /** `v1=<hex>`. */
  readonly signature: string;
}

/** Signs Partner API requests for one credential. */
export interface RequestSigner {
  /** The public key id (`pk_…`) sent in the key id header. */
  readonly keyId: string;
  /**
   * Signs one attempt. Call it again for every retry: each attempt needs a fresh timestamp and nonce (Partner API spec 5.1).
   * @throws {TypeError} (a rejection) for a path without a leading `/` or a field with a line break.
   */
  sign(request: SignRequestInput): Promise<SignedRequest>;
}

/** Options of {@link createRequestSigner}. */
export interface RequestSignerOptions {
  /** The public key id, `pk_…`. */
  readonly keyId: string;
  /** The API secret, `sk_…`. Never sent, never logged. */
  readonly secret: string;
  /** Header prefix, default `X-Service-`. */
  readonly headerPrefix?: string;
  /** Clock in milliseconds since the epoch, injectable for tests; default `Date.now`. */
  readonly now?: () => number;
  /** Nonce source, injectable for tests; default Web Crypto's `crypto.randomUUID` (UUID v4). */
  readonly nonce?: () => string;
}

/**
 * Creates a signer for one credential (Partner API spec 5.1). The HMAC key is imported once, here (its import
 * finishes before the first signature).
 *
 * @throws {TypeError} when the key id or secret is missing, or the secret looks like a key id (a common cause of
 *   `invalid_signature`: the signature is made with the `sk_…` secret, never with the `pk_…` key id).
 */
export function createRequestSigner(options: RequestSignerOptions): RequestSigner {
  const { keyId, secret } = options;
  if (typeof keyId !== 'string' || keyId.length === 0) throw new TypeError('keyId is required (the public pk_… id)');
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('secret is required (the sk_… API secret)');
  if (secret === keyId || secret.startsWith('pk_')) {
    throw new TypeError('secret looks like a key id (pk_…): sign with the API secret (sk_…), never with the key id');
  }
  const names = headerNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX);
  const key = importHmacKey(secret);
  const now = options.now ?? Date.now;
  const nextNonce = options.nonce ?? (() => crypto.randomUUID());
  return {
    keyId,
    async sign(request) {
      const timestamp = String(request.timestamp ?? Math.floor(now() / 1000));
      const nonce = request.nonce ?? nextNonce();
      const query = canonicalQuery(request.query);
      const canonical = await canonicalString({ ...request, query, timestamp, nonce });
      const signature = SIGNATURE_SCHEME + (await hmacHex(await key, canonical));
      return {
        headers: {
          [names.keyId]: keyId,
          [names.timestamp]: timestamp,
          [names.nonce]: nonce,
          [names.signature]: signature,
        },
        query,
        timestamp,
        nonce,
        signature,
      };
    },
  };
}

export type { QueryInput };
