/**
 * Regression "upstream error text is logged verbatim": the marketplace's error message is its own text and may echo
 * a signature or a secret; the BFF's log lines carry it with signatures and secrets redacted, as the README promises.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startStubMarketplace, startTestBff, type StubMarketplace } from './helpers.ts';

let stub: StubMarketplace;
let bff: Awaited<ReturnType<typeof startTestBff>>;

beforeAll(async () => {
  stub = await startStubMarketplace();
  bff = await startTestBff(stub, { background: { enabled: false } });
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
});

it('logs an upstream error message with its signature and secrets redacted', async () => {
  const signature = `v1=${'ab12'.repeat(16)}`;
  const secret = 'sk_test_EchoedSecretValue0123456789';
  stub.enqueue('search', {
    status: 500,
    body: {
      error: {
        code: 'internal_error',
        message: `canonical string mismatch: got ${signature} with key ${secret} and token ${'Zx9_'.repeat(12)}`,
      },
    },
  });

  const answer = await call(`${bff.url}/search?q=redaction`);

  expect(answer.status).toBe(502);
  const logged = bff.lines.filter((l) => l.includes('canonical string mismatch'));
  expect(logged.length).toBeGreaterThan(0);
  for (const line of logged) {
    expect(line).not.toContain('ab12ab12ab12');
    expect(line).not.toContain(secret);
    expect(line).not.toContain('Zx9_Zx9_Zx9_');
    expect(line).toContain('[redacted]');
  }
});
