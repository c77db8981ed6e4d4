/**
 * Fault injection, so a partner can test how its integration copes with a misbehaving marketplace. The settings
 * live in the database (one row), so every sandbox process sharing a PostgreSQL injects the same faults; they are
 * set through the admin API (`PUT /admin/faults`), the CLI (`domainkit-sandbox faults`) or the `faults` option.
 *
 * On Partner API requests, before authentication (so an injected failure consumes no nonce and stores nothing):
 * - `latency_ms`: every answer is delayed that long;
 * - `rate_limit_burst`: the next N requests answer 429 `rate_limited` with `Retry-After: rate_limit_retry_after`;
 * - `error_rate`: that share of requests (0–1) answer 500 `internal_error`.
 *
 * On webhook deliveries (events/outbox.ts):
 * - `duplicate_rate`: that share of delivered events is delivered a second time (same event id and body);
 * - `out_of_order_rate`: that share of events is held back, so events emitted after it arrive first.
 */
import type { RequestHandler } from 'express';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FaultSettingsRow, SandboxDb, SandboxExecutor } from '../db/tables.ts';
import { SpecError } from '../http/api-error.ts';

/** The fault settings on the wire (admin API) and in options. */
export const faultSettingsSchema = z.strictObject({
  error_rate: z.number().min(0).max(1).optional(),
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  rate_limit_burst: z.number().int().min(0).max(100_000).optional(),
  rate_limit_retry_after: z.number().int().min(1).max(3600).optional(),
  duplicate_rate: z.number().min(0).max(1).optional(),
  out_of_order_rate: z.number().min(0).max(1).optional(),
});
/** A change of fault settings: only the given fields change. */
export type FaultSettingsPatch = z.infer<typeof faultSettingsSchema>;

/** The fault settings as the admin API answers them. */
export interface FaultSettings {
  readonly error_rate: number;
  readonly latency_ms: number;
  readonly rate_limit_burst: number;
  readonly rate_limit_retry_after: number;
  readonly duplicate_rate: number;
  readonly out_of_order_rate: number;
}

function toWire(row: FaultSettingsRow): FaultSettings {
  return {
    error_rate: row.error_rate,
    latency_ms: row.latency_ms,
    rate_limit_burst: row.burst_remaining,
    rate_limit_retry_after: row.burst_retry_after,
    duplicate_rate: row.duplicate_rate,
    out_of_order_rate: row.out_of_order_rate,
  };
}

/** No faults. */
export const NO_FAULTS: FaultSettings = {
  error_rate: 0,
  latency_ms: 0,
  rate_limit_burst: 0,
  rate_limit_retry_after: 1,
  duplicate_rate: 0,
  out_of_order_rate: 0,
};

/** The current settings. */
export async function getFaults(db: SandboxExecutor): Promise<FaultSettings> {
  const row = await db.selectFrom('fault_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  return row === undefined ? NO_FAULTS : toWire(row);
}

/** Changes the given settings; answers the new ones. */
export async function updateFaults(db: SandboxExecutor, patch: FaultSettingsPatch, now: Date): Promise<FaultSettings> {
  const row = await db
    .updateTable('fault_settings')
    .set({
      ...(patch.error_rate !== undefined ? { error_rate: patch.error_rate } : {}),
      ...(patch.latency_ms !== undefined ? { latency_ms: patch.latency_ms } : {}),
      ...(patch.rate_limit_burst !== undefined ? { burst_remaining: patch.rate_limit_burst } : {}),
      ...(patch.rate_limit_retry_after !== undefined ? { burst_retry_after: patch.rate_limit_retry_after } : {}),
      ...(patch.duplicate_rate !== undefined ? { duplicate_rate: patch.duplicate_rate } : {}),
      ...(patch.out_of_order_rate !== undefined ? { out_of_order_rate: patch.out_of_order_rate } : {}),
      updated_at: now,
    })
    .where('id', '=', 1)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWire(row);
}

/** Turns every fault off. */
export async function clearFaults(db: SandboxExecutor, now: Date): Promise<FaultSettings> {
  return updateFaults(
    db,
    {
      error_rate: 0,
      latency_ms: 0,
      rate_limit_burst: 0,
      rate_limit_retry_after: 1,
      duplicate_rate: 0,
      out_of_order_rate: 0,
    },
    now,
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The Partner API's fault middleware (see the module comment).
 * @param random - source of randomness in [0, 1), injectable for tests.
 */
export function injectFaults(options: { db: SandboxDb; random?: () => number }): RequestHandler {
  const { db } = options;
  const random = options.random ?? Math.random;
  return async function injectPartnerApiFaults(_req, _res, next) {
    const faults = await getFaults(db);
    if (faults.latency_ms > 0) await sleep(faults.latency_ms);
    if (faults.rate_limit_burst > 0) {
      const taken = await db
        .updateTable('fault_settings')
        .set({ burst_remaining: sql<number>`burst_remaining - 1` })
        .where('id', '=', 1)
        .where('burst_remaining', '>', 0)
        .returning('burst_retry_after')
        .executeTakeFirst();
      if (taken !== undefined) {
        const retryAfter = taken.burst_retry_after;
        throw new SpecError(
          'rate_limited',
          `Rate limit exceeded (a 429 burst injected by the sandbox fault settings). Retry after ${retryAfter} s (Retry-After).`,
          { retry_after: retryAfter },
          { 'Retry-After': String(retryAfter) },
        );
      }
    }
    if (faults.error_rate > 0 && random() < faults.error_rate) {
      throw new SpecError(
        'internal_error',
        'Something went wrong on the sandbox (a failure injected by the fault settings). Retry with exponential back-off.',
      );
    }
    next();
  };
}
