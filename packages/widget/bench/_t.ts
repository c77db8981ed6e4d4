import { minify } from 'terser';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const code = readFileSync('dist/domainkit.min.js', 'utf8');
const out = await minify(code, { module: true, ecma: 2022, compress: { passes: 3, unsafe_arrows: true }, mangle: { properties: false } });
console.log(code.length, gzipSync(code, { level: 9 }).length, out.code!.length, gzipSync(out.code!, { level: 9 }).length);
