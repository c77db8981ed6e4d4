/**
 * The BFF's database (docs/architecture.md "Storage"): embedded PGlite in `{dataDir}/pgdata` by default, or a PostgreSQL server
 * (a `pg` pool) when a connection URL is given, in a chosen schema. Either way the tables are migrated to the
 * latest version with Kysely's `Migrator` before the handle is returned.
 *
 * `pg` is the one PostgreSQL driver on every runtime: Node, Bun and Deno give it their `node:net` sockets, and on
 * Cloudflare workerd (`nodejs_compat`) it connects through `cloudflare:sockets` (its optional `pg-cloudflare`).
 * PGlite and the file system are loaded only when PGlite is opened (`pglite.ts`), so this module loads on runtimes
 * without a file system.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import * as m0001 from './migrations/0001-initial.ts';
import * as m0002 from './migrations/0002-two-phase-payments.ts';
import * as m0015 from './migrations/0015-purchase-keys.ts';
import * as m0020 from './migrations/0020-search-answers.ts';
import * as m0023 from './migrations/0023-budget-sends.ts';
import * as m0025 from './migrations/0025-visitor-hits.ts';
import * as m0030 from './migrations/0030-search-cache-per-credential.ts';
import * as m0035 from './migrations/0035-order-view-tokens.ts';
import * as m0036 from './migrations/0036-checkout-completions.ts';
import * as m0040 from './migrations/0040-brokerage-cases.ts';
import * as m0045 from './migrations/0045-order-steps.ts';
import * as m0048 from './migrations/0048-console-reads.ts';
import * as m0049 from './migrations/0049-console-read-refresh.ts';
import type { BffDb, BffTables } from './tables.ts';

/**
 * One schema migration: Kysely's `Migration`, spelled out so the published types do not import `kysely/migration`
 * (a subpath that projects on `moduleResolution: node` cannot resolve).
 */
export interface BffMigration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration runs before any table type exists, as Kysely's does.
  up(db: Kysely<any>): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  down?(db: Kysely<any>): Promise<void>;
}

/** Every migration, by name; names sort in the order they run. Never edit or rename one that has shipped. */
export const BFF_MIGRATIONS: Readonly<Record<string, BffMigration>> = {
  '0001_initial': m0001,
  '0002_two_phase_payments': m0002,
  '0015_purchase_keys': m0015,
  '0020_search_answers': m0020,
  '0023_budget_sends': m0023,
  '0025_visitor_hits': m0025,
  '0030_search_cache_per_credential': m0030,
  '0035_order_view_tokens': m0035,
  '0036_checkout_completions': m0036,
  '0040_brokerage_cases': m0040,
  '0045_order_steps': m0045,
  '0048_console_reads': m0048,
  '0049_console_read_refresh': m0049,
};

/** The tables the BFF owns, in an order safe for `truncate`. */
export const BFF_TABLES = [
  'bff_meta',
  'bff_quotes',
  'bff_order_intents',
  'bff_order_view_tokens',
  'bff_orders',
  'bff_events',
  'bff_buckets',
  'bff_budget_sends',
  'bff_search_answers',
  'bff_search_evictions',
  'bff_listings',
  'bff_visitor_hits',
  'bff_checkout_completions',
  'bff_brokerage_cases',
  'bff_order_steps',
  'bff_console_reads',
] as const;

/** A PostgreSQL schema name the BFF accepts: lowercase letters, digits and `_`, not starting with a digit. */
export const SCHEMA_NAME_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Where the BFF keeps its state. */
export interface BffDatabaseOptions {
  /**
   * A `postgres://` URL of a PostgreSQL server; several BFF processes may share it (budgets, inbox and intents
   * are exact across them). When absent, embedded PGlite is used.
   */
  readonly url?: string | undefined;
  /** The PostgreSQL schema for the tables (created when missing); default `public`. PostgreSQL only. */
  readonly schema?: string | undefined;
  /**
   * The data folder of embedded PGlite (its files go to `{dataDir}/pgdata`; made private at every open: folders
   * 0700, files 0600, whatever modes they had); default
   * `.data/bff` under the working directory. One process at a time: the folder is locked while open.
   */
  readonly dataDir?: string | undefined;
  /** Embedded PGlite in memory: nothing survives the process (tests, throwaway demos). */
  readonly memory?: boolean | undefined;
  /**
   * PostgreSQL only: open one connection for each request (and each `scheduled()` round) and close it once that
   * request's work is done, instead of one pool for the process. Cloudflare Workers need it: a socket opened while
   * serving one request cannot be used by another. Migrations still run once per process (isolate), before the
   * first query. Default: true on Cloudflare workerd, false elsewhere.
   */
  readonly perRequest?: boolean | undefined;
}

/** Default data folder of embedded PGlite, relative to the working directory. */
export const DEFAULT_BFF_DATA_DIR = '.data/bff';

