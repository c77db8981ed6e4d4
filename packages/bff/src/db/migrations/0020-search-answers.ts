/**
 * Migration 0020: the search answers every BFF process shares (the cache), the domains whose answers were dropped
 * (so every process drops its in-memory copies), and every listing seen in an answer (the listing index).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_search_answers')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('domains', sql`text[]`, (c) => c.notNull())
    .addColumn('stored_ms', 'double precision', (c) => c.notNull())
    .execute();
  await sql`create index bff_search_answers_domains on bff_search_answers using gin (domains)`.execute(db);

  await db.schema
    .createTable('bff_search_evictions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('at_ms', 'double precision', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bff_listings')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('available', 'boolean', (c) => c.notNull())
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('seen_ms', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bff_listings_seen').on('bff_listings').column('seen_ms').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['bff_listings', 'bff_search_evictions', 'bff_search_answers']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
