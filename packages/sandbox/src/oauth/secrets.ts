/**
 * Opaque OAuth artefacts: authorization codes, access tokens and refresh tokens are 256-bit random strings with a
 * readable prefix, and only their SHA-256 is stored (a database leak yields nothing usable). Passwords of sandbox
 * users are hashed with scrypt (RFC 7914) and compared in constant time.
 */
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Prefixes that make a leaked value recognisable (and greppable by secret scanners). */
export const SECRET_PREFIXES = { code: 'dkc_', access: 'dka_', refresh: 'dkr_' } as const;

/** A new code or token: the prefix and 32 random bytes in base64url (256 bits). */
export function newOpaqueSecret(kind: keyof typeof SECRET_PREFIXES): string {
  return SECRET_PREFIXES[kind] + randomBytes(32).toString('base64url');
}

/** The stored form of a code or token: SHA-256, base64url. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

/** scrypt cost parameters (N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per hash). */
const SCRYPT = { N: 32768, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 } as const;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url salt and hash). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, {
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: SCRYPT.maxmem,
  });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Compares two strings in constant time (for PKCE challenges). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
