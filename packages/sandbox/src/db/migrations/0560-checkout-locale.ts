/**
 * Migration 0560: the language of the page a checkout session was opened from (`checkout_sessions.locale`, a BCP 47
 * tag the partner sent), which the hosted checkout speaks when it can. Null: the buyer's `Accept-Language` decides.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('locale', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkout_sessions').dropColumn('locale').execute();
}
