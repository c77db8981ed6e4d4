/**
 * When a Partner API attempt is retried, and how long to wait: a short ordered list of rules, then exponential
 * back-off with full jitter and a cap.
 *
 * Every retry is a new attempt, signed afresh with a new timestamp and nonce (Partner API spec 5.1 "Replay protection": "Use a
 * new nonce on every attempt, including retries"). A write is repeated after an ambiguous failure (network error,
 * 5xx) only when it carries an Idempotency-Key, so the marketplace can tell a retry from a second sale (Partner API spec 4.1
 * "Idempotency on POST /orders").
 */
import { ErrorCode } from '@domainkit/protocol';

/** How one attempt ended, as far as the retry rules need to know. */
export interface AttemptOutcome {
  /** HTTP status, or `undefined` when no answer arrived (network error, timeout). */
  readonly status: number | undefined;
  /** The error code of the answer (Partner API spec 7), when there is one. */
  readonly code: string | undefined;
}

/** One retry rule. */
export interface RetryRule {
  /** Short name, for logs and tests. */
  readonly name: string;
  /** True when the rule applies to this outcome. */
  readonly matches: (outcome: AttemptOutcome) => boolean;
  /**
   * True when the request may have been processed before it failed, so repeating it is only allowed for requests
   * that are safe to repeat: idempotent methods (RFC 9110 9.2.2) or writes carrying an Idempotency-Key.
   */
  readonly onlyWhenSafe: boolean;
}

/**
 * The retry rules, in order; the first that matches decides.
 */
export const RETRY_RULES: readonly RetryRule[] = [
  {
    // No answer: the connection failed, broke, or the attempt timed out. The request may have been processed,
    // so only a request that is safe to repeat is retried.
    // https://stripe.com/blog/idempotency
    name: 'network_error',
    matches: (o) => o.status === undefined,
    onlyWhenSafe: true,
  },
  {
    // 429 rate_limited: the request was refused before any processing; wait `Retry-After` seconds (Partner API spec 7, 8;
    // RFC 6585 section 4, RFC 9110 10.2.3). Safe for any method.
    name: 'rate_limited',
    matches: (o) => o.status === 429,
    onlyWhenSafe: false,
  },
  {
    // 401 replay_detected: the nonce was seen before (for example a retry by a proxy); the request was refused
    // before processing and a fresh nonce fixes it (Partner API spec 5.1 "Replay protection"). Safe for any method.
    name: 'replay_detected',
    matches: (o) => o.code === ErrorCode.ReplayDetected,
    onlyWhenSafe: false,
  },
  {
    // 5xx: "Unexpected server error; retry with exponential back-off" (Partner API spec 7 internal_error). The request may
    // have been processed, so only a request that is safe to repeat is retried.
    name: 'server_error',
    matches: (o) => o.status !== undefined && o.status >= 500,
    onlyWhenSafe: true,
  },
];

/** Methods whose repetition has the same effect as one request (RFC 9110 9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * The rule that allows retrying this outcome, or `undefined` when it must not be retried.
 * @param safeToRepeat - the method is idempotent, or the write carries an Idempotency-Key.
 */
export function retryRuleFor(outcome: AttemptOutcome, safeToRepeat: boolean): RetryRule | undefined {
  const rule = RETRY_RULES.find((r) => r.matches(outcome));
  if (rule === undefined || (rule.onlyWhenSafe && !safeToRepeat)) return undefined;
  return rule;
}

/** Back-off settings, in milliseconds. */
export interface BackoffOptions {
  /** The first delay's upper bound; doubles on each retry. */
  readonly initialDelayMs: number;
  /** The cap on any delay. */
  readonly maxDelayMs: number;
  /** A number in [0, 1); injectable for tests. */
  readonly random: () => number;
}

/**
 * Exponential back-off with full jitter: a uniform delay in `[0, min(cap, initial · 2^retry))`.
 * @param retry - 0 for the first retry.
 * @returns the delay in milliseconds.
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */
export function backoffDelayMs(retry: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** retry);
  return Math.floor(options.random() * ceiling);
}
