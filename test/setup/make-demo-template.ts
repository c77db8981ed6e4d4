/**
 * `node setup/make-demo-template.ts <folder>`: a first start of the demo stack on the empty `folder`, closed once the
 * BFF has handled what the start stored (see ./demo-template.ts, which runs it in a process of its own: Vitest's
 * module runner cannot load the demo).
 */
import { startDemo } from '@domainkit/example-demo';

const folder = process.argv[2];
if (!folder) throw new Error('usage: node setup/make-demo-template.ts <empty folder>');
const demo = await startDemo({ quiet: true, port: 0, sandboxPort: 0, dataDir: folder });
await demo.idle();
await demo.close();
