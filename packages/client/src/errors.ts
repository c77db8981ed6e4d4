/**
 * The errors the Partner API client raises (Partner API spec 7), built by one factory from the response.
 *
 * Every error the client raises for a request is a {@link MarketplaceError}: an error answer of the marketplace,
 * a failure to reach it ({@link MarketplaceConnectionError}), or an answer that breaks its schema
 * ({@link MarketplaceResponseError}). None of them carries request headers, the signature or the secret.
 */
import { type ErrorCode, isErrorCode, readErrorBody } from '@domainkit/protocol';

/** Codes the client adds to the Partner API spec 7 codes for failures that have no error body of the marketplace. */
export const CLIENT_ERROR_CODES = {
  /** The marketplace could not be reached, the connection broke, or the attempt timed out. */
  connection_error: 'connection_error',
  /** The marketplace answered, but the body is not JSON or breaks the endpoint's schema. */
  invalid_response: 'invalid_response',
  /** The marketplace answered an error status without a readable error body. */
  http_error: 'http_error',
  /** The client refused to send a request whose input is malformed (nothing was sent). */
  validation_error: 'validation_error',
  /**
   * The marketplace answered an error code this package does not know (newer than the package): the code as sent
   * is in {@link MarketplaceError.rawCode}. Handle it by its HTTP status.
   */
  unknown_code: 'unknown_code',
} as const;

/**
 * The error codes of a Bearer token challenge (RFC 6750 3.1) that the Public API answers (Public API spec 5.2):
 * `invalid_token` (expired, revoked or malformed: refresh or sign in again), `insufficient_scope`, `invalid_request`.
 */
export const BEARER_ERROR_CODES = {
  invalid_request: 'invalid_request',
  invalid_token: 'invalid_token',
  insufficient_scope: 'insufficient_scope',
} as const;

/** One of {@link BEARER_ERROR_CODES}. */
export type BearerErrorCode = (typeof BEARER_ERROR_CODES)[keyof typeof BEARER_ERROR_CODES];

/** A code the client itself raises: one of {@link CLIENT_ERROR_CODES}. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/**
 * The `code` of a {@link MarketplaceError}: a Partner API spec 7 code, a Bearer challenge code (RFC 6750 3.1), or
 * one of the client's. A closed union, so a misspelt code in a comparison fails type-checking. A code newer than
 * this package arrives as `unknown_code`, its raw value in {@link MarketplaceError.rawCode}.
 */
export type MarketplaceErrorCode = ErrorCode | BearerErrorCode | ClientErrorCode;

/** True when `code` is a {@link MarketplaceErrorCode} this package knows. */
export function isMarketplaceErrorCode(code: unknown): code is MarketplaceErrorCode {
  return (
    typeof code === 'string' &&
    (isErrorCode(code) || Object.hasOwn(BEARER_ERROR_CODES, code) || Object.hasOwn(CLIENT_ERROR_CODES, code))
  );
}

/** The fields of a {@link MarketplaceError}. */
export interface MarketplaceErrorFields {
  /** HTTP status of the answer; `undefined` when no answer arrived (connection errors, refused input). */
  readonly status: number | undefined;
  /** A Partner API spec 7 code (`rate_limited`, `not_found`, ...) or one of {@link CLIENT_ERROR_CODES}. */
  readonly code: MarketplaceErrorCode;
  /** The code exactly as the marketplace's error body gave it; `undefined` when the body had none. */
  readonly rawCode?: string | undefined;
  readonly message: string;
  /** Seconds to wait before retrying, from the `Retry-After` header (Partner API spec 8); `undefined` when absent. */
  readonly retryAfter?: number | undefined;
  /** The marketplace's request id (`request_id` of the body or the `X-Request-Id` header), for support. */
  readonly requestId?: string | undefined;
  /** `"GET /domains/search"`: the endpoint the request was for. */
  readonly endpoint?: string | undefined;
  /** Further fields of the error body beside code, message and request id (such as `price_cents`). */
  readonly details?: Readonly<Record<string, unknown>> | undefined;
  readonly cause?: unknown;
}

/**
 * Raised when a Partner API request fails: the marketplace answered an error (Partner API spec 7), or one of the subclasses
 * below. Check `code` (stable) rather than `message` (for people).
 */
