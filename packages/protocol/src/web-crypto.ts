/**
 * The byte-level primitives the signatures of Partner API spec 5.1 and 5.3 use, on Web Crypto (`globalThis.crypto`,
 * W3C Web Cryptography API) so the same code runs on Node, Bun, Deno, browsers and Workers. Every digest is
 * asynchronous there, hence every signing and verifying function of this package is.
 */

/**
 * A Web Crypto key (`CryptoKey`), named through `crypto.subtle` so the type needs neither the DOM library nor a
 * `node:` import.
 */
export type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const encoder = new TextEncoder();

/** The HMAC-SHA256 key algorithm (RFC 2104, FIPS 180-4). */
const HMAC_SHA256 = { name: 'HMAC', hash: 'SHA-256' } as const;

/** The bytes of a message: a string is taken as UTF-8, bytes as they are. */
export function utf8Bytes(message: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof message === 'string') return encoder.encode(message);
  // Web Crypto takes an ArrayBuffer-backed view (a Node Buffer is one, used in place); a view over a
  // SharedArrayBuffer is copied.
  return message.buffer instanceof ArrayBuffer ? (message as Uint8Array<ArrayBuffer>) : new Uint8Array(message);
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lowercase hex of bytes. */
export function toHex(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let hex = '';
  for (const byte of view) hex += HEX[byte];
  return hex;
}

/**
 * The bytes of a lowercase hex string.
 * @throws {TypeError} when `hex` is not an even number of lowercase hex digits.
 */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new TypeError('expected lowercase hex digits');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * Imports a secret (taken as UTF-8) as a non-extractable HMAC-SHA256 key for signing and verifying.
 * @throws {TypeError} when the secret is empty.
 */
export function importHmacKey(secret: string): Promise<CryptoKey> {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be a non-empty string');
  return crypto.subtle.importKey('raw', encoder.encode(secret), HMAC_SHA256, false, ['sign', 'verify']);
}

/** HMAC-SHA256 of a message, as bytes. */
export async function hmacSha256(key: CryptoKey, message: string | Uint8Array): Promise<ArrayBuffer> {
  return crypto.subtle.sign('HMAC', key, utf8Bytes(message));
}

/**
 * Whether `mac` is the HMAC-SHA256 of `message` under `key`. `crypto.subtle.verify` compares in constant time
 * (what `timingSafeEqual` did on Node), so the time taken does not reveal how much of a forged MAC was right.
 */
export function hmacSha256Verify(
  key: CryptoKey,
  mac: Uint8Array<ArrayBuffer>,
  message: string | Uint8Array,
): Promise<boolean> {
  return crypto.subtle.verify('HMAC', key, mac, utf8Bytes(message));
}

/** SHA-256 of a message, as lowercase hex. */
export async function sha256HexOf(message: string | Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', utf8Bytes(message)));
}
