/**
 * The Partner API contract (partner-api-contract.ts) run against the sandbox and against the stub marketplace the
 * BFF's tests stand in for it: one suite, so the stub cannot drift from the sandbox, and neither from the Partner
 * API's OpenAPI document (the contract checks every answer against it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  KEY_ID,
  SECRET,
  startStubMarketplace,
  type StubMarketplace,
} from '../../packages/bff/test/stub-marketplace.ts';
import { runPartnerApiContract } from './partner-api-contract.ts';

describe('the sandbox', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dk-contract-'));
    sandbox = await startSandbox({ port: 0, dataDir, logger: false, databaseUrl: '' });
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  runPartnerApiContract(
    () => sandbox.url,
    () => ({ keyId: sandbox.demo.key_id, secret: sandbox.demo.secret }),
    { query: 'coffee', webhookUrl: 'http://127.0.0.1:9/contract/webhooks' },
  );
});

describe("the BFF tests' stub marketplace", () => {
  let stub: StubMarketplace;
  beforeAll(async () => {
    // Only declared fields: the contract checks every field against the OpenAPI document.
    stub = await startStubMarketplace({ undeclaredFields: false });
  });
  afterAll(() => stub?.close());
  runPartnerApiContract(
    () => stub.url,
    () => ({ keyId: KEY_ID, secret: SECRET }),
    { query: 'coffee', webhookUrl: 'http://127.0.0.1:9/contract/webhooks' },
  );
});
