/**
 * Finding: a PGlite data folder that already existed kept its mode (`pgdata` 0755, files 0644), so the buyers'
 * e-mail addresses and the orders the BFF keeps were readable by every local user. The BFF now makes its data folder
 * and its database files private to its owner (folders 0700, files 0600) whenever it opens them.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loosen, openToOthers } from '../../sandbox/test/file-modes.ts';
import { openBffDatabase } from '../src/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'dk-bff-private-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function openAndClose(): Promise<string[]> {
  const database = await openBffDatabase({ dataDir });
  try {
    return openToOthers(dataDir);
  } finally {
    await database.close();
  }
}

it('makes a data folder that already exists with mode 0755 private before storing anything in it', async () => {
  chmodSync(dataDir, 0o755);
  expect(await openAndClose()).toEqual([]);
}, 120_000);

it('makes every folder 0700 and every file 0600 again at the next start, after they were opened to others', async () => {
  loosen(dataDir);
  expect(openToOthers(dataDir).length).toBeGreaterThan(10);
  expect(await openAndClose()).toEqual([]);
}, 120_000);
