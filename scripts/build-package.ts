#!/usr/bin/env node
/**
 * Builds one publishable package (run from its folder, `node ../../scripts/build-package.ts`): `tsc -p
 * tsconfig.build.json` emits `dist/` (ESM, `.d.ts`, source maps pointing at the shipped `src/`), then the relative
 * `.ts` specifiers tsc leaves in declaration files are rewritten to `.js` (`rewriteRelativeImportExtensions` only
 * rewrites emitted JavaScript), so the types resolve under every `moduleResolution` a consumer may use.
 */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { rewriteDeclarationSpecifiers } from './declarations.ts';

const root = process.cwd();
const dist = join(root, 'dist');
await rm(dist, { recursive: true, force: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
await rewriteDeclarationSpecifiers(dist);
