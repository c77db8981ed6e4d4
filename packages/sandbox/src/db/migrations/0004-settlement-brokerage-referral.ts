/**
 * Migration 0004: settlement statements and payouts, brokerage cases, referral links and clicks, and the commission
 * ledger (Partner API spec 2.6, 2.7, 4.1). Sales gain the fields referral and payouts need.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sales')
    .addColumn('link_id', 'text')
    .addColumn('buyer_email', 'text')
    .addColumn('commission_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('COMPLETED'))
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('payout_id', 'text')
    .execute();
  await db.schema.alterTable('checkout_sessions').addColumn('link_id', 'text').execute();

  await db.schema
    .createTable('settlements')
    .addColumn('settlement_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('gross_sold_cents', 'bigint', (c) => c.notNull())
    .addColumn('commission_retained_cents', 'bigint', (c) => c.notNull())
    .addColumn('amount_owed_cents', 'bigint', (c) => c.notNull())
    .addColumn('order_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('payout_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('partner', 'referral')`))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('non_mor_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('brokerage_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('referral_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('brokerage_cases')
    .addColumn('case_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull().check(sql`tier in ('managed', 'self_serve')`))
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('budget_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress_token', 'text', (c) => c.notNull().unique())
    .addColumn('deal_price_cents', 'integer')
    .addColumn('commission_cents', 'integer')
    .addColumn('payout_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await sql`create unique index brokerage_open_domain_idx on brokerage_cases (environment, domain) where status not in ('CLOSED_DEAL', 'CLOSED_NO_DEAL')`.execute(
    db,
  );

  await db.schema
    .createTable('brokerage_timeline')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('case_id', 'text', (c) => c.notNull().references('brokerage_cases.case_id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('referral_links')
    .addColumn('link_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('affiliate_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('generic', 'domain', 'product')`))
    .addColumn('domain', 'text')
    .addColumn('product', 'text')
    .addColumn('label', 'text')
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('referral_clicks')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('link_id', 'text', (c) => c.notNull().references('referral_links.link_id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('referral_clicks_link_idx').on('referral_clicks').columns(['link_id', 'at']).execute();

  await db.schema
    .createTable('commission_ledger')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('affiliate_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('accrued', 'reversed', 'paid_out')`))
    .addColumn('status', 'text')
    .addColumn('sale_id', 'text')
    .addColumn('payout_id', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('commission_ledger_affiliate_idx')
    .on('commission_ledger')
    .columns(['affiliate_id', 'id'])
    .execute();
}
