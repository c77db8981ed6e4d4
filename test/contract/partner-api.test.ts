/**
 * The Partner API contract (partner-api-contract.ts) run against the sandbox and against the stub marketplace the
 * BFF's tests stand in for it: one suite, so the stub cannot drift from the sandbox.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KEY_ID,
  SECRET,
  startStubMarketplace,
  type StubMarketplace,
} from '../../packages/bff/test/stub-marketplace.ts';
import { expectAnswersMatchPartnerApiDocument } from '../../packages/sandbox/test/openapi-check.ts';
import { runPartnerApiContract } from './partner-api-contract.ts';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.ts';

describe('the sandbox', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  // The contract talks to the sandbox through a proxy that records every answer, checked at the end against the
  // Partner API's OpenAPI document (@domainkit/protocol).
  let proxy: RecordingProxy;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dk-contract-'));
    sandbox = await startSandbox({ port: 0, dataDir, logger: false, databaseUrl: '' });
    proxy = await startRecordingProxy(() => sandbox.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  runPartnerApiContract(
    () => proxy.url,
    () => ({ keyId: sandbox.demo.key_id, secret: sandbox.demo.secret }),
    { query: 'coffee', webhookUrl: 'http://127.0.0.1:9/contract/webhooks' },
  );
  it('answered every request of the contract as the Partner API OpenAPI document describes', () => {
    expect(expectAnswersMatchPartnerApiDocument(proxy.answers)).toBeGreaterThanOrEqual(10);
  });
});

describe("the BFF tests' stub marketplace", () => {
  let stub: StubMarketplace;
  beforeAll(async () => {
    stub = await startStubMarketplace();
  });
  afterAll(() => stub?.close());
  runPartnerApiContract(
    () => stub.url,
    () => ({ keyId: KEY_ID, secret: SECRET }),
    { query: 'coffee', webhookUrl: 'http://127.0.0.1:9/contract/webhooks' },
  );
});
