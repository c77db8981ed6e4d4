/**
 * The BFF's way to the marketplace: the upstream budget (Partner API spec 8, in the database when there is one:
 * shared by processes on PostgreSQL, kept across restarts on PGlite) and the signed Partner API client that asks
 * it before every attempt.
 */
import { CLIENT_VERSION, PartnerClient } from '@domainkit/client';
import { createUpstreamBudget, MemoryBucketStore, SqlBucketStore, type BffUpstreamBudget } from './budget.ts';
import type { BffDb } from '../db/tables.ts';
import type { MarketplaceApi } from './marketplace-api.ts';
import { BffOptionsError } from '../options.ts';
import type { ResolvedBffOptions } from '../resolved-options.ts';
import type { BffMetrics } from '../metrics.ts';
import { runtimeProduct } from '../platform.ts';
import { currentRequestId, noteRequest } from '../http/request-context.ts';
import { BFF_VERSION } from '../version.ts';

/**
 * Creates the upstream budget and, unless one was passed in, the Partner API client.
 * @param db - the open database (the budget lives there when the BFF has one).
 * @throws {BffOptionsError} when the client cannot be created from `marketplace`.
 */
export function createUpstream(
  o: ResolvedBffOptions,
  db: () => Promise<BffDb>,
  metrics?: BffMetrics,
): { client: MarketplaceApi; budget: BffUpstreamBudget } {
  const budget = createUpstreamBudget({
    // In the database whenever there is one: shared by processes on PostgreSQL, kept across restarts on PGlite.
    store: o.database.kind === 'none' ? new MemoryBucketStore() : new SqlBucketStore(db),
    namespace: o.keyId,
    limits: o.budgetLimits,
    maxWaitMs: o.budgetMaxWaitMs,
    attemptTimeoutMs: o.upstream.timeoutMs,
    now: o.now,
  });
  return { client: o.client ?? createPartnerClient(o, budget, metrics), budget };
}

function createPartnerClient(o: ResolvedBffOptions, budget: BffUpstreamBudget, metrics?: BffMetrics): MarketplaceApi {
  const m = o.marketplace!;
  try {
    return new PartnerClient({
      baseUrl: m.baseUrl,
      keyId: m.keyId,
      secret: m.secret,
      headerPrefix: m.headerPrefix,
      dispatcher: m.dispatcher,
      timeoutMs: o.upstream.timeoutMs,
      maxRetries: o.upstream.maxRetries,
      initialRetryDelayMs: o.upstream.initialRetryDelayMs,
      // A visitor is waiting: a Retry-After over 2 s is answered "busy" at once instead of hanging the request.
      maxRetryDelayMs: o.upstream.maxRetryDelayMs,
      userAgent: `domainkit-bff/${BFF_VERSION} domainkit-client/${CLIENT_VERSION} ${runtimeProduct()}`,
      // The signing timestamp always uses the real clock (Partner API spec 5.1 ±300 s); `now` is the BFF's own
      // clock only.
      budget,
      // The visitor request being served (if any) is named upstream, so both sides' logs can be matched.
      requestId: currentRequestId,
      onAttempt: (attempt) => {
        noteRequest({ upstreamCall: true });
        metrics?.upstreamAttempt(attempt);
        if (attempt.status === 429) metrics?.budgetPaused(attempt.rateClass);
      },
    });
  } catch (error) {
    throw new BffOptionsError([`\`marketplace\`: ${(error as Error).message.replace(/^PartnerClient: /, '')}`]);
  }
}
