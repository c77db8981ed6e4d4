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
 */
import { CLIENT_VERSION, PartnerClient } from '@domainkit/client';
import { checkCredential } from './credential-check.ts';
import { BffConfigError, loadBffConfigFromEnv } from './env.ts';
import { BFF_VERSION } from './version.ts';
import { BffOptionsError } from './options.ts';
import { startBff } from './server.ts';

/** `--check`: proves the credential once. */
async function check(): Promise<void> {
  let config: ReturnType<typeof loadBffConfigFromEnv>;
  try {
    config = loadBffConfigFromEnv(process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
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
  if (status.ok) {
    process.stdout.write(`ok: ${m.keyId} signs valid requests to ${m.baseUrl} with scopes ${scopes.join(', ')}\n`);
    process.exitCode = 0;
  } else {
    process.stderr.write(`domainkit-bff --check: ${status.reason} (${m.keyId} at ${m.baseUrl}): ${status.message}\n`);
    process.exitCode = 1;
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--check')) return check();
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
