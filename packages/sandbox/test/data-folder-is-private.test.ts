/**
 * Finding: a data folder that already existed kept its mode (`pgdata` 0755, files 0644), so the demo credential's
 * secret, the admin token, the signing keys (in the database files) and the demo user's password were readable by
 * every local user. The sandbox now makes its data folder and everything it keeps there private to its owner
 * (folders 0700, files 0600) at every start, whatever modes it finds.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { removeDir, tempDir } from './helpers.ts';

const dataDir = tempDir();
afterAll(() => removeDir(dataDir));

/** Every path under `dir` (and `dir` itself) whose mode lets anyone but the owner in, with that mode in octal. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    if ((info.mode & 0o077) !== 0)
      found.push(`${path.slice(dataDir.length) || '/'} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
}

/** Gives every folder 0755 and every file 0644, as a default umask or a copied folder leaves them. */
function loosen(path: string): void {
  const info = lstatSync(path);
  if (info.isDirectory()) {
    chmodSync(path, 0o755);
    for (const name of readdirSync(path)) loosen(join(path, name));
  } else if (info.isFile()) chmodSync(path, 0o644);
}

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
