/**
 * Migration 0550: the shop's name a buyer sees on the hosted checkout (`credentials.display_name`, set in the back
 * office: `POST /admin/credentials`, `PATCH /admin/credentials/{key_id}`). Null: the checkout names the shop by its
 * return address's host.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credentials').addColumn('display_name', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credentials').dropColumn('display_name').execute();
}
