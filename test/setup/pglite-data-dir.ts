/**
 * Data folders whose `pgdata` is a copy of the run's empty PGlite cluster (./pglite-cluster.ts), for tests that start
 * a sandbox or a BFF on embedded PGlite: what the test sees is a first start (no table, no credential, no seed),
 * without PGlite's `initdb` for each database.
 */
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type {} from './pglite-cluster.ts';

/**
 * Copies the empty cluster into `{dataDir}/pgdata` (`dataDir` is made when missing; it must hold no `pgdata` yet).
 * @returns `dataDir`.
 * @throws {Error} when the project has no `pgliteCluster` global setup.
 */
export function seedPgliteCluster(dataDir: string): string {
  const cluster = inject('pgliteCluster');
  if (!cluster)
    throw new Error('no PGlite cluster: add test/setup/pglite-cluster.ts to the globalSetup of the project');
  mkdirSync(dataDir, { recursive: true });
  cpSync(cluster, join(dataDir, 'pgdata'), { recursive: true, errorOnExist: true, force: false });
  return dataDir;
}

/**
 * Makes `{tmpdir}/{prefix}XXXXXX` with a copy of the empty cluster in its `pgdata`.
 * @returns the data folder (the caller removes it).
 */
export function freshPgliteDataDir(prefix: string): string {
  return seedPgliteCluster(mkdtempSync(join(tmpdir(), prefix)));
}
