/**
 * Embedded PGlite in a private data folder (or in memory), locked to one process by a `bff.pid` file. Loaded by
 * `database.ts` only when PGlite is opened: PGlite, `node:fs` and `node:path` are never imported on a runtime that
 * uses PostgreSQL only (Cloudflare workerd).
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { BffDatabase } from './database.ts';
import { preparePrivateDataDir, restrictToOwner } from './private-folder.ts';
import type { BffTables } from './tables.ts';

/**
 * Opens and migrates embedded PGlite in `{dataDir}/pgdata` (made private and locked), or in memory without a folder.
 * @param migrate - brings the tables to the latest migration (`migrateBffDatabase`, passed in: this module is
 *   loaded by `database.ts` on demand and imports nothing back from it at run time).
 * @throws {Error} when a live process holds the folder's lock, or a migration fails.
 */
export async function openPglite(
  dataDir: string | undefined,
  migrate: (db: Kysely<BffTables>, schema: string) => Promise<void>,
): Promise<BffDatabase> {
  let releaseLock = () => {};
  let pgdata: string | undefined;
  if (dataDir !== undefined) {
    pgdata = preparePrivateDataDir(dataDir);
    releaseLock = lockDataDir(dataDir);
  }
  let db: Kysely<BffTables> | undefined;
  try {
    const pglite = await PGlite.create(pgdata);
    // A new database's files are created under the process umask: make them private too.
    if (pgdata !== undefined) restrictToOwner(pgdata);
    db = new Kysely<BffTables>({ dialect: new PGliteDialect(pglite) });
    await migrate(db, 'public');
  } catch (cause) {
    await db?.destroy();
    releaseLock();
    throw cause;
  }
  const opened = db;
  let closed: Promise<void> | undefined;
  return {
    db: opened,
    kind: 'pglite',
    schema: 'public',
    close: () =>
      (closed ??= (async () => {
        try {
          await opened.destroy();
        } finally {
          releaseLock();
        }
      })()),
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
 * Takes the data folder's lock file (`bff.pid`), replacing a stale one left by a process that no longer runs
 * (for example one killed with SIGKILL).
 * @throws {Error} when a live process holds the lock.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, 'bff.pid');
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
          `the BFF data folder ${dataDir} is in use by process ${holder}${holder === process.pid ? ' (this process)' : ''}: stop that BFF, choose another data folder, or use PostgreSQL (DATABASE_URL) to run several processes`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not lock the BFF data folder ${dataDir}`);
}
