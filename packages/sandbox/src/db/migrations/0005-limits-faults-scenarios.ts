/**
 * Migration 0005: rate-limit windows (Partner API spec 8), fault-injection settings, and the scenario marker on domains.
 *
 * A rate-limit window is one row per credential and class, bumped by an atomic upsert, so the budget is exact
 * across processes sharing one PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('class', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pkey', ['key_id', 'class'])
    .execute();

  await db.schema
    .createTable('fault_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('error_rate', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('latency_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('burst_remaining', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('burst_retry_after', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('duplicate_rate', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('out_of_order_rate', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`insert into fault_settings (id, updated_at) values (1, now())`.execute(db);

  await db.schema.alterTable('domains').addColumn('scenario', 'text').addColumn('repriced_at', 'timestamptz').execute();
}