/** An open, migrated database. */
export interface BffDatabase {
  readonly db: BffDb;
  /** `pglite` (embedded) or `postgres` (a server, possibly shared by several BFF processes). */
  readonly kind: 'pglite' | 'postgres';
  /** The schema holding the tables. */
  readonly schema: string;
  /** Closes the pool or the embedded database and releases the data-folder lock. Idempotent. */
  close(): Promise<void>;
}

/**
 * Brings the schema to the latest migration; concurrent callers on one PostgreSQL are serialised by Kysely's
 * migration lock.
 * @throws {Error} naming the migration that failed, with the database error as `cause`.
 */
export async function migrateBffDatabase(db: Kysely<BffTables>, schema: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => ({ ...BFF_MIGRATIONS }) };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableSchema: schema,
    migrationTableName: 'bff_migrations',
    // Migrations are numbered by the change that adds them: a database migrated with a later number first still
    // takes an earlier one added afterwards.
    allowUnorderedMigrations: true,
    migrationLockTableName: 'bff_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(
      `BFF database migration ${failed ?? '(setup)'} failed: ${(error as Error).message ?? String(error)}`,
      { cause: error },
    );
  }
}

/**
 * Opens and migrates the BFF database.
 *
 * @throws {TypeError} for a bad schema name, or a schema with PGlite.
 * @throws {Error} when the data folder is locked by another live process, the server cannot be reached (the
 *   message names host and database, never the password), or a migration fails.
 */
export async function openBffDatabase(options: BffDatabaseOptions = {}): Promise<BffDatabase> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME_RE.test(schema)) {
    throw new TypeError(
      `database schema must be lowercase letters, digits and "_" (at most 63, not starting with a digit); received ${JSON.stringify(schema)}`,
    );
  }
  if (options.url) return openPostgres(options.url, schema);
  if (schema !== 'public')
    throw new TypeError('the database schema option applies to PostgreSQL (a url) only; PGlite uses "public"');
  const { openPglite } = await import('./pglite.ts');
  return openPglite(options.memory ? undefined : (options.dataDir ?? DEFAULT_BFF_DATA_DIR), migrateBffDatabase);
}

/** `postgres://user@host:port/db` without the password, for messages. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return '(unparseable database URL)';
  }
}

/**
 * Opens a PostgreSQL pool of at most `max` connections (default 10) and, unless `migrate` is false, brings the
 * schema to the latest migration first.
 * @throws {Error} naming host and database (never the password) when the server cannot be reached or a migration
 *   fails.
 */
export async function openPostgres(
  url: string,
  schema: string,
  options: { readonly max?: number; readonly migrate?: boolean } = {},
): Promise<BffDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, options: `-c search_path=${schema}` });
  listenForConnectionErrors(pool, () => {});
  const db = new Kysely<BffTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (options.migrate === false) {
      await pingDatabase(db);
    } else {
      // Processes starting together take turns: creating a schema or the migration tables concurrently races.
      await db.connection().execute(async (conn) => {
        const lock = `domainkit-bff:${schema}`;
        await sql`select pg_advisory_lock(hashtext(${lock}))`.execute(conn);
        try {
          await sql`create schema if not exists ${sql.id(schema)}`.execute(conn);
          await migrateBffDatabase(conn, schema);
        } finally {
          await sql`select pg_advisory_unlock(hashtext(${lock}))`.execute(conn);
        }
      });
    }
  } catch (cause) {
    await db.destroy();
    throw new Error(
      `could not open the BFF database at ${describeDatabaseUrl(url)} (schema ${schema}): ${(cause as Error).message}`,
      { cause },
    );
  }
  let closed: Promise<void> | undefined;
  return { db, kind: 'postgres', schema, close: () => (closed ??= db.destroy()) };
}

/**
 * Keeps a connection cut by the server or the network (a restart or failover, a proxy closing it,
 * `pg_terminate_backend`) from ending the process. `pg` emits `error` on a client whose connection fails: while the
 * client is idle in the pool the pool re-emits it as its own `error`, but while a query holds the client the pool
 * listens no more, and an `error` event nobody listens to is an uncaught exception. Every client therefore gets a
 * listener for its whole life, from its first connection. The query in flight rejects on its own (its caller answers
 * 503 `unavailable`), and the pool discards the broken client and opens a new one for the next query.
 * @param onError - told of each failure (a log line), never throws.
 */
function listenForConnectionErrors(pool: pg.Pool, onError: (error: Error) => void): void {
  pool.on('connect', (client) => client.on('error', onError));
  pool.on('error', () => {}); // an idle client's failure, already told by the client's own listener
}

/** Empties every BFF table (tests, between cases sharing one database). */
export async function truncateBffTables(database: BffDatabase): Promise<void> {
  await sql`truncate ${sql.join(BFF_TABLES.map((t) => sql.id(t)))}`.execute(database.db);
}

/** Checks the database answers (`select 1`). @throws the driver's error when it does not. */
export async function pingDatabase(db: BffDb): Promise<void> {
  await db.selectNoFrom((eb) => eb.lit(1).as('ok')).execute();
}
