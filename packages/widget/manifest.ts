/**
 * Writes `dist/custom-elements.json`, the custom-elements manifest (schema 2.x) of the package, from the class
 * headers' doc comments (`@summary`, `@slot`, `@event`, `@csspart`, `@cssproperty`) and the Lit `static
 * properties`, with `@custom-elements-manifest/analyzer` and its Lit plugins.
 *
 * Uses the analyzer's `create()` on exactly the element sources rather than its CLI, whose default globs also
 * pick up this package's build scripts.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as analyzer from '@custom-elements-manifest/analyzer';
// @ts-expect-error: the Lit plugins ship without type declarations.
import { litPlugin } from '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';
import type * as TypeScript from 'typescript';

/** What the analyzer's JavaScript exports (its declarations omit `create` and `ts`). */
const { create, ts } = analyzer as unknown as {
  create(options: { modules: TypeScript.SourceFile[]; plugins: unknown[]; context: Record<string, unknown> }): {
    modules: Array<{ declarations?: unknown[] }>;
  };
  ts: typeof TypeScript;
};

/** Analyzes `src/` under `root` (tests and test support excluded) and writes `dist/custom-elements.json`. */
export async function writeManifest(root: string): Promise<number> {
  const files = (await readdir(join(root, 'src'), { recursive: true }))
    .map((file) => `src/${file.split('\\').join('/')}`)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.includes('/test-support/'))
    .sort();
  const modules = await Promise.all(
    files.map(async (file) =>
      ts.createSourceFile(file, await readFile(join(root, file), 'utf8'), ts.ScriptTarget.ES2022, true),
    ),
  );
  const manifest = create({ modules, plugins: litPlugin(), context: { dev: false } });
  const json = JSON.stringify(
    manifest,
    (key, value: unknown) => {
      // Point at the published files (`dist/…js`), not the sources.
      if ((key === 'path' || key === 'module') && typeof value === 'string')
        return value.replace(/^\/?src\//, 'dist/').replace(/\.ts$/, '.js');
      // Internal reactive state (`_active`) is no attribute or member; an event dispatched from a variable has no name.
      if (key === 'events' && Array.isArray(value))
        return value.filter((item: { name?: unknown }) => typeof item.name === 'string' && item.name !== '');
      if ((key === 'attributes' || key === 'members') && Array.isArray(value))
        return value.filter((item: { name: string }) => !item.name.startsWith('_'));
      return value;
    },
    2,
  );
  await writeFile(join(root, 'dist', 'custom-elements.json'), `${json}\n`);
  const declarations = manifest.modules.flatMap((m) => (m.declarations ?? []) as Array<{ customElement?: boolean }>);
  return declarations.filter((d) => d.customElement === true).length;
}
