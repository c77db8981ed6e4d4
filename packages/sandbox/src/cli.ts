#!/usr/bin/env node
/**
 * The sandbox command line.
 *
 *   domainkit-sandbox start [--port 4010] [--host 127.0.0.1] [--data-dir .data/sandbox] [--database-url URL]
 *                           [--schema public] [--public-url URL] [--seed 1] [--webhook-time-scale 1]
 *                           [--webhook-timeout-ms 5000] [--fault-error-rate 0] [--fault-latency-ms 0]
 *                           [--fault-duplicate-rate 0] [--fault-out-of-order-rate 0] [--ready-file PATH]
 *   domainkit-sandbox credentials [--data-dir .data/sandbox]
 *   domainkit-sandbox wait [--timeout 60]            (exits 0 once GET /healthz answers; prints the URL)
 *   domainkit-sandbox orders | trigger <…> | fixture <…> | referral <…> | set-price | deliveries | faults | events
 *                     [--follow] | webhook-ping | reset   (admin-cli.ts)
 *
 * `--help` (on any command) prints the usage and exits 0; a usage error (an unknown option or command, a bad value,
 * no command) prints the error, a did-you-mean where one is near and the usage, and exits 64 (EX_USAGE).
 *
 * `start` runs until SIGINT or SIGTERM, then shuts down gracefully. `credentials` prints the demo credential as JSON
 * on stdout (initialising the data folder when it has none), so a CI job can read it with no person involved:
 *
 *   domainkit-sandbox credentials --data-dir .data/sandbox > creds.json
 *
 * Environment fallbacks: SANDBOX_PORT, SANDBOX_HOST, SANDBOX_DATA_DIR, SANDBOX_PUBLIC_URL, SANDBOX_SEED,
 * DATABASE_URL, SANDBOX_DB_SCHEMA, SANDBOX_WEBHOOK_TIME_SCALE, SANDBOX_WEBHOOK_TIMEOUT_MS, LOG_LEVEL; admin commands:
 * SANDBOX_URL, SANDBOX_ADMIN_TOKEN.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { addAdminCommands } from './admin-cli.ts';
import { credentialsFilePath, readDemoCredential } from './credentials/demo-credential.ts';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from './options.ts';

function share(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1.`);
    return n;
  };
}

function positive(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${name} must be a positive number.`);
    return n;
  };
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} must be between ${min} and ${max}.`);
    return n;
  };
}

/**
 * Commander's errors that mean the command line itself is wrong (an unknown option or command, a bad or missing
 * value, no command at all): they exit 64 (EX_USAGE, sysexits.h), as `domainkit-bff`'s do, after commander printed
 * the error, its did-you-mean and the usage.
 */
const USAGE_ERRORS = new Set([
  'commander.unknownOption',
  'commander.unknownCommand',
  'commander.excessArguments',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.invalidArgument',
  'commander.conflictingOption',
  'commander.help',
]);

const program = new Command()
  .name('domainkit-sandbox')
  .description(
    'A local marketplace for domainkit: signed Partner API, hosted lander with test cards, synthetic inventory.',
  )
  .showHelpAfterError()
  // Set before any subcommand is added: each one inherits it.
  .exitOverride((error) => process.exit(USAGE_ERRORS.has(error.code) ? 64 : error.exitCode));

