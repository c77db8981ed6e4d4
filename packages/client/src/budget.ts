/**
 * A hook through which a caller shapes upstream traffic to the Partner API's rate limits (Partner API spec 8): the request
 * sender asks the budget before every attempt (retries included, since each one counts against the limit) and
 * tells it about every 429 answer, with the `Retry-After` seconds.
 *
 * The client has no budget of its own; the BFF plugs in a token bucket shared by all its processes.
 */
import type { RateClass } from './endpoint.ts';

/** One attempt about to be sent. */
export interface BudgetRequest {
  /** The endpoint's Partner API spec 8 class. */
  readonly rateClass: RateClass;
  /** `METHOD /path` of the endpoint, for logs. */
  readonly endpoint: string;
  /** 0 for the first attempt of a call, 1 for its first retry, and so on. */
  readonly attempt: number;
  /** The call's abort signal, if any: a budget that waits should stop waiting when it aborts. */
  readonly signal?: AbortSignal | undefined;
  /** The call's `CallOptions.context`: an opaque value from the caller to its budget (such as a wait limit). */
  readonly context?: unknown;
}

/** A 429 the marketplace answered. */
export interface RateLimitedNotice {
  readonly rateClass: RateClass;
  readonly endpoint: string;
  /** Seconds from `Retry-After`, or `undefined` when the header was absent or unreadable. */
  readonly retryAfter: number | undefined;
}

/** Decides when an attempt may be sent. */
export interface UpstreamBudget {
  /**
   * Resolves when the attempt may be sent (at once, or after waiting for a token). Rejecting abandons the call:
   * the rejection is what the call rejects with, and nothing is sent.
   */
  acquire(request: BudgetRequest): Promise<void> | void;
  /** Told about each 429 answer (before the sender decides whether to retry), so the budget can pause. */
  onRateLimited?(notice: RateLimitedNotice): Promise<void> | void;
  /**
   * Told when an attempt ended, with the same `request` object `acquire` was given (for the first attempt of a call
   * with `budgetAcquired`, one `acquire` never saw): `answered` when an HTTP answer came back (any status: the
   * marketplace received the attempt), false after a network error or timeout (it may still arrive). Must not throw.
   */
  settled?(request: BudgetRequest, outcome: { readonly answered: boolean }): void;
}
