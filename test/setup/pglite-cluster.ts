/**
 * Vitest global setup: one empty PGlite cluster for the run, made by `PGlite.create` on an empty folder (PGlite's
 * `initdb`, about 3 s of CPU) and closed. A test that would open a new embedded database copies it instead
 * (`freshPgliteDataDir` in ./pglite-data-dir.ts), and PGlite opens the copy as an existing cluster in about a second.
 * The copy holds no table: the sandbox and the BFF still run every migration and their first-start seeding on it, as
 * on an empty folder.
 *
 * PGlite is imported from the project's own dependencies (the sandbox's or the BFF's), so the cluster is made by the
 * version that opens it; the projects of one run that resolve the same PGlite share one cluster.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `pgdata` folder {@link setup} made: a test copies it, never opens it. */
    pgliteCluster: string;
  }
}

/**
 * The cluster made for each PGlite module (by its resolved path): projects that share this module and resolve the
 * same PGlite share one cluster.
 */
const clusters = new Map<string, Promise<string>>();
/** The folders made, removed by {@link teardown}. */
const folders: string[] = [];

/** PGlite as the project resolves it, else as the sandbox does (the end-to-end project reaches it through the packages). */
function resolvePglite(root: string): string {
  try {
    return createRequire(join(root, 'package.json')).resolve('@electric-sql/pglite');
  } catch {
    return createRequire(fileURLToPath(new URL('../../packages/sandbox/package.json', import.meta.url))).resolve(
      '@electric-sql/pglite',
    );
  }
}

/** Makes an empty cluster with the PGlite at `pglite` (a module path); resolves to its `pgdata` folder. */
async function makeCluster(pglite: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'domainkit-pglite-cluster-'));
  folders.push(folder);
  const pgdata = join(folder, 'pgdata');
  // Typed by what is used: this file is compiled by projects that do not depend on PGlite themselves.
  const { PGlite } = (await import(pathToFileURL(pglite).href)) as {
    PGlite: { create(dataDir: string): Promise<{ close(): Promise<void> }> };
  };
  const instance = await PGlite.create(pgdata);
  await instance.close();
  return pgdata;
}

export async function setup(project: TestProject): Promise<void> {
  const pglite = resolvePglite(project.config.root);
  let cluster = clusters.get(pglite);
  if (cluster === undefined) {
    cluster = makeCluster(pglite);
    clusters.set(pglite, cluster);
  }
  project.provide('pgliteCluster', await cluster);
}

export async function teardown(): Promise<void> {
  clusters.clear();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
}