export class MarketplaceError extends Error {
  /** HTTP status of the answer; `undefined` when no answer arrived. */
  readonly status: number | undefined;
  /** Partner API spec 7 code or a {@link CLIENT_ERROR_CODES} value. */
  readonly code: MarketplaceErrorCode;
  /**
   * The code exactly as the marketplace's error body gave it (equal to `code` for a known one, the unknown value
   * when `code` is `unknown_code`), or `undefined` when no error body with a code arrived.
   */
  readonly rawCode: string | undefined;
  /** Seconds to wait before retrying (`Retry-After`, Partner API spec 8), or `undefined`. */
  readonly retryAfter: number | undefined;
  /** The marketplace's request id, or `undefined`. */
  readonly requestId: string | undefined;
  /** The endpoint, as `METHOD /path` relative to `/api/partner/v1`. */
  readonly endpoint: string | undefined;
  /**
   * Further fields of the error body, such as `price_cents` of a 422 `price_mismatch` (the current price), or
   * `undefined`. From the marketplace: treat as untrusted data.
   */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(fields: MarketplaceErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'MarketplaceError';
    this.status = fields.status;
    this.code = fields.code;
    this.rawCode = fields.rawCode;
    this.retryAfter = fields.retryAfter;
    this.requestId = fields.requestId;
    this.endpoint = fields.endpoint;
    this.details = fields.details;
  }

  /** A JSON form for logs: name, code, status, message, retryAfter, requestId, endpoint (no cause, no headers). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      rawCode: this.rawCode,
      status: this.status,
      message: this.message,
      retryAfter: this.retryAfter,
      requestId: this.requestId,
      endpoint: this.endpoint,
      details: this.details,
    };
  }
}

/** Raised when the marketplace could not be reached, the connection broke, or an attempt timed out (no answer). */
export class MarketplaceConnectionError extends MarketplaceError {
  constructor(fields: { message: string; endpoint: string; cause?: unknown }) {
    super({ ...fields, status: undefined, code: CLIENT_ERROR_CODES.connection_error });
    this.name = 'MarketplaceConnectionError';
  }
}

/** Raised when the marketplace answered 2xx with a body that is not JSON or breaks the endpoint's schema. */
export class MarketplaceResponseError extends MarketplaceError {
  constructor(fields: {
    status: number;
    message: string;
    endpoint: string;
    requestId?: string | undefined;
    cause?: unknown;
  }) {
    super({ ...fields, code: CLIENT_ERROR_CODES.invalid_response });
    this.name = 'MarketplaceResponseError';
  }
}

/** Raised before sending when an argument is malformed (for example an empty search query); nothing was sent. */
export class MarketplaceValidationError extends MarketplaceError {
  constructor(fields: { message: string; endpoint: string; cause?: unknown }) {
    super({ ...fields, status: undefined, code: CLIENT_ERROR_CODES.validation_error });
    this.name = 'MarketplaceValidationError';
  }
}

/** What the factory needs from an HTTP answer. */
export interface ErrorResponse {
  readonly status: number;
  /** Lowercase header names, as undici gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body text. */
  readonly bodyText: string;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads `Retry-After` (RFC 9110 10.2.3): delay-seconds, or an HTTP-date turned into seconds from `nowMs`.
 * @returns whole seconds (≥ 0), or `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = firstHeader(value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function fallbackCode(status: number): MarketplaceErrorCode {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal_error';
  return CLIENT_ERROR_CODES.http_error;
}

/**
 * The single factory of error answers: builds a {@link MarketplaceError} from a non-2xx response.
 *
 * Reads `code`, `message` and `request_id` from the nested body `{"error": {...}}` (the sandbox's shape) or a
 * flat `{code, message}` body (Partner API spec 7 names only `code` and `message`); the request id falls back to the
 * `X-Request-Id` header, the retry delay comes from `Retry-After` (Partner API spec 8). A body with neither shape still gives
 * an error, with a code derived from the status (`rate_limited`, `internal_error`, else `http_error`).
 * A code this package does not know becomes `unknown_code`, the value as sent kept in `rawCode`.
 */
export function errorFromResponse(response: ErrorResponse, endpoint: string, nowMs: number): MarketplaceError {
  let body: unknown;
  try {
    body = response.bodyText === '' ? undefined : JSON.parse(response.bodyText);
  } catch {
    body = undefined;
  }
  const read = readErrorBody(body);
  const requestId = read?.requestId ?? firstHeader(response.headers['x-request-id']);
  let details: Record<string, unknown> | undefined;
  if (read !== undefined && typeof body === 'object' && body !== null) {
    const outer = body as Record<string, unknown>;
    const inner =
      typeof outer.error === 'object' && outer.error !== null ? (outer.error as Record<string, unknown>) : outer;
    const { code: _c, message: _m, request_id: _r, ...rest } = inner;
    if (Object.keys(rest).length > 0) details = rest;
  }
  return new MarketplaceError({
    status: response.status,
    code:
      read === undefined
        ? fallbackCode(response.status)
        : isMarketplaceErrorCode(read.code)
          ? read.code
          : CLIENT_ERROR_CODES.unknown_code,
    rawCode: read?.code,
    message: read?.message ?? `${endpoint} answered HTTP ${response.status} without a readable error body.`,
    retryAfter: parseRetryAfter(response.headers['retry-after'], nowMs),
    requestId,
    endpoint,
    details,
  });
}
