/**
 * The data folder is private to the user running the sandbox: it holds the demo credential's API secret and the
 * admin token (`credentials.json`), the demo user's password (`sandbox-user.json`) and, in `pgdata/`, the signing
 * keys and every partner's webhook secret. A folder or file that already exists keeps the mode it had (a default
 * umask leaves 0755/0644, readable by every local user), so each start forces them.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Mode of the data folder and every folder the sandbox keeps in it: owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file the sandbox keeps in its data folder: owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** The entries of the data folder that are the sandbox's own (anything else in it is left as it is). */
export const DATA_FOLDER_ENTRIES = [
  'pgdata',
  'credentials.json',
  'sandbox-user.json',
  'server.json',
  'sandbox.pid',
] as const;

/**
 * Gives `path` (when it exists) and, for a folder, everything beneath it, mode 0700 (folders) or 0600 (files).
 * Symbolic links are neither followed nor changed.
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
  if (info.isDirectory()) {
    if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
    for (const name of readdirSync(path)) restrictToOwner(join(path, name));
  } else if (info.isFile() && (info.mode & 0o777) !== PRIVATE_FILE_MODE) {
    chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/**
 * Creates the data folder when it is missing and makes it and the sandbox's entries in it ({@link
 * DATA_FOLDER_ENTRIES}) private, whatever their modes were. Called at every start, before anything secret is read
 * or written there.
 * @throws {Error} when the folder cannot be created or its mode changed (for example it belongs to another user).
 */
export function preparePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dataDir, PRIVATE_DIR_MODE);
  for (const entry of DATA_FOLDER_ENTRIES) restrictToOwner(join(dataDir, entry));
}
