#!/usr/bin/env node
/**
 * `domainkit-bff`: starts the standalone BFF from environment variables (see the README's table) and stops it
 * gracefully on SIGTERM or SIGINT. Exit codes: 0 after a clean stop, 1 when it cannot start, 78 (EX_CONFIG) for
 * a bad environment.
 */
import { BffConfigError, loadBffConfigFromEnv } from './env.ts';
import { BffOptionsError } from './options.ts';
import { startBff } from './server.ts';

async function main(): Promise<void> {
  let bff: Awaited<ReturnType<typeof startBff>>;
  try {
    bff = await startBff(loadBffConfigFromEnv(process.env));
  } catch (error) {
    if (error instanceof BffConfigError || error instanceof BffOptionsError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 78;
      return;
    }
    process.stderr.write(`domainkit-bff could not start: ${(error as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const running = bff;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`domainkit-bff: ${signal} received, closing\n`);
    running.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        process.stderr.write(`domainkit-bff: close failed: ${(error as Error).message}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
