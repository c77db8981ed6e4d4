import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const r = createRequire('/work/main/node_modules/.pnpm/terser@5.51.2/node_modules/terser/package.json');
const { minify } = r('./dist/bundle.min.js');
const code = readFileSync('dist/domainkit.min.js','utf8').replace(/\/\*! Bundled[\s\S]*$/,'');
const gz = s=>gzipSync(s,{level:9}).length;
console.log('esbuild', gz(code));
for (const [n,opts] of Object.entries({
 safe1: {module:true, ecma:2022, compress:{passes:1}, mangle:true},
 safe3: {module:true, ecma:2022, compress:{passes:3}, mangle:true},
 safe3nomangle: {module:true, ecma:2022, compress:{passes:3}, mangle:false},
 arrows: {module:true, ecma:2022, compress:{passes:3, unsafe_arrows:true}, mangle:true},
 unsafe: {module:true, ecma:2022, compress:{passes:3, unsafe:true, unsafe_arrows:true, unsafe_methods:true, pure_getters:true, unsafe_comps:true}, mangle:true},
})) { const o = await minify(code, opts); console.log(n, gz(o.code), o.code.length); }
