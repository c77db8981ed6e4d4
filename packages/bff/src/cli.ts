#!/usr/bin/env node
/**
 * `domainkit-bff`: starts the standalone BFF from environment variables (see the README's table) and stops it
 * gracefully on SIGTERM or SIGINT. Exit codes: 0 after a clean stop, 1 when it cannot start, 78 (EX_CONFIG) for
 * a bad environment.
 *
 * `domainkit-bff --check`: checks the environment and proves the credential with the signed probes of
 * credential-check.ts (signature, and the scopes the configuration needs), without starting a server or opening
 * the database; prints the outcome and exits 0 when it works, 1 with the reason (`invalid_signature`,
 * `forbidden: scope embed missing`, `unreachable`, …) when not, 78 for a bad environment. For deploy pipelines.
 *
 * `--help` prints the usage, `--version` the version; both exit 0. The command line is read strictly with
 * `node:util` `parseArgs`: an unknown flag or any positional argument exits 64 (EX_USAGE) with the usage, and
 * never starts the server.
 */
import { parseArgs } from 'node:util';
import { CLIENT_VERSION, PartnerClient } from '@domainkit/client';
import { checkCredential } from './upstream/credential-check.ts';
import { BffConfigError, loadBffConfigFromEnv } from './env.ts';
import { redactText } from './logger.ts';
import { BFF_VERSION } from './version.ts';
import { BffOptionsError } from './options.ts';
import { startBff } from './server.ts';

/** `--check`: proves the credential once. */
async function check(): Promise<void> {
  let config: ReturnType<typeof loadBffConfigFromEnv>;
  try {
    config = loadBffConfigFromEnv(process.env);
  } catch (error) {
    process.stderr.write(redactText(`${(error as Error).message}\n`));
    process.exitCode = error instanceof BffConfigError ? 78 : 1;
    return;
  }
  const m = config.marketplace!;
  const client = new PartnerClient({
    baseUrl: m.baseUrl,
    keyId: m.keyId,
    secret: m.secret,
    headerPrefix: m.headerPrefix,
    timeoutMs: 10_000,
    maxRetries: 1,
    userAgent: `domainkit-bff/${BFF_VERSION} domainkit-client/${CLIENT_VERSION} node/${process.versions.node}`,
  });
  const needs = { buy: config.payments !== undefined, webhook: config.webhook !== undefined };
  const status = await checkCredential(client, needs);
  const scopes = ['search', 'embed', ...(needs.buy ? ['buy'] : []), ...(needs.webhook ? ['webhook'] : [])];
  // Printed through the log redaction: a URL's userinfo, a secret or a signature echoed in a message never shows.
  if (status.ok) {
    process.stdout.write(
      redactText(`ok: ${m.keyId} signs valid requests to ${m.baseUrl} with scopes ${scopes.join(', ')}\n`),
    );
    process.exitCode = 0;
  } else {
    process.stderr.write(
      redactText(`domainkit-bff --check: ${status.reason} (${m.keyId} at ${m.baseUrl}): ${status.message}\n`),
    );
    process.exitCode = 1;
  }
}

const USAGE = `Usage: domainkit-bff [--check]

Starts the domainkit BFF, configured by environment variables (DOMAINKIT_API_BASE_URL, DOMAINKIT_KEY_ID,
DOMAINKIT_API_SECRET, DOMAINKIT_PAYMENTS, DOMAINKIT_DATA_DIR, PORT, HOST, ...: see the README of
@domainkit/bff), until SIGTERM or SIGINT.

Options:
  --check        check the environment and prove the credential, then exit (no server, no database)
  -h, --help     print this usage and exit
  -v, --version  print the version and exit

Exit codes: 0 clean stop (or --check passed), 1 cannot start (or --check failed), 64 bad command line,
78 bad environment.
`;

const OPTIONS = {
  check: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** Edit distance of two short strings (Levenshtein), for the did-you-mean of a mistyped flag. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * Reads the command line with `parseArgs` (strict: unknown options and positionals throw).
 * @returns the flags, or `undefined` after writing a usage error to stderr and setting exit code 64 (EX_USAGE).
 */
function readArgs(args: string[]): { check?: boolean; help?: boolean; version?: boolean } | undefined {
  try {
    return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const { code } = error as { code?: string };
    let message = (error as Error).message;
    const given = /'(-[^']*)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && given !== undefined) {
      const name = given.replace(/^-+/, '').split('=')[0]!;
      const nearest = Object.keys(OPTIONS)
        .map((option) => ({ option, d: distance(name, option) }))
        .sort((x, y) => x.d - y.d)[0]!;
      message = `unknown option '${given}'${nearest.d <= 2 ? ` (did you mean '--${nearest.option}'?)` : ''}`;
    } else if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      message = `unexpected argument ${/'[^']*'/.exec(message)?.[0] ?? ''}: the command takes options only`;
    }
    process.stderr.write(`domainkit-bff: ${message}\n\n${USAGE}`);
    process.exitCode = 64;
    return undefined;
  }
}

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2));
  if (args === undefined) return;
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.version) {
    process.stdout.write(`${BFF_VERSION}\n`);
    return;
  }
  if (args.check) return check();
  let bff: Awaited<ReturnType<typeof startBff>>;
  try {
    bff = await startBff(loadBffConfigFromEnv(process.env));
  } catch (error) {
    if (error instanceof BffConfigError || error instanceof BffOptionsError) {
      process.stderr.write(redactText(`${error.message}\n`));
      process.exitCode = 78;
      return;
    }
    process.stderr.write(redactText(`domainkit-bff could not start: ${(error as Error).message}\n`));
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
