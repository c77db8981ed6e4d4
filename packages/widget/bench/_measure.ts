import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { minifyTemplates } from '/work/main/packages/widget/minify-templates.ts';
const src = '/work/main/packages/widget/src';
const drop = process.argv[2] ?? '';
const r = await build({ entryPoints: [src + '/index.ts'], bundle: true, minify: true, format: 'esm', target: 'es2022', write: false, plugins: [{ name: 'm', setup(b) { b.onLoad({ filter: /\.ts$/ }, (a) => {
  if (!a.path.startsWith(src)) return undefined;
  let c = minifyTemplates(readFileSync(a.path, 'utf8'));
  if (drop === 'css' && /styles\.ts$/.test(a.path)) c = c.replace(/css`[^`]*`/g, 'css``').replace(/const (light|dark) = `[^`]*`/g, 'const $1=``');
  if (drop === 'strings' && /strings\.ts$/.test(a.path)) c = c.replace(/'[^']{12,}'/g, "''");
  return { contents: c, loader: 'ts' };
}); } }] });
const code = r.outputFiles[0].contents;
console.log(drop || 'all', code.length, gzipSync(code, { level: 9 }).length);
