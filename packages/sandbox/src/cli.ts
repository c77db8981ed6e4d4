#!/usr/bin/env node
/**
 * The sandbox command line.
 *
 *   domainkit-sandbox start [--port 4010] [--host 127.0.0.1] [--data-dir .data/sandbox] [--database-url URL]
 *                           [--public-url URL] [--seed 1]
 *   domainkit-sandbox credentials [--data-dir .data/sandbox]
 *
 * `start` runs until SIGINT or SIGTERM, then shuts down gracefully. `credentials` prints the demo credential as JSON
 * on stdout (initialising the data folder when it has none), so a CI job can read it with no person involved:
 *
 *   domainkit-sandbox credentials --data-dir .data/sandbox > creds.json
 *
 * Environment fallbacks: SANDBOX_PORT, SANDBOX_HOST, SANDBOX_DATA_DIR, SANDBOX_PUBLIC_URL, SANDBOX_SEED,
 * DATABASE_URL, LOG_LEVEL.
 */
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { createSandboxApp } from './app.ts';
import { credentialsFilePath, readDemoCredential } from './credentials/demo-credential.ts';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from './options.ts';
import { startSandbox } from './sandbox.ts';

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} must be between ${min} and ${max}.`);
    return n;
  };
}

const program = new Command()
  .name('domainkit-sandbox')
  .description('A local marketplace for domainkit: signed Partner API, hosted lander with test cards, synthetic inventory.')
  .showHelpAfterError();

program
  .command('start')
  .description('start the sandbox and keep it running until SIGINT or SIGTERM')
  .addOption(new Option('--port <port>', 'TCP port (0 picks a free one)').env('SANDBOX_PORT').argParser(integer('port', 0, 65535)).default(DEFAULT_PORT))
  .addOption(new Option('--host <host>', 'interface to bind').env('SANDBOX_HOST').default(DEFAULT_HOST))
  .addOption(new Option('--data-dir <dir>', 'data folder (database and credentials.json)').env('SANDBOX_DATA_DIR').default(DEFAULT_DATA_DIR))
  .addOption(new Option('--database-url <url>', 'PostgreSQL URL (default: embedded PGlite in the data folder)').env('DATABASE_URL'))
  .addOption(new Option('--public-url <url>', 'base URL of checkout links (default http://host:port)').env('SANDBOX_PUBLIC_URL'))
  .addOption(new Option('--seed <seed>', 'inventory seed for a new data folder').env('SANDBOX_SEED').argParser(integer('seed', 0, 0xffffffff)))
  .action(async (opts: { port: number; host: string; dataDir: string; databaseUrl?: string; publicUrl?: string; seed?: number }) => {
    const logger = pino({ name: 'domainkit-sandbox', level: process.env.LOG_LEVEL ?? 'info' });
    const sandbox = await startSandbox({
      port: opts.port,
      host: opts.host,
      dataDir: opts.dataDir,
      databaseUrl: opts.databaseUrl ?? '',
      ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      logger,
    });
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, 'shutting down');
      sandbox.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

program
  .command('credentials')
  .description('print the demo credential as JSON (initialises the data folder when needed)')
  .addOption(new Option('--data-dir <dir>', 'data folder').env('SANDBOX_DATA_DIR').default(DEFAULT_DATA_DIR))
  .addOption(new Option('--database-url <url>', 'PostgreSQL URL (default: embedded PGlite in the data folder)').env('DATABASE_URL'))
  .action(async (opts: { dataDir: string; databaseUrl?: string }) => {
    // A running sandbox already wrote the file; reading it never touches its (single-process) database.
    if (!existsSync(credentialsFilePath(opts.dataDir))) {
      const logger = pino({ name: 'domainkit-sandbox', level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
      const sandbox = await createSandboxApp({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl ?? '', logger });
      await sandbox.close();
    }
    process.stdout.write(`${JSON.stringify(readDemoCredential(opts.dataDir), null, 2)}\n`);
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`domainkit-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
