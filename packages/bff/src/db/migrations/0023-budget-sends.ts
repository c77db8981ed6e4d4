/**
 * Migration 0023: the log of upstream sends (upstream/budget.ts): each send counts against its rate class until a window
 * after its answer, so no 60-second window of the marketplace's arrivals holds more than the limit (Partner API
 * spec 8), whatever the delays; shared by processes on PostgreSQL, kept across restarts on PGlite.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_budget_sends')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('until_ms', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_budget_sends_pk', ['name', 'id'])
    .execute();
  await db.schema.createIndex('bff_budget_sends_until').on('bff_budget_sends').columns(['name', 'until_ms']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_budget_sends').ifExists().execute();
}
