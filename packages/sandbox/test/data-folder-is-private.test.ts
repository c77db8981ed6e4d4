/**
 * Finding: a data folder that already existed kept its mode (`pgdata` 0755, files 0644), so the demo credential's
 * secret, the admin token, the signing keys (in the database files) and the demo user's password were readable by
 * every local user. The sandbox now makes its data folder and everything it keeps there private to its owner
 * (folders 0700, files 0600) at every start, whatever modes it finds.
 */
import { chmodSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { loosen, openToOthers } from './file-modes.ts';
import { startSandbox } from '../src/index.ts';
import { removeDir, freshPgliteDataDir } from './helpers.ts';

const dataDir = freshPgliteDataDir('dk-sandbox-');
afterAll(() => removeDir(dataDir));

async function startAndStop(): Promise<string[]> {
  const sandbox = await startSandbox({ port: 0, dataDir, databaseUrl: '', logger: false });
  try {
    return openToOthers(dataDir);
  } finally {
    await sandbox.close();
  }
}

it('makes a data folder that already exists with mode 0755 private before keeping secrets in it', async () => {
  chmodSync(dataDir, 0o755);
  expect(await startAndStop()).toEqual([]);
}, 120_000);

it('makes every folder 0700 and every file 0600 again at the next start, after they were opened to others', async () => {
  loosen(dataDir);
  expect(openToOthers(dataDir).length).toBeGreaterThan(10);
  expect(await startAndStop()).toEqual([]);
  expect(openToOthers(dataDir)).toEqual([]);
}, 120_000);
