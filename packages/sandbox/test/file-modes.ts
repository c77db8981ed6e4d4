/**
 * File-mode probes for the data-folder tests (the sandbox's and the BFF's): which paths other local users can
 * read, and a way to open a folder up as a default umask or a copy leaves it.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every path under `dir` (and `dir` itself, as `/`) whose mode lets anyone but the owner in, with its octal mode. */
export function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const info = lstatSync(path);
    if ((info.mode & 0o077) !== 0) found.push(`${path.slice(dir.length) || '/'} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return found;
}

/** Gives every folder under `path` 0755 and every file 0644, as a default umask or a copied folder leaves them. */
export function loosen(path: string): void {
  const info = lstatSync(path);
  if (info.isDirectory()) {
    chmodSync(path, 0o755);
    for (const name of readdirSync(path)) loosen(join(path, name));
  } else if (info.isFile()) chmodSync(path, 0o644);
}
