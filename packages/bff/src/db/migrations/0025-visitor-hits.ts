/**
 * Migration 0025: per-visitor request counts shared by every BFF process on one PostgreSQL (visitor-limits.ts), so
 * a visitor behind a round-robin balancer gets the limit once, not once per process.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_visitor_hits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_ms', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bff_visitor_hits_reset').on('bff_visitor_hits').column('reset_ms').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_visitor_hits').ifExists().execute();
}
