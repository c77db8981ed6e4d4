/**
 * Schema migrations, run with Kysely's `Migrator` from an in-code provider (no file-system scan, so the package
 * works the same from `src/` and from a build). Add a migration by importing its module here; never edit or rename
 * one that has shipped.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as m0001 from './migrations/0001-initial.ts';

/** Every migration, by name; names sort in the order they must run. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': m0001,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };

/**
 * Brings the schema to the latest migration. Concurrent callers on one PostgreSQL are serialised by Kysely's
 * migration lock table.
 * @param schema - the PostgreSQL schema holding the tables and the migration bookkeeping.
 * @throws {Error} naming the migration that failed, with the database error as `cause`.
 */
export async function migrateToLatest(db: Kysely<any>, schema: string): Promise<void> {
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`sandbox database migration ${failed ?? '(setup)'} failed`, { cause: error });
  }
}
