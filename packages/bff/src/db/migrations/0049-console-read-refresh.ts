/**
 * Migration 0049: a console read being read again (console/store.ts `claim`): until `refreshing_until_ms` one
 * process reads the marketplace for a stale copy and the others serve that copy meanwhile, so N processes whose
 * tabs ask for one view as it goes stale make one upstream read, not N.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bff_console_reads').addColumn('refreshing_until_ms', 'double precision').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bff_console_reads').dropColumn('refreshing_until_ms').execute();
}
