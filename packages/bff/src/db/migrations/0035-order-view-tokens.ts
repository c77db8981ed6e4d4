/**
 * Migration 0035: the order-view tokens a purchase key's retries were given, beside the first one (kept in
 * `bff_order_intents.token_hash`). A retry after a lost answer adds a token; none is ever replaced, so the buyer's
 * earlier token keeps working. Only SHA-256 hex of each token is stored.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_order_view_tokens')
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_order_view_tokens_pk', ['intent_id', 'token_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_order_view_tokens').ifExists().execute();
}