program
  .command('start')
  .description('start the sandbox and keep it running until SIGINT or SIGTERM')
  .addOption(
    new Option('--port <port>', 'TCP port (0 picks a free one)')
      .env('SANDBOX_PORT')
      .argParser(integer('port', 0, 65535))
      .default(DEFAULT_PORT),
  )
  .addOption(new Option('--host <host>', 'interface to bind').env('SANDBOX_HOST').default(DEFAULT_HOST))
  .addOption(
    new Option('--data-dir <dir>', 'data folder (database and credentials.json)')
      .env('SANDBOX_DATA_DIR')
      .default(DEFAULT_DATA_DIR),
  )
  .addOption(
    new Option('--database-url <url>', 'PostgreSQL URL (default: embedded PGlite in the data folder)').env(
      'DATABASE_URL',
    ),
  )
  .addOption(
    new Option('--public-url <url>', 'base URL of checkout links (default http://host:port)').env('SANDBOX_PUBLIC_URL'),
  )
  .addOption(
    new Option('--seed <seed>', 'inventory seed for a new data folder')
      .env('SANDBOX_SEED')
      .argParser(integer('seed', 0, 0xffffffff)),
  )
  .addOption(
    new Option('--schema <name>', 'PostgreSQL schema for the tables (with --database-url)').env('SANDBOX_DB_SCHEMA'),
  )
  .addOption(
    new Option('--webhook-time-scale <factor>', 'multiplies the webhook retry schedule (0.001 for tests)')
      .env('SANDBOX_WEBHOOK_TIME_SCALE')
      .argParser(positive('webhook-time-scale')),
  )
  .addOption(
    new Option('--webhook-timeout-ms <ms>', 'how long a webhook receiver has to answer 200')
      .env('SANDBOX_WEBHOOK_TIMEOUT_MS')
      .argParser(integer('webhook-timeout-ms', 10, 60_000)),
  )
  .addOption(
    new Option(
      '--auth-failure-limit <n>',
      'failed Partner API authentications allowed per address and minute before 429 ("off" or 0: no limit)',
    )
      .env('SANDBOX_AUTH_FAILURE_LIMIT')
      .argParser((value: string) =>
        value.trim().toLowerCase() === 'off' ? 0 : integer('auth-failure-limit', 0, 1_000_000)(value.trim()),
      ),
  )
  .addOption(
    new Option('--ready-file <path>', 'once listening, write the URL to this file (CI waits for it to appear)').env(
      'SANDBOX_READY_FILE',
    ),
  )
  .addOption(
    new Option('--fault-error-rate <share>', 'share of Partner API requests answering 500').argParser(
      share('fault-error-rate'),
    ),
  )
  .addOption(
    new Option('--fault-latency-ms <ms>', 'latency added to Partner API answers').argParser(
      integer('fault-latency-ms', 0, 60_000),
    ),
  )
  .addOption(
    new Option('--fault-duplicate-rate <share>', 'share of webhook events delivered twice').argParser(
      share('fault-duplicate-rate'),
    ),
  )
  .addOption(
    new Option('--fault-out-of-order-rate <share>', 'share of webhook events held back').argParser(
      share('fault-out-of-order-rate'),
    ),
  )
  .action(
    async (opts: {
      port: number;
      host: string;
      dataDir: string;
      databaseUrl?: string;
      publicUrl?: string;
      seed?: number;
      schema?: string;
      webhookTimeScale?: number;
      webhookTimeoutMs?: number;
      faultErrorRate?: number;
      faultLatencyMs?: number;
      faultDuplicateRate?: number;
      faultOutOfOrderRate?: number;
      readyFile?: string;
      authFailureLimit?: number;
    }) => {
      const logger = pino({ name: 'domainkit-sandbox', level: process.env.LOG_LEVEL ?? 'info' });
      // A new embedded database takes several seconds to initialise: say so, and keep saying it is still going.
      const startedAt = Date.now();
      logger.info(
        { data_dir: opts.dataDir, database: opts.databaseUrl ? 'postgres' : 'pglite' },
        'starting: opening the database (a new embedded data folder takes a few seconds)',
      );
      const ticker = setInterval(
        () => logger.info({ elapsed_s: Math.round((Date.now() - startedAt) / 1000) }, 'still starting'),
        2000,
      );
      const { startSandbox } = await import('./sandbox.ts');
      const faults = {
        ...(opts.faultErrorRate !== undefined ? { error_rate: opts.faultErrorRate } : {}),
        ...(opts.faultLatencyMs !== undefined ? { latency_ms: opts.faultLatencyMs } : {}),
        ...(opts.faultDuplicateRate !== undefined ? { duplicate_rate: opts.faultDuplicateRate } : {}),
        ...(opts.faultOutOfOrderRate !== undefined ? { out_of_order_rate: opts.faultOutOfOrderRate } : {}),
      };
      const sandbox = await startSandbox({
        port: opts.port,
        host: opts.host,
        dataDir: opts.dataDir,
        databaseUrl: opts.databaseUrl ?? '',
        ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl } : {}),
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        ...(opts.schema !== undefined ? { schema: opts.schema } : {}),
        ...(opts.webhookTimeScale !== undefined ? { webhookTimeScale: opts.webhookTimeScale } : {}),
        ...(opts.webhookTimeoutMs !== undefined ? { webhookTimeoutMs: opts.webhookTimeoutMs } : {}),
        ...(Object.keys(faults).length > 0 ? { faults } : {}),
        ...(opts.authFailureLimit !== undefined ? { authFailureLimit: opts.authFailureLimit } : {}),
        logger,
      }).finally(() => clearInterval(ticker));
      if (opts.readyFile !== undefined) writeFileSync(opts.readyFile, `${sandbox.url}\n`);
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
    },
  );

program
  .command('credentials')
  .description('print the demo credential as JSON (initialises the data folder when needed)')
  .addOption(new Option('--data-dir <dir>', 'data folder').env('SANDBOX_DATA_DIR').default(DEFAULT_DATA_DIR))
  .addOption(
    new Option('--database-url <url>', 'PostgreSQL URL (default: embedded PGlite in the data folder)').env(
      'DATABASE_URL',
    ),
  )
  .action(async (opts: { dataDir: string; databaseUrl?: string }) => {
    // A running sandbox already wrote the file; reading it never touches its (single-process) database.
    if (!existsSync(credentialsFilePath(opts.dataDir))) {
      const logger = pino({ name: 'domainkit-sandbox', level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
      const { createSandboxApp } = await import('./app.ts');
      const sandbox = await createSandboxApp({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl ?? '', logger });
      await sandbox.close();
    }
    process.stdout.write(`${JSON.stringify(readDemoCredential(opts.dataDir), null, 2)}\n`);
  });

addAdminCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`domainkit-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
