/**
 * Schema migrations, run with Kysely's `Migrator` from an in-code provider (no file-system scan, so the package
 * works the same from `src/` and from a build). Add a migration by importing its module here; never edit or rename
 * one that has shipped.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as m0001 from './migrations/0001-initial.ts';
import * as m0002 from './migrations/0002-mor-orders.ts';
import * as m0003 from './migrations/0003-events-webhooks.ts';
import * as m0004 from './migrations/0004-settlement-brokerage-referral.ts';
import * as m0005 from './migrations/0005-limits-faults-scenarios.ts';
import * as m0500 from './migrations/0500-public-api.ts';
import * as m0550 from './migrations/0550-shop-name.ts';
import * as m0560 from './migrations/0560-checkout-locale.ts';

/** Every migration, by name; names sort in the order they must run. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': m0001,
  '0002_mor_orders': m0002,
  '0003_events_webhooks': m0003,
  '0004_settlement_brokerage_referral': m0004,
  '0005_limits_faults_scenarios': m0005,
  '0500_public_api': m0500,
  '0550_shop_name': m0550,
  '0560_checkout_locale': m0560,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };

/**
 * Brings the schema to the latest migration. Concurrent callers on one PostgreSQL are serialised by Kysely's
 * migration lock table.
 * @param schema - the PostgreSQL schema holding the tables and the migration bookkeeping.
 * @throws {Error} naming the migration that failed, with the database error as `cause`.
 */
export async function migrateToLatest(db: Kysely<any>, schema: string): Promise<void> {
  // Two ranges grow side by side (0002–0499 Partner API, 0500– Public API): a data folder migrated with a later
  // range first still takes an earlier migration added afterwards.
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`sandbox database migration ${failed ?? '(setup)'} failed`, { cause: error });
  }
}
