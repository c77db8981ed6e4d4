/**
 * The outcome of counting one request against a budget: the same shape for the Partner API's limits
 * (`partner.ts`, Partner API spec 8) and those of the Public API, OAuth and MCP (`public.ts`).
 */

/** Whether a counted request may proceed, and what is left of its window. */
export interface RateDecision {
  readonly allowed: boolean;
  /** The budget of the window. */
  readonly limit: number;
  /** Units left in the window after this request. */
  readonly remaining: number;
  /** Whole seconds until the window ends (at least 1): the `Retry-After` of a refusal. */
  readonly resetSeconds: number;
}
