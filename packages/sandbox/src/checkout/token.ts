/**
 * The `pt` token of a checkout URL (Partner API spec 2.3): it names the checkout session and its expiry, signed by the sandbox
 * so a visitor cannot forge or extend it.
 *
 * Format: `base64url(JSON {"v":1,"sid":"cs_…","exp":<unix seconds>})` `.` `base64url(HMAC-SHA256(key, "pt1." + payload))`.
 * The key is a random 256-bit secret kept in the database (`sandbox_meta.lander_signing_key`). The payload is
 * readable, not secret: it holds only the session id and the expiry.
 */
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { z } from 'zod';

const payloadSchema = z.strictObject({
  v: z.literal(1),
  sid: z.string().regex(/^cs_[0-9A-Za-z]{10,64}$/),
  exp: z.number().int().positive(),
});

/** What a valid token says. */
export type CheckoutTokenPayload = z.infer<typeof payloadSchema>;

/** Why a token was refused: `malformed` and `forged` answer 400, `expired` 410. */
export class CheckoutTokenError extends Error {
  readonly reason: 'malformed' | 'forged' | 'expired';

  constructor(reason: CheckoutTokenError['reason'], message: string) {
    super(message);
    this.name = 'CheckoutTokenError';
    this.reason = reason;
  }
}

function mac(key: KeyObject, payload: string): Buffer {
  return createHmac('sha256', key).update(`pt1.${payload}`).digest();
}

/** Signs a token for a checkout session expiring at `exp` (Unix seconds). */
export function signCheckoutToken(key: KeyObject, sessionId: string, exp: number): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, sid: sessionId, exp })).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * Verifies a token: shape, signature (constant time), then expiry.
 * @param nowMs - the current time in milliseconds.
 * @throws {CheckoutTokenError} `malformed`, `forged` (signature mismatch) or `expired`.
 */
export function verifyCheckoutToken(key: KeyObject, token: unknown, nowMs: number): CheckoutTokenPayload {
  if (typeof token !== 'string' || token.length === 0)
    throw new CheckoutTokenError('malformed', 'This checkout link has no payment token.');
  const match = /^([A-Za-z0-9_-]{1,512})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match)
    throw new CheckoutTokenError(
      'malformed',
      'This checkout link is malformed: open the link you were sent, without changing it.',
    );
  const [, payload, signature] = match as unknown as [string, string, string];
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== 32 || !timingSafeEqual(given, mac(key, payload))) {
    throw new CheckoutTokenError('forged', 'This checkout link was not issued by the marketplace, or it was altered.');
  }
  let parsed: CheckoutTokenPayload;
  try {
    parsed = payloadSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw new CheckoutTokenError('malformed', 'This checkout link is malformed.');
  }
  if (parsed.exp * 1000 <= nowMs)
    throw new CheckoutTokenError(
      'expired',
      'This checkout link has expired: checkout links are valid for 7 days. Ask the site you came from for a new one.',
    );
  return parsed;
}
