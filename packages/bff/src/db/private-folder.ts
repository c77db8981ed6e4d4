/**
 * The embedded database's data folder is private to the user running the BFF: its files hold orders and buyers'
 * e-mail addresses. A folder or file that already exists keeps the mode it had (a default umask leaves 0755/0644,
 * readable by every local user), so the BFF forces the modes whenever it opens the folder.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Mode of the data folder and every folder beneath it: owner only. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Gives `path` (when it exists) and everything beneath it mode 0700 (folders) or 0600 (files). Symbolic links are
 * neither followed nor changed.
 * @throws {Error} from `chmod` when a path belongs to another user.
 */
export function restrictToOwner(path: string): void {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const mode = info.isDirectory() ? PRIVATE_DIR_MODE : info.isFile() ? 0o600 : undefined;
  if (mode !== undefined && (info.mode & 0o777) !== mode) chmodSync(path, mode);
  if (info.isDirectory()) for (const name of readdirSync(path)) restrictToOwner(join(path, name));
}

/**
 * Creates the data folder when missing and makes it, its `pgdata` folder and its lock file private, whatever their
 * modes were (anything else a user put in the folder is left as it is, behind the folder's 0700).
 * @returns the `pgdata` path (created, mode 0700).
 * @throws {Error} when the folder cannot be created or its mode changed (for example it belongs to another user).
 */
export function preparePrivateDataDir(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dataDir, PRIVATE_DIR_MODE);
  restrictToOwner(join(dataDir, 'bff.pid'));
  const pgdata = join(dataDir, 'pgdata');
  mkdirSync(pgdata, { recursive: true, mode: PRIVATE_DIR_MODE });
  restrictToOwner(pgdata);
  return pgdata;
}
