/**
 * The brokerage cases a shop's visitors opened through the BFF (migration 0040): one row per visitor attempt
 * (`Idempotency-Key`, stored hashed), written `pending` before `POST /brokerage` goes upstream, so a retried or
 * doubled request answers the same case instead of opening a second one; `brokerage.case_completed` records the
 * outcome.
 */
import { createHash } from 'node:crypto';
import type { BffDb } from '../db/tables.ts';
import { toCents } from '../db/tables.ts';

/** SHA-256 (hex) of a visitor's attempt key: the key itself is never stored. */
export function attemptHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The row of a visitor attempt, or undefined. */
export function findAttempt(db: BffDb, keyId: string, hash: string) {
  return db
    .selectFrom('bff_brokerage_cases')
    .selectAll()
    .where('key_id', '=', keyId)
    .where('attempt_hash', '=', hash)
    .executeTakeFirst();
}

/**
 * Claims a visitor attempt before anything goes upstream: inserts it `pending`, or takes over a `refused` one.
 * @returns true when this request owns the attempt now; false when another request has it (pending or opened).
 */
export async function claimAttempt(
  db: BffDb,
  row: {
    keyId: string;
    hash: string;
    domain: string;
    buyerEmail: string;
    budgetCents: number;
    currency: string;
    tier: string;
    now: Date;
  },
): Promise<boolean> {
  const values = {
    key_id: row.keyId,
    attempt_hash: row.hash,
    domain: row.domain,
    buyer_email: row.buyerEmail,
    budget_cents: row.budgetCents,
    currency: row.currency,
    tier: row.tier,
    state: 'pending' as const,
    case_id: null,
    status: null,
    progress_url: null,
    deal_price_cents: null,
    commission_cents: null,
    created_at: row.now,
    updated_at: row.now,
  };
  const inserted = await db
    .insertInto('bff_brokerage_cases')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['key_id', 'attempt_hash'])
        .doUpdateSet({ ...values, created_at: row.now })
        .where('bff_brokerage_cases.state', '=', 'refused'),
    )
    .returning('attempt_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Records the marketplace's case for a claimed attempt. */
export async function markOpened(
  db: BffDb,
  keyId: string,
  hash: string,
  opened: { caseId: string; status: string; progressUrl: string; now: Date },
): Promise<void> {
  await db
    .updateTable('bff_brokerage_cases')
    .set({
      state: 'opened',
      case_id: opened.caseId,
      status: opened.status,
      progress_url: opened.progressUrl,
      updated_at: opened.now,
    })
    .where('key_id', '=', keyId)
    .where('attempt_hash', '=', hash)
    .execute();
}

/** Releases a claimed attempt the marketplace refused (or never answered): the visitor may try it again. */
export async function markRefused(db: BffDb, keyId: string, hash: string, now: Date): Promise<void> {
  await db
    .updateTable('bff_brokerage_cases')
    .set({ state: 'refused', updated_at: now })
    .where('key_id', '=', keyId)
    .where('attempt_hash', '=', hash)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Records a case's outcome from `brokerage.case_completed` (idempotent: the same event applied twice leaves the
 * same row).
 * @returns how many stored cases it named (0 for a case opened elsewhere than through this BFF).
 */
export async function recordCaseOutcome(
  db: BffDb,
  keyId: string,
  outcome: {
    caseId: string;
    status: string;
    dealPriceCents: number | null;
    commissionCents: number | null;
    now: Date;
  },
): Promise<number> {
  const result = await db
    .updateTable('bff_brokerage_cases')
    .set({
      status: outcome.status,
      deal_price_cents: outcome.dealPriceCents,
      commission_cents: outcome.commissionCents,
      updated_at: outcome.now,
    })
    .where('key_id', '=', keyId)
    .where('case_id', '=', outcome.caseId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The cases stored for a credential, newest first (for the partner's own pages and tests). */
export async function listStoredCases(db: BffDb, keyId: string, limit = 100) {
  const rows = await db
    .selectFrom('bff_brokerage_cases')
    .selectAll()
    .where('key_id', '=', keyId)
    .where('state', '=', 'opened')
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    case_id: r.case_id as string,
    domain: r.domain,
    buyer_email: r.buyer_email,
    budget_cents: toCents(r.budget_cents),
    currency: r.currency,
    tier: r.tier,
    status: r.status as string,
    progress_url: r.progress_url as string,
    deal_price_cents: r.deal_price_cents === null ? null : toCents(r.deal_price_cents),
    commission_cents: r.commission_cents === null ? null : toCents(r.commission_cents),
    created_at: new Date(r.created_at).toISOString(),
  }));
}
