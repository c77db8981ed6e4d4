/**
 * Error answers of the widget ↔ BFF API (docs/architecture.md "The widget ↔ BFF API"): `{"error": {"code", "message"}}` with a
 * 4xx/5xx status; `busy` (503) adds `retry_after` (seconds) and a `Retry-After` header. Upstream failures become
 * visitor-safe messages; the detail goes to the log, never to the browser.
 */
import { MarketplaceError } from '@domainkit/client';
import { ErrorCode, WIDGET_ERROR_CODES, type WidgetErrorCode } from '@domainkit/protocol';
import type { RateClass } from '@domainkit/client';
import { unrefTimer } from './platform.ts';
import { redactDeep, redactText } from './logger.ts';
import type { Logger } from 'pino';

/** Raised by a payment adapter's `parsePayment` (purchase/payments.ts) for a payload the visitor must fix; answered 400 with the message. */
export class PaymentInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentInputError';
  }
}

/**
 * Raised when the upstream budget has no token for a call within its wait limit; the visitor is answered 503
 * `busy` with `retry_after` seconds.
 */
export class UpstreamBusyError extends Error {
  /** Stable code. */
  readonly code = 'upstream_busy';
  /** The class whose budget is spent. */
  readonly rateClass: RateClass;
  /** Whole seconds until a token is expected (at least 1). */
  readonly retryAfter: number;

  constructor(rateClass: RateClass, retryAfter: number) {
    super(`the ${rateClass} budget is spent for ${retryAfter} s`);
    this.name = 'UpstreamBusyError';
    this.rateClass = rateClass;
    this.retryAfter = retryAfter;
  }
}

/**
 * The error codes the BFF answers the widget with, and their HTTP statuses: protocol's {@link WIDGET_ERROR_CODES}
 * (the one list of the widget ↔ BFF API, with when each is answered).
 */
export const BFF_ERROR_CODES = Object.fromEntries(
  Object.entries(WIDGET_ERROR_CODES).map(([code, { status }]) => [code, status]),
) as { readonly [C in WidgetErrorCode]: (typeof WIDGET_ERROR_CODES)[C]['status'] };

/** A BFF error code. */
export type BffErrorCode = WidgetErrorCode;

/** The message of every 502: nothing about why, which is logged instead. */
export const UPSTREAM_ERROR_MESSAGE = 'The marketplace could not be reached; try again shortly.';

/** Seconds a visitor is asked to wait when the marketplace sent 429 without a usable Retry-After. */
export const DEFAULT_BUSY_RETRY_AFTER_SECONDS = 5;

/** An answer the BFF decided on: raised inside a route, answered by the router's error handler. */
export class BffHttpError extends Error {
  readonly status: number;
  readonly code: BffErrorCode;
  /** Seconds, for `busy` and `rate_limited`. */
  readonly retryAfter: number | undefined;
  /** Further fields of `error` (such as `price_cents` of `price_mismatch`). */
  readonly extra: Readonly<Record<string, number | string>> | undefined;

  constructor(
    code: BffErrorCode,
    message: string,
    options: { retryAfter?: number; cause?: unknown; extra?: Record<string, number | string> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BffHttpError';
    this.code = code;
    this.status = BFF_ERROR_CODES[code];
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
  }
}

/** The visitor's answer when the upstream budget has no token in time. */
export function busyAnswer(error: UpstreamBusyError): BffHttpError {
  const what = error.rateClass === 'search' ? 'The domain search is busy right now' : 'The shop is busy right now';
  return new BffHttpError('busy', `${what}; retry in ${error.retryAfter} s.`, {
    retryAfter: error.retryAfter,
    cause: error,
  });
}

/**
 * Maps an upstream failure to what the visitor may see (docs/architecture.md "Contracts": upstream failures map to safe messages).
 *
 * - 404 `not_found` → 404 `not_found`;
 * - 409 `conflict` → 409 `conflict` ("just sold");
 * - 429 `rate_limited` → 503 `busy` with the upstream `Retry-After`;
 * - anything else (401/403 credential problems, other 4xx, 5xx, connection errors, answers breaking the schema)
 *   → 502 `upstream_error` with a fixed message.
 */
export function fromUpstream(error: MarketplaceError): BffHttpError {
  if (error.status === 404 && error.code === ErrorCode.NotFound)
    return new BffHttpError('not_found', 'That domain is not listed for sale.', { cause: error });
  if (error.status === 409 && error.code === ErrorCode.Conflict) {
    return new BffHttpError('conflict', 'That domain has just been sold or reserved; choose another one.', {
      cause: error,
    });
  }
  if (error.status === 429) {
    const retryAfter = Math.max(1, error.retryAfter ?? DEFAULT_BUSY_RETRY_AFTER_SECONDS);
    const what =
      error.endpoint === undefined || /\/(domains?|availability|pricing)\b/.test(error.endpoint)
        ? 'The domain search is busy right now'
        : 'The shop is busy right now';
    return new BffHttpError('busy', `${what}; retry in ${retryAfter} s.`, { retryAfter, cause: error });
  }
  return new BffHttpError('upstream_error', UPSTREAM_ERROR_MESSAGE, { cause: error });
}

interface BodyParserError {
  type: string;
  status: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as BodyParserError).type === 'string' &&
    typeof (error as BodyParserError).status === 'number'
  );
}

