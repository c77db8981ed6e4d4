/**
 * Post-processing of emitted declaration files, shared by every package's build.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `from './x.ts'`, `import('./x.ts')`: a relative specifier ending in `.ts` in a declaration file. */
const RELATIVE_TS = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;

/**
 * Rewrites the relative `.ts` specifiers of every `.d.ts` file under `dist` to `.js`: tsc's
 * `rewriteRelativeImportExtensions` rewrites emitted JavaScript only, and a consumer's TypeScript resolves
 * `./x.js` to the shipped `./x.d.ts` under every `moduleResolution`.
 */
export async function rewriteDeclarationSpecifiers(dist: string): Promise<void> {
  for (const file of (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.d.ts'))) {
    const path = join(dist, file);
    const text = await readFile(path, 'utf8');
    const rewritten = text.replace(RELATIVE_TS, '$1$2$3.js$2');
    if (rewritten !== text) await writeFile(path, rewritten);
  }
}
