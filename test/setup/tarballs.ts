/**
 * A partner project over the packed `@domainkit/*` tarballs, as the packaging suites install them outside the
 * workspace.
 */
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Copies `template` into `project` and points its `package.json` at the tarballs `pnpm pack` left in
 * `project/tarballs`: each `@domainkit/<name>` of `names` as a dependency and as an npm `override` (the tarballs
 * depend on each other by version, so the overrides keep those on the tarballs too, never the registry).
 * @throws {Error} when `pnpm pack` left no tarball for one of `names`.
 */
export async function pointProjectAtTarballs(
  project: string,
  template: string,
  names: readonly string[],
): Promise<void> {
  const files = await readdir(join(project, 'tarballs'));
  const local: Record<string, string> = {};
  for (const name of names) {
    const file = files.find((f) => f.startsWith(`domainkit-${name}-`) && f.endsWith('.tgz'));
    if (!file) throw new Error(`pnpm pack left no tarball for @domainkit/${name}`);
    local[`@domainkit/${name}`] = `file:tarballs/${file}`;
  }
  await cp(template, project, { recursive: true });
  const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
  manifest.dependencies = { ...(manifest.dependencies as object), ...local };
  manifest.overrides = local;
  await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
