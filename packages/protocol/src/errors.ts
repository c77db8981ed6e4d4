/**
 * The error codes of the Partner API with their HTTP statuses (Partner API spec 7), and the error body.
 *
 * Partner API spec 7 shows no status for `invalid_timestamp`, `replay_detected`, `missing_signature_headers` and
 * `missing_idempotency_key`; the choices here (401, 401, 401, 400) are recorded in docs/spec-decisions.md.
 */
import { z } from 'zod';

/** Every error code of Partner API spec 7, with the HTTP status the sandbox answers and a one-line meaning. */
export const ERROR_CODES = {
  validation_error: { status: 400, when: 'A field is missing or malformed; the message gives details.' },
  missing_idempotency_key: { status: 400, when: 'POST /orders was sent without an Idempotency-Key header.' },
  missing_credentials: { status: 401, when: 'No key id header is present.' },
  missing_signature_headers: {
    status: 401,
    when: 'The key id is present but the timestamp, nonce or signature header is missing.',
  },
  invalid_timestamp: {
    status: 401,
    when: 'The timestamp is not Unix seconds, is malformed, or drifts more than 300 seconds.',
  },
  invalid_signature: { status: 401, when: 'The HMAC was rejected: wrong key id, secret, canonical string or body.' },
  replay_detected: { status: 401, when: 'The nonce was already used while still tracked.' },
  forbidden: {
    status: 403,
    when: 'The credential lacks the required scope, or is not allowed to use this environment or surface.',
  },
  not_found: { status: 404, when: 'The domain is not listed, or the resource id does not exist for this credential.' },
  conflict: {
    status: 409,
    when: 'The Idempotency-Key was reused with a different body, or the resource is in a conflicting state.',
  },
  price_mismatch: { status: 422, when: 'The sale price differs from the current listing price.' },
  quote_expired: { status: 422, when: 'The quote_id is older than 10 minutes.' },
  rate_limited: { status: 429, when: 'The rate limit was exceeded; honour the Retry-After header.' },
  internal_error: { status: 500, when: 'Unexpected server error; retry with exponential back-off.' },
} as const satisfies Record<string, { status: number; when: string }>;

/** A Partner API error code of Partner API spec 7. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The Partner API spec 7 codes as named constants, to compare against instead of string literals (`error.code ===
 * ErrorCode.ReplayDetected`): a misspelt constant fails type-checking. `ErrorCode` the type is the union of the codes.
 */
export const ErrorCode = {
  ValidationError: 'validation_error',
  MissingIdempotencyKey: 'missing_idempotency_key',
  MissingCredentials: 'missing_credentials',
  MissingSignatureHeaders: 'missing_signature_headers',
  InvalidTimestamp: 'invalid_timestamp',
  InvalidSignature: 'invalid_signature',
  ReplayDetected: 'replay_detected',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  Conflict: 'conflict',
  PriceMismatch: 'price_mismatch',
  QuoteExpired: 'quote_expired',
  RateLimited: 'rate_limited',
  InternalError: 'internal_error',
} as const satisfies Record<string, ErrorCode>;

/** True when `code` is one of the Partner API spec 7 codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/**
 * The error body the sandbox answers: `{"error": {"code", "message", "request_id"}}`, plus, for some codes, what the
 * caller needs to act on it: `retry_after` (whole seconds, with `rate_limited`, as the `Retry-After` header) and the
 * listing's current `price_cents` with its `currency` (with `price_mismatch`: show the buyer the new price). Unknown
 * fields are kept. The spec shows only the `code` and `message` names (Partner API spec 7): see
 * docs/spec-decisions.md.
 */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    request_id: z.string().optional(),
    retry_after: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('With `rate_limited`: whole seconds to wait before retrying (as the `Retry-After` header).'),
    price_cents: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("With `price_mismatch`: the listing's current price in minor units."),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe("With `price_mismatch`: the listing's currency (ISO 4217)."),
  }),
});

/** The error body, as parsed. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * Reads `code` and `message` from an error body of either the nested shape (`{error: {code, message}}`) or the
 * flat shape (`{code, message}`), so a client can meet the real service as well as the sandbox.
 * @returns the fields found, or `undefined` when the body has neither shape.
 */
export function readErrorBody(body: unknown): { code: string; message: string; requestId?: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const outer = body as Record<string, unknown>;
  const inner =
    typeof outer.error === 'object' && outer.error !== null ? (outer.error as Record<string, unknown>) : outer;
  if (typeof inner.code !== 'string') return undefined;
  const message =
    typeof inner.message === 'string' ? inner.message : typeof outer.message === 'string' ? outer.message : inner.code;
  const requestId = inner.request_id ?? outer.request_id;
  return typeof requestId === 'string' ? { code: inner.code, message, requestId } : { code: inner.code, message };
}

/**
 * A violation of the wire protocol found by this package (for example a bad signature or a stale timestamp),
 * carrying the Partner API spec 7 `code` and its HTTP `status`. Servers answer it as an error body; clients never see it
 * thrown from the network.
 */
export class ProtocolError extends Error {
  /** The Partner API spec 7 error code. */
  readonly code: ErrorCode;
  /** The HTTP status for the code (see {@link ERROR_CODES}). */
  readonly status: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProtocolError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
  }
}
