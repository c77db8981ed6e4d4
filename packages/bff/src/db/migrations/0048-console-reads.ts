/**
 * Migration 0048: the back-office console's reads (console/store.ts), one row per credential and view query, so every
 * BFF process on one PostgreSQL answers a console from the same copy and reads the marketplace once per freshness
 * period, whichever process a tab reaches; `tags` name what the copy shows, so a webhook event or a console write
 * drops exactly those rows for every process at once.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_console_reads')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('tags', sql`text[]`, (c) => c.notNull())
    .addColumn('read_ms', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_console_reads_pk', ['key_id', 'key'])
    .execute();
  await db.schema
    .createIndex('bff_console_reads_read')
    .on('bff_console_reads')
    .columns(['key_id', 'read_ms'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_console_reads').ifExists().execute();
}
