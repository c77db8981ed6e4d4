/**
 * The fixture of the end-to-end files that talk to the sandbox and a standalone BFF in front of it directly (raw
 * sockets, no browser): both on port 0 and a fresh data folder, started before the file's first test and stopped
 * (data folder removed) after its last. The BFF sells as Merchant of Record with test cards, in memory, without
 * visitor limits or background work.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBff, testCardPayments, type BffServerOptions, type RunningBff } from '@domainkit/bff';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import { afterAll, beforeAll } from 'vitest';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

/** What {@link useSandboxAndBff} gives a file; read it inside tests. */
export interface SandboxAndBff {
  readonly sandbox: RunningSandbox;
  readonly bff: RunningBff;
}

/**
 * Starts the sandbox and a BFF in front of it for the calling test file (call at its top level).
 * @param prefix - the temporary data folder's name prefix.
 * @param overrides - more options of the BFF (a webhook secret, …).
 */
export function useSandboxAndBff(prefix: string, overrides: Partial<BffServerOptions> = {}): SandboxAndBff {
  const stack = {} as { sandbox: RunningSandbox; bff: RunningBff };
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
    stack.sandbox = await startSandbox({
      port: 0,
      dataDir: seedPgliteCluster(join(dataDir, 'sandbox')),
      databaseUrl: '',
      logger: false,
    });
    const { sandbox } = stack;
    stack.bff = await startBff({
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret, maxRetries: 0 },
      payments: testCardPayments(),
      database: { dataDir: seedPgliteCluster(join(dataDir, 'bff')) },
      returnUrl: 'https://shop.example/thanks',
      logger: false,
      visitorLimits: false,
      background: { enabled: false },
      port: 0,
      ...overrides,
    });
  });
  afterAll(async () => {
    await stack.bff?.close();
    await stack.sandbox?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });
  return stack;
}
