/**
 * Migration 0040: the brokerage cases a shop's visitors opened through the BFF (brokerage/case-store.ts), per
 * credential: the visitor's attempt key (`Idempotency-Key`, hashed) makes a retried request answer the same case,
 * and `brokerage.case_completed` (webhooks) moves a case to its outcome.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_brokerage_cases')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('attempt_hash', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('budget_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('case_id', 'text')
    .addColumn('status', 'text')
    .addColumn('progress_url', 'text')
    .addColumn('deal_price_cents', 'bigint')
    .addColumn('commission_cents', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_brokerage_cases_pk', ['key_id', 'attempt_hash'])
    .execute();
  await db.schema
    .createIndex('bff_brokerage_cases_case')
    .on('bff_brokerage_cases')
    .columns(['key_id', 'case_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_brokerage_cases').ifExists().execute();
}
