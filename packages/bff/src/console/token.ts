/**
 * Console session tokens (docs/console-api.md "Session"): short-lived, HMAC-SHA256-signed bearer tokens the BFF mints
 * on `POST /console/session` once the partner's `authorize` hook accepted, like Stripe's account sessions.
 * Form: `dkc1.<payload>.<signature>`, both base64url; the payload is `{sub, scp, iat, exp}` (seconds since the epoch).
 * Anything else (a visitor's purchase key, an altered or expired token) is refused by {@link verifyConsoleToken}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CONSOLE_SCOPES, type ConsoleScope } from '@domainkit/protocol';

const PREFIX = 'dkc1';

/** What a valid token says. */
export interface ConsoleClaims {
  /** The actor the partner's hook named. */
  readonly sub: string;
  readonly scp: readonly ConsoleScope[];
  /** Issued and expiry times, seconds since the epoch. */
  readonly iat: number;
  readonly exp: number;
}

/**
 * The signing key of console tokens: the partner's `sessionSecret`, else one derived one-way from the API secret (an
 * HMAC of a fixed label), so the API secret itself never signs anything a browser holds.
 */
export function consoleSigningKey(sessionSecret: string | undefined, apiSecret: string): Buffer {
  return createHmac('sha256', sessionSecret ?? apiSecret)
    .update('domainkit console session v1')
    .digest();
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(`${PREFIX}.${payload}`).digest();

/** Mints a token for `actor`, valid `ttlSeconds` from `nowMs`. */
export function mintConsoleToken(
  key: Buffer,
  actor: string,
  ttlSeconds: number,
  nowMs: number,
): {
  token: string;
  claims: ConsoleClaims;
} {
  const iat = Math.floor(nowMs / 1000);
  const claims: ConsoleClaims = { sub: actor, scp: [...CONSOLE_SCOPES], iat, exp: iat + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { token: `${PREFIX}.${payload}.${sign(key, payload).toString('base64url')}`, claims };
}

/** Why a token was refused (for the 401's message). */
export type TokenRefusal = 'missing' | 'malformed' | 'expired';

/**
 * The claims of a valid, unexpired token, or why it is refused. The signature is compared in constant time before
 * the payload is read.
 */
export function verifyConsoleToken(
  key: Buffer,
  token: string | undefined,
  nowMs: number,
): { ok: true; claims: ConsoleClaims } | { ok: false; why: TokenRefusal } {
  if (token === undefined || token === '') return { ok: false, why: 'missing' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return { ok: false, why: 'malformed' };
  const [, payload = '', signature = ''] = parts;
  const expected = sign(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'malformed' };
  let claims: ConsoleClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConsoleClaims;
  } catch {
    return { ok: false, why: 'malformed' };
  }
  if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || !Array.isArray(claims.scp))
    return { ok: false, why: 'malformed' };
  if (claims.exp * 1000 <= nowMs) return { ok: false, why: 'expired' };
  return { ok: true, claims };
}

/** The bearer token of an `Authorization` header, or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
