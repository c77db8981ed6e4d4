/**
 * The signed result on a hosted checkout's return URL (Partner API spec 2.3 does not say how a partner learns a hosted sale's
 * outcome; docs/spec-decisions.md, "Hosted checkout: the return journey"). After a payment the lander sends the
 * buyer to the session's `return_url` with the sale's facts in the query and an HMAC-SHA256 over them, keyed with
 * the partner's API secret (the credential that created the session):
 *
 * `?checkout_session_id=cs_…&status=paid&domain=…&price_cents=…&currency=USD&ts=<unix seconds>&sig=<hex>`
 *
 * The partner's server (the BFF) recomputes the HMAC over the canonical string below and compares in constant
 * time: a visitor who edits any field, or makes the URL up, is not confirmed.
 */
import { hmacHex, hmacHexMatches, type HmacKeyInput } from './sign.ts';

/** The facts a signed checkout return carries. */
export interface CheckoutReturn {
  readonly checkout_session_id: string;
  /** Always `paid` (a cancelled checkout returns to `cancel_url`, unsigned). */
  readonly status: 'paid';
  readonly domain: string;
  /** What the buyer paid, in minor units of `currency`. */
  readonly price_cents: number;
  readonly currency: string;
  /** When the lander signed it (Unix seconds). */
  readonly ts: number;
}

/** How old a signed return may be (seconds): a day, for a buyer who comes back to the tab later. */
export const CHECKOUT_RETURN_MAX_AGE_SECONDS = 86_400;

const FIELDS = ['checkout_session_id', 'status', 'domain', 'price_cents', 'currency', 'ts'] as const;

/** The signed string: the six fields in {@link FIELDS} order, joined with `\n`. */
export function checkoutReturnString(result: CheckoutReturn): string {
  return FIELDS.map((field) => String(result[field])).join('\n');
}

/** The query parameters of a signed return (the facts plus `sig`), signed on Web Crypto. */
export async function signCheckoutReturn(secret: HmacKeyInput, result: CheckoutReturn): Promise<URLSearchParams> {
  const params = new URLSearchParams(FIELDS.map((field): [string, string] => [field, String(result[field])]));
  params.set('sig', await hmacHex(secret, checkoutReturnString(result)));
  return params;
}

/**
 * Verifies a return's query (`URLSearchParams` or a plain record of strings) with the partner's API secret, with
 * `crypto.subtle.verify` (a constant-time comparison).
 *
 * @param nowSeconds - the current Unix time (injectable clock).
 * @returns the verified facts, or `undefined` when a field is missing or malformed, the signature does not match,
 *   or the return is older than {@link CHECKOUT_RETURN_MAX_AGE_SECONDS} (or more than 5 minutes in the future).
 */
export async function verifyCheckoutReturn(
  secret: HmacKeyInput,
  query: URLSearchParams | Readonly<Record<string, unknown>>,
  nowSeconds: number,
): Promise<CheckoutReturn | undefined> {
  const get = (name: string): string | undefined => {
    const value = query instanceof URLSearchParams ? query.get(name) : query[name];
    return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined;
  };
  const [id, status, domain, price, currency, ts, sig] = [...FIELDS, 'sig'].map(get);
  if (!id || status !== 'paid' || !domain || !currency || !sig || !/^[0-9a-f]{64}$/.test(sig)) return undefined;
  if (!/^\d{1,15}$/.test(price ?? '') || !/^\d{1,12}$/.test(ts ?? '')) return undefined;
  const result: CheckoutReturn = {
    checkout_session_id: id,
    status,
    domain,
    price_cents: Number(price),
    currency,
    ts: Number(ts),
  };
  if (!(await hmacHexMatches(secret, sig, checkoutReturnString(result)))) return undefined;
  if (result.ts < nowSeconds - CHECKOUT_RETURN_MAX_AGE_SECONDS || result.ts > nowSeconds + 300) return undefined;
  return result;
}
