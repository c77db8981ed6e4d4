/**
 * The limits of Partner API spec section 8 (and the time windows of 2.2, 2.3, 5.1, 5.2), as constants.
 * Durations are in seconds unless the name says otherwise.
 */

/** Allowed clock skew between the signing timestamp and server time, in seconds (Partner API spec 5.1, 8). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;
/**
 * How long a server tracks a nonce, in seconds. A request is accepted while its timestamp is within ±300 s, so a
 * nonce must be remembered for at least the whole 600 s window in which its timestamp stays valid; we keep it 900 s.
 * The spec does not show the tracking duration (Partner API spec 5.1 "Replay protection"): see docs/spec-decisions.md.
 */
export const NONCE_TTL_SECONDS = 900;
/** A quote locks the buy-now price for 10 minutes (Partner API spec 2.2, 8). */
export const QUOTE_TTL_SECONDS = 600;
/** A checkout session's `checkout_url` expires after 7 days (Partner API spec 2.3, 8). */
export const CHECKOUT_SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Receivers must acknowledge a webhook with 200 within 5 seconds (Partner API spec 6, 8). */
export const WEBHOOK_ACK_TIMEOUT_SECONDS = 5;
/** At most 5 results per domain search; the query is required (Partner API spec 4.1, 8). */
export const SEARCH_MAX_RESULTS = 5;
/** Operations per `POST /api/batch` (Public API spec 4.2, 8). */
export const BATCH_MAX_OPERATIONS = 20;
/** Owned domains per `POST /api/domains/bulk/{op}` (Public API spec 4.2, 8). */
export const BULK_MAX_DOMAINS = 1000;
/** OAuth authorization codes live 60 seconds and are single use (Public API spec 5.2, 8). */
export const OAUTH_CODE_TTL_SECONDS = 60;
/** OAuth access tokens live 30 minutes (Public API spec 5.2, 8). */
export const ACCESS_TOKEN_TTL_SECONDS = 30 * 60;
/** OAuth refresh tokens live 30 days and rotate on each use (Public API spec 5.2, 8). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** A rate-limit class of the Partner API and its budget per credential (Partner API spec 8). */
export interface RateLimit {
  /** Requests allowed in one window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
}

/**
 * Requests per minute per credential, by class (Partner API spec 8). `search`, `write` and `reporting` are the spec's own
 * figures; the spec does not show the others.
 */
export const RATE_LIMITS = {
  /** Search endpoints: 60 requests per minute per credential. */
  search: { limit: 60, windowSeconds: 60 },
  /** Write endpoints (quotes, orders, checkout-session): 20 requests per minute per credential. */
  write: { limit: 20, windowSeconds: 60 },
  /** Reporting endpoints (settlements, transactions, payouts): 30 requests per minute per credential. */
  reporting: { limit: 30, windowSeconds: 60 },
} as const satisfies Record<string, RateLimit>;

/**
 * Every rate-limit class of the Partner API with its budget per credential, in one-minute windows (Partner API
 * spec 8). `search`, `write` and `reporting` are the spec's own figures ({@link RATE_LIMITS}); the spec does not
 * show the limits of the remaining endpoints, which the sandbox counts as `read` (120 per minute: order, event,
 * link and brokerage lookups) and `manage` (30 per minute: webhook registration, new links and brokerage cases);
 * see docs/spec-decisions.md.
 */
export const RATE_CLASSES = {
  ...RATE_LIMITS,
  /** Lookups whose limit the spec does not show: 120 requests per minute per credential (the sandbox's figure). */
  read: { limit: 120, windowSeconds: 60 },
  /** Registrations whose limit the spec does not show: 30 requests per minute per credential (the sandbox's figure). */
  manage: { limit: 30, windowSeconds: 60 },
} as const satisfies Record<string, RateLimit>;

/**
 * A rate-limit class of the Partner API (Partner API spec 8): `search`, `write`, `reporting`, and the two classes
 * of the endpoints whose limit the spec does not show, `read` and `manage` ({@link RATE_CLASSES}). Every Partner API
 * endpoint belongs to exactly one; the client hands it to an upstream budget and the sandbox counts by it.
 */
export type RateClass = keyof typeof RATE_CLASSES;
