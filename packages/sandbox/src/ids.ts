/**
 * Random identifiers and secrets of the sandbox: key ids (`pk_test_…`), API secrets (`sk_test_…`), request ids
 * (`req_…`), checkout session ids (`cs_…`) and the like. All come from `crypto.randomBytes`.
 */
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A string of `length` characters drawn uniformly from `[0-9A-Za-z]` (rejection sampling, no modulo bias).
 * @param length - number of characters; 22 characters carry about 131 bits.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A prefixed random identifier such as `cs_4fQ…` (`prefix` includes its underscore). */
export function randomId(prefix: string, length = 22): string {
  return prefix + randomBase62(length);
}

/** A random secret of `bytes` bytes in base64url (for signing keys and tokens that never leave the server side). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
