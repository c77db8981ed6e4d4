/**
 * Migration 0015: the visitor's purchase key on order intents (one key per purchase attempt, sent by the widget as
 * `Idempotency-Key` on `POST /orders`), stored as its SHA-256 hex and unique per credential, so a retry after a lost
 * answer finds its intent instead of paying again.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bff_order_intents').addColumn('purchase_key_hash', 'text').execute();
  await db.schema
    .createIndex('bff_order_intents_purchase_key')
    .on('bff_order_intents')
    .columns(['key_id', 'purchase_key_hash'])
    .unique()
    .execute();
}
