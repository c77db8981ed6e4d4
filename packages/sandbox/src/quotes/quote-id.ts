/**
 * Signed quote ids (Partner API spec 2.2: "returns a signed `quote_id`"). A quote id is `quo_<22 base62>.<43 base64url>`: the
 * quote's row id and `base64url(HMAC-SHA256(key, "quote1." + id))`. The key is a random 256-bit secret kept in the
 * database (`sandbox_meta.quote_signing_key`), so a quote id cannot be forged or altered, and one issued before a
 * restart still verifies. The id carries no data: the price and expiry are in the quote's row.
 */
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { randomId } from '../ids.ts';

const FORMAT = /^(quo_[0-9A-Za-z]{22})\.([A-Za-z0-9_-]{43})$/;

function mac(key: KeyObject, id: string): Buffer {
  return createHmac('sha256', key).update(`quote1.${id}`).digest();
}

/** A new quote row id, `quo_…`. */
export function newQuoteRowId(): string {
  return randomId('quo_', 22);
}

/** The wire `quote_id` of a quote row id. */
export function signQuoteId(key: KeyObject, id: string): string {
  return `${id}.${mac(key, id).toString('base64url')}`;
}

/**
 * The row id of a wire `quote_id`, or `undefined` when it is malformed or its signature does not verify
 * (constant-time comparison).
 */
export function verifyQuoteId(key: KeyObject, quoteId: string): string | undefined {
  const match = FORMAT.exec(quoteId);
  if (!match) return undefined;
  const [, id, signature] = match as unknown as [string, string, string];
  const given = Buffer.from(signature, 'base64url');
  return given.length === 32 && timingSafeEqual(given, mac(key, id)) ? id : undefined;
}
