import { build } from 'esbuild';
import { gzipSync, deflateRawSync } from 'node:zlib';
import { scriptTagOptions } from './build-options.ts';
const root=process.cwd();
const extra = process.argv[2] ? (0,eval)("("+process.argv[2]+")") : {};
const r = await build({...scriptTagOptions(root), ...extra, entryPoints:[root+'/src/script-tag.ts'], write:false, sourcemap:'external', outfile:'/tmp/x.js'});
const map = JSON.parse(r.outputFiles.find(f=>f.path.endsWith('.map')).text);
const code = r.outputFiles.find(f=>f.path.endsWith('x.js')).text;
// decode mappings (single line mostly)
const B='ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const lines = code.split('\n'); const lineStart=[];let o=0;for(const l of lines){lineStart.push(o);o+=l.length+1;}
const owner = new Array(code.length).fill(-1);
let src=0,sl=0; const segs=[];
map.mappings.split(';').forEach((line,li)=>{let col=0; if(!line) return; for(const seg of line.split(',')){const v=[];let sh=0,val=0;for(const ch of seg){let d=B.indexOf(ch);val+=(d&31)<<sh;if(d&32){sh+=5}else{v.push(val&1?-(val>>1):val>>1);sh=0;val=0}} col+=v[0]; if(v.length>1){src+=v[1]; segs.push([lineStart[li]+col,src*100000+(v[2]!==undefined?(sl+=v[2]):sl)]);}}});
segs.sort((a,b)=>a[0]-b[0]);
for(let i=0;i<segs.length;i++){const end=i+1<segs.length?segs[i+1][0]:code.length;for(let p=segs[i][0];p<end;p++)owner[p]=segs[i][1];}
// incremental gzip cost per char attributed to owner, using chunks at owner changes
const cost = {}; let prev=0; let start=0;
const gz = s=>gzipSync(s,{level:9}).length;
const bounds=[];for(let p=1;p<=code.length;p++){if(p===code.length||owner[p]!==owner[p-1])bounds.push(p);}
let last=gz(''); let s0=0;
for(const b of bounds){const g=gz(code.slice(0,b)); const ow=owner[b-1]; const k=ow===-1?"(none)":map.sources[Math.floor(ow/100000)].replace(/.*(node_modules|widget)\//,"")+":"+(ow%100000+1); cost[k]=(cost[k]||0)+g-last; last=g;}
const rows=Object.entries(cost).sort((a,b)=>b[1]-a[1]); let tot=0;
for(const [k,v] of rows){tot+=v;console.log(String(v).padStart(6),k);}
console.log('total gz', gz(code), 'raw', code.length);
