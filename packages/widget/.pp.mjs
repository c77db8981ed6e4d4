import { build } from 'esbuild';
import { scriptTagOptions } from './build-options.ts';
const root=process.cwd();
const res = await build({...scriptTagOptions(root), minifyWhitespace:false, minify:false, minifySyntax:true, minifyIdentifiers:true, entryPoints:[root+'/src/script-tag.ts'], write:false});
const code=res.outputFiles[0].text; const i=code.indexOf('DkApiError'); console.log(code.slice(code.lastIndexOf('\n', i-200)));
