/**
 * Opens the sandbox database: embedded PGlite in `{dataDir}/pgdata` by default, or a PostgreSQL server (through a
 * `pg` pool) when a connection URL is given, in a chosen schema. Either way the schema is migrated to the latest
 * version before the handle is returned (docs/architecture.md "Storage").
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Logger } from 'pino';
import { migrateToLatest } from './migrations.ts';
import { preparePrivateDataDir, PRIVATE_DIR_MODE, restrictToOwner } from './private-folder.ts';
import type { SandboxDatabase, SandboxDb } from './tables.ts';

/** A PostgreSQL schema name the sandbox accepts: lowercase letters, digits and `_`, starting with a letter or `_`. */
export const SCHEMA_NAME_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** The data folder; PGlite keeps its files in `{dataDir}/pgdata`. */
  readonly dataDir: string;
  /** A `postgres://` URL; when set, PGlite is not used. */
  readonly databaseUrl?: string | undefined;
  /** The PostgreSQL schema for the tables (created when missing); default `public`. PGlite always uses `public`. */
  readonly schema?: string | undefined;
  readonly logger: Logger;
}

/** An open, migrated database. */
export interface SandboxDatabaseHandle {
  readonly db: SandboxDb;
  /** `pglite` (embedded, in the data folder) or `postgres` (a server). */
  readonly kind: 'pglite' | 'postgres';
  /** The schema holding the tables. */
  readonly schema: string;
  /** Closes the pool or the embedded database, and releases the data-folder lock. */
  close(): Promise<void>;
}

/**
 * Opens and migrates the database.
 *
 * The data folder is created when missing and made private (folders 0700, files 0600: private-folder.ts) first.
 * With PGlite, the data folder is locked (`{dataDir}/sandbox.pid`) for as long as the handle is open: PGlite is a
 * single-process database and two processes writing one folder would corrupt it.
 *
 * @throws {Error} when the schema name is invalid, the data folder is in use by another live process, the server
 *   cannot be reached, or a migration fails.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<SandboxDatabaseHandle> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME_RE.test(schema)) {
    throw new TypeError(
      `schema must be lowercase letters, digits and "_" (at most 63, not starting with a digit); received ${JSON.stringify(schema)}`,
    );
  }
  // The data folder holds credentials.json and sandbox-user.json whichever database is used.
  preparePrivateDataDir(options.dataDir);
  if (options.databaseUrl) return openPostgres(options.databaseUrl, schema, options.logger);
  if (schema !== 'public')
    throw new TypeError('the schema option applies to PostgreSQL (databaseUrl) only; PGlite uses "public"');
  return openPglite(options.dataDir, options.logger);
}

async function openPostgres(databaseUrl: string, schema: string, logger: Logger): Promise<SandboxDatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema}` });
  // A connection cut by the server or the network (a restart or failover, a proxy closing it,
  // `pg_terminate_backend`) must not end the process. `pg` emits `error` on the client whose connection failed; the
  // pool re-emits it only while the client is idle, and while a query holds the client nobody else listens (an
  // unheard `error` event is an uncaught exception). So every client listens from its first connection; the query in
  // flight rejects on its own, and the pool replaces the broken client.
  pool.on('connect', (client) =>
    client.on('error', (err) => logger.warn({ err: { message: err.message } }, 'a PostgreSQL connection failed')),
  );
  pool.on('error', () => {}); // an idle client's failure, already logged by the client's own listener
  const db = new Kysely<SandboxDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
    await migrateToLatest(db, schema);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, kind: 'postgres', schema, close: () => db.destroy() };
}

async function openPglite(dataDir: string, logger: Logger): Promise<SandboxDatabaseHandle> {
  const releaseLock = lockDataDir(dataDir);
  let db: SandboxDb | undefined;
  try {
    const started = Date.now();
    const pgdata = join(dataDir, 'pgdata');
    mkdirSync(pgdata, { recursive: true, mode: PRIVATE_DIR_MODE });
    const pglite = await PGlite.create(pgdata);
    // A new database's files are created under the process umask: make them private too.
    restrictToOwner(pgdata);
    db = new Kysely<SandboxDatabase>({ dialect: new PGliteDialect(pglite) });
    await migrateToLatest(db, 'public');
    logger.debug({ ms: Date.now() - started }, 'embedded database ready');
  } catch (err) {
    await db?.destroy();
    releaseLock();
    throw err;
  }
  const opened = db;
  let closed = false;
  return {
    db: opened,
    kind: 'pglite',
    schema: 'public',
    async close() {
      if (closed) return;
      closed = true;
      try {
        await opened.destroy();
      } finally {
        releaseLock();
      }
    },
  };
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data folder's lock file, replacing a stale one (left by a process that no longer runs).
 * @returns a function that removes the lock.
 * @throws {Error} when a live process holds the lock.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, 'sandbox.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder > 0 && processIsAlive(holder)) {
        throw new Error(
          `the sandbox data folder ${dataDir} is in use by process ${holder}${holder === process.pid ? ' (this process)' : ''}: stop that sandbox or choose another data folder`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not lock the sandbox data folder ${dataDir}`);
}
