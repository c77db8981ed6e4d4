/**
 * Rate limits of the Partner API (Partner API spec 8): a budget of requests per credential and class in a fixed window.
 *
 * The window opens at a credential's first request of the class and lasts `windowSeconds`; the request that finds
 * its window over opens the next one. Each request bumps one row with an atomic upsert (`insert … on conflict do
 * update … returning`), so the count is exact across any number of sandbox processes sharing one PostgreSQL.
 * A refused request answers 429 `rate_limited` with `Retry-After` (whole seconds until the window ends); after that
 * many seconds the next request opens a fresh window and succeeds.
 */
import { RATE_CLASSES, type RateClass } from '@domainkit/protocol';
import { sql } from 'kysely';
import type { SandboxDb } from '../db/tables.ts';
import type { RateDecision } from './decision.ts';

/**
 * The classes and their budgets per credential, per minute, are protocol's `RATE_CLASSES` (Partner API spec 8's
 * `search`, `write` and `reporting`; `read` and `manage` for the endpoints whose limit the spec does not show, see
 * docs/spec-decisions.md):
 *
 * | class | budget | endpoints |
 * |---|---|---|
 * | `search` | 60/min | `GET /domains/search`, `/domains/{name}`, `/availability`, `/pricing` |
 * | `write` | 20/min | `POST /quotes`, `/orders`, `/checkout-session`, `/refunds` |
 * | `reporting` | 30/min | `GET /settlements`, `/transactions`, `/payouts`, `/brokerage`, `/me/*`, `/analytics` |
 * | `read` | 120/min | `GET /orders`, `/orders/{id}`, `/events`, `/links`, `/brokerage/{id}`, `/brokerage/eligibility` |
 * | `manage` | 30/min | `PUT /webhooks`, `POST /links`, `POST /brokerage` |
 */
export { RATE_CLASSES, type RateClass };

export type { RateDecision };

/**
 * Counts one request of a credential in a class and decides.
 * @param nowMs - the sandbox clock.
 */
export async function hitRateLimit(
  db: SandboxDb,
  keyId: string,
  rateClass: RateClass,
  nowMs: number,
): Promise<RateDecision> {
  const { limit, windowSeconds } = RATE_CLASSES[rateClass];
  const now = new Date(nowMs);
  const cutoff = new Date(nowMs - windowSeconds * 1000);
  const row = await db
    .insertInto('rate_limits')
    .values({ key_id: keyId, class: rateClass, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.columns(['key_id', 'class']).doUpdateSet({
        window_start: sql<Date>`case when rate_limits.window_start <= ${cutoff}::timestamptz then ${now}::timestamptz else rate_limits.window_start end`,
        count: sql<number>`case when rate_limits.window_start <= ${cutoff}::timestamptz then 1 else rate_limits.count + 1 end`,
      }),
    )
    .returning(['window_start', 'count'])
    .executeTakeFirstOrThrow();
  const endsMs = row.window_start.getTime() + windowSeconds * 1000;
  const resetSeconds = Math.max(1, Math.ceil((endsMs - nowMs) / 1000));
  return { allowed: row.count <= limit, limit, remaining: Math.max(0, limit - row.count), resetSeconds };
}

/** Deletes windows that ended more than a window ago (housekeeping; they would be reset on next use anyway). */
export async function sweepRateLimits(db: SandboxDb, nowMs: number): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', new Date(nowMs - 2 * 60_000))
    .execute();
}
