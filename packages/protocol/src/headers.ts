/**
 * Header names of the Partner API (Partner API spec 5.1, 5.3).
 *
 * The spec writes `X-Service-` where the real service puts its brand in header names. The prefix is a single
 * setting shared by protocol, client, BFF and sandbox (docs/architecture.md "Header brand"); every other module derives its
 * header names from {@link headerNames}.
 */

/** The header prefix the spec uses when no brand is configured. */
export const DEFAULT_HEADER_PREFIX = 'X-Service-';

/** The names of the signing headers and the webhook signature header for one prefix. */
export interface HeaderNames {
  /** `X-Service-Key-Id`: the public credential key id (`pk_…`). */
  readonly keyId: string;
  /** `X-Service-Timestamp`: Unix time in seconds. */
  readonly timestamp: string;
  /** `X-Service-Nonce`: unique per request (UUID v4 recommended). */
  readonly nonce: string;
  /** `X-Service-Signature`: `v1=<hex>` on requests, bare hex on webhook deliveries (Partner API spec 5.3). */
  readonly signature: string;
  /** `Idempotency-Key`: required on `POST /orders`; carries no brand. */
  readonly idempotencyKey: string;
  /** `X-Service-Event-Id`: on webhook deliveries, the event's id (as in the body). */
  readonly eventId: string;
  /** `X-Service-Delivery-Attempt`: on webhook deliveries, the attempt's number from 1. */
  readonly deliveryAttempt: string;
}

/**
 * Derives the header names for a prefix such as `X-Service-` or `X-Acme-`.
 *
 * @param prefix - must start with a letter and end with `-` (for example `X-Service-`).
 * @throws {TypeError} when the prefix is not a valid header-name prefix.
 * @see Partner API spec 5.1 "Required headers", 5.3
 */
export function headerNames(prefix: string = DEFAULT_HEADER_PREFIX): HeaderNames {
  if (!/^[A-Za-z][A-Za-z0-9-]*-$/.test(prefix)) {
    throw new TypeError(
      `header prefix must be letters, digits and dashes ending in "-" (like "X-Service-"); received ${JSON.stringify(prefix)}`,
    );
  }
  return {
    keyId: `${prefix}Key-Id`,
    timestamp: `${prefix}Timestamp`,
    nonce: `${prefix}Nonce`,
    signature: `${prefix}Signature`,
    idempotencyKey: 'Idempotency-Key',
    eventId: `${prefix}Event-Id`,
    deliveryAttempt: `${prefix}Delivery-Attempt`,
  };
}
