import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { minifyTemplatesPlugin } from '../minify-templates.ts';
const src = new URL('../src', import.meta.url).pathname;
const r = await build({ entryPoints: [src + '/index.ts'], bundle: true, minify: true, format: 'esm', target: 'es2022', write: false, metafile: true, plugins: [minifyTemplatesPlugin(src)] });
const code = r.outputFiles[0].contents;
console.log('total', code.length, gzipSync(code, { level: 9 }).length);
const o = Object.values(r.metafile.outputs)[0];
for (const [k, v] of Object.entries(o.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)) console.log(v.bytesInOutput, k.replace(/.*node_modules\//, ''));
