/**
 * Migration 0030: the shared search cache belongs to one credential in one environment (Partner API spec 1
 * "Environments": SANDBOX and LIVE share one base URL, the credential selects the inventory). The answers, the
 * evictions and the listings of migration 0020 carried no credential, so shops of several credentials on one
 * database answered from each other's cache; every row now names its `key_id` and `environment`, and every key
 * includes them. The rows of 0020 are dropped: they name no credential, and each is an upstream answer the BFF
 * fetches again when asked.
 */
import { sql, type Kysely } from 'kysely';
import * as m0020 from './0020-search-answers.ts';

const TABLES = ['bff_listings', 'bff_search_evictions', 'bff_search_answers'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.dropTable(table).ifExists().execute();

  await db.schema
    .createTable('bff_search_answers')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('domains', sql`text[]`, (c) => c.notNull())
    .addColumn('stored_ms', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_search_answers_pkey', ['key_id', 'environment', 'key'])
    .execute();
  await sql`create index bff_search_answers_domains on bff_search_answers using gin (domains)`.execute(db);
  await db.schema
    .createIndex('bff_search_answers_stored')
    .on('bff_search_answers')
    .columns(['key_id', 'environment', 'stored_ms'])
    .execute();

  await db.schema
    .createTable('bff_search_evictions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('at_ms', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bff_search_evictions_scope')
    .on('bff_search_evictions')
    .columns(['key_id', 'environment', 'id'])
    .execute();

  await db.schema
    .createTable('bff_listings')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('available', 'boolean', (c) => c.notNull())
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('seen_ms', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_listings_pkey', ['key_id', 'environment', 'domain'])
    .execute();
  await db.schema
    .createIndex('bff_listings_seen')
    .on('bff_listings')
    .columns(['key_id', 'environment', 'seen_ms'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.dropTable(table).ifExists().execute();
  await m0020.up(db);
}
