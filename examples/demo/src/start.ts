#!/usr/bin/env node
/**
 * `pnpm start`: the demo stack on an embedded database. Ports: DEMO_PORT (8080) and SANDBOX_PORT (4010);
 * data folder: DOMAINKIT_DATA_DIR (`.data`).
 */
import { startDemo } from './demo.ts';

const demo = await startDemo({
  port: Number(process.env.DEMO_PORT ?? 8080),
  sandboxPort: Number(process.env.SANDBOX_PORT ?? 4010),
  ...(process.env.DOMAINKIT_DATA_DIR ? { dataDir: process.env.DOMAINKIT_DATA_DIR } : {}),
});
console.log(
  `\n  domainkit demo is running.\n\n  Open ${demo.url}\n  Open ${demo.consoleUrl} (partner console)\n\n  Sandbox marketplace: ${demo.sandboxUrl} (key id ${demo.credential.key_id}; the secret stays in the data folder)\n  Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. Ctrl+C stops.\n`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    demo.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