/** The SQLSTATE of a PostgreSQL data exception (class 22) or constraint violation (class 23), from `pg` or PGlite. */
export function clientDataSqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code) ? code : undefined;
}

/** Errors of a socket to the database server (`pg`), by `code`. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * Whether `error` says the database server cannot be used right now rather than that a statement is wrong: a
 * connection refused, cut or timed out (`pg`'s "Connection terminated…", "timeout exceeded when trying to connect",
 * a client no longer queryable), or a PostgreSQL SQLSTATE of class 08 (connection exception) or 57P01–57P03 (the
 * server shutting down, crashed, or not yet accepting connections). A retry after a moment may succeed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || error instanceof MarketplaceError) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || /^(08[0-9A-Z]{3}|57P0[1-3])$/.test(code)))
    return true;
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
      message,
    )
  );
}

/** The answer while the database cannot be used: 503 `unavailable` (a retry after a moment may succeed). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The shop cannot reach its database right now; try again shortly.';

/** Turns anything a route raised into the answer to send (and whether it deserves a log line). */
export function toAnswer(
  error: unknown,
  limits: { bodyLimitKb: number },
): { answer: BffHttpError; log: 'none' | 'busy' | 'warn' | 'error' | 'defect' } {
  if (error instanceof BffHttpError)
    return { answer: error, log: error.code === 'unavailable' && isDatabaseUnavailable(error.cause) ? 'warn' : 'none' };
  // "Busy" is an expected outcome when the budget is spent: counted, logged once per interval, never one by one.
  if (error instanceof UpstreamBusyError) return { answer: busyAnswer(error), log: 'busy' };
  if (error instanceof PaymentInputError)
    return { answer: new BffHttpError('validation_error', error.message), log: 'none' };
  if (error instanceof MarketplaceError) {
    const answer = fromUpstream(error);
    return { answer, log: answer.code === 'upstream_error' ? 'error' : answer.code === 'busy' ? 'warn' : 'none' };
  }
  if (isBodyParserError(error)) {
    switch (error.type) {
      case 'entity.too.large':
        return {
          answer: new BffHttpError(
            'payload_too_large',
            `The body is larger than ${limits.bodyLimitKb} kB: send only {"domain": "example.com"}.`,
          ),
          log: 'none',
        };
      case 'entity.parse.failed':
        return {
          answer: new BffHttpError('validation_error', 'The body is not valid JSON: send {"domain": "example.com"}.'),
          log: 'none',
        };
      case 'charset.unsupported':
      case 'encoding.unsupported':
        return {
          answer: new BffHttpError(
            'unsupported_media_type',
            'Send the body as UTF-8 JSON (Content-Type: application/json), without content encoding.',
          ),
          log: 'none',
        };
      default:
        if (error.status >= 400 && error.status < 500)
          return {
            answer: new BffHttpError(
              'validation_error',
              'The request could not be read; send {"domain": "example.com"} as JSON.',
            ),
            log: 'none',
          };
    }
  }
  if (
    error instanceof URIError ||
    (typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 400)
  ) {
    return {
      answer: new BffHttpError(
        'validation_error',
        'The URL holds a malformed percent-escape; encode the value with encodeURIComponent.',
      ),
      log: 'none',
    };
  }
  if (isDatabaseUnavailable(error))
    return { answer: new BffHttpError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, { cause: error }), log: 'warn' };
  // The database refused a value the input policy let through: the visitor's input is at fault (4xx), the BFF's
  // validation has a defect (logged at error).
  if (clientDataSqlState(error) !== undefined) {
    return {
      answer: new BffHttpError(
        'validation_error',
        'A value in the request cannot be stored: text must not hold control characters, numbers and dates must be within their ranges.',
      ),
      log: 'defect',
    };
  }
  return { answer: new BffHttpError('internal_error', 'Something went wrong on our side; try again.'), log: 'error' };
}

/** What is safe to log of an upstream error: no headers, no body beyond its code and message. */
export function upstreamLogFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof MarketplaceError)) {
    return {
      error:
        error instanceof Error
          ? { name: error.name, message: redactText(error.message), stack: redactText(error.stack ?? '') }
          : redactText(String(error)),
    };
  }
  // The upstream's message and details are its text: they may echo a signature or a secret (logger.ts).
  const cause = error.cause instanceof Error ? redactText(`${error.cause.name}: ${error.cause.message}`) : undefined;
  return { upstream: { ...(redactDeep(error.toJSON()) as Record<string, unknown>), cause } };
}

/** Seconds between two log lines counting the `busy` answers given meanwhile. */
export const BUSY_LOG_INTERVAL_SECONDS = 60;

/**
 * Counts `busy` answers and logs their number once per {@link BUSY_LOG_INTERVAL_SECONDS} (one `info` line
 * `{busy, interval_seconds}`, no stack trace), when there were any.
 */
export function busyLog(logger: Logger): () => void {
  let count = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    count++;
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      logger.info({ busy: count, interval_seconds: BUSY_LOG_INTERVAL_SECONDS }, 'searches answered busy');
      count = 0;
      timer = undefined;
    }, BUSY_LOG_INTERVAL_SECONDS * 1000);
    unrefTimer(timer);
  };
}
