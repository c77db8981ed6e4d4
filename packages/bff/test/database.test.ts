/**
 * The BFF database: embedded PGlite in a data folder locked to one process (a second opener is told who holds it
 * and what to do instead), tables migrated with Kysely's Migrator, and PostgreSQL errors that name the server
 * without its password.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { BFF_TABLES, openBffDatabase, type BffDatabase } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'dk-bff-db-'));
let database: BffDatabase | undefined;
afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('opens PGlite in its data folder with every table, and refuses a second opener of the folder', async () => {
  database = await openBffDatabase({ dataDir: dir });

  const { rows } = await sql<{
    table_name: string;
  }>`select table_name from information_schema.tables where table_schema = 'public' order by 1`.execute(database.db);
  expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining([...BFF_TABLES, 'bff_migrations']));
  await expect(openBffDatabase({ dataDir: dir })).rejects.toThrow(
    /data folder .* is in use by process \d+ \(this process\): stop that BFF, choose another data folder, or use PostgreSQL/,
  );
});

it('names the PostgreSQL server it cannot reach, never the password', async () => {
  const error = (await openBffDatabase({ url: 'postgres://bff:hunter2@127.0.0.1:1/shop' }).catch(
    (e: unknown) => e,
  )) as Error;

  expect(error.message).toMatch(
    /^could not open the BFF database at postgres:\/\/bff@127\.0\.0\.1:1\/shop \(schema public\)/,
  );
  expect(error.message).not.toContain('hunter2');
});

it('refuses a schema name that is not a plain identifier', async () => {
  await expect(openBffDatabase({ url: 'postgres://x@127.0.0.1:1/db', schema: 'public; drop table x' })).rejects.toThrow(
    /database schema must be lowercase letters/,
  );
});
