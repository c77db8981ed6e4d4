import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const r = createRequire('/work/main/node_modules/.pnpm/lightningcss@1.33.0/node_modules/lightningcss/package.json');
const { transform } = r('./node/index.js');
const code = readFileSync('dist/domainkit.min.js','utf8');
const cssParts = [...code.matchAll(/x`([^`]*)`/g)].map(m=>m[1]);
for (const c of cssParts) { const o = transform({filename:'a.css', code: Buffer.from(c), minify:true, targets:{chrome:100<<16, safari:(15<<16)|(4<<8), firefox:100<<16}}); console.log(c.length, '->', o.code.length); console.log(o.code.toString()); }
