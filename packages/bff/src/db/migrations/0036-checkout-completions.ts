/**
 * Migration 0036: each hosted-checkout session whose completion the partner's `onCheckoutCompleted` hook was told
 * of, per credential (checkout/return-route.ts). The row is written before the hook runs, so a signed return
 * replayed after a restart, on another replica, or signed again later for the same session never runs it twice.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_checkout_completions')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('checkout_session_id', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('hook_error', 'text')
    .addPrimaryKeyConstraint('bff_checkout_completions_pk', ['key_id', 'checkout_session_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_checkout_completions').ifExists().execute();
}
