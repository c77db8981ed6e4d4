/**
 * Finding: the per-address failed-authentication throttle (100 a minute) was neither cleared by `POST /admin/reset`
 * nor switchable, so a partner's own negative-path suite (bad signatures, missing headers, stale timestamps...)
 * against the sandbox was answered 429 after its first hundred failures, until the minute ended.
 *
 * Now a reset clears it, the `authFailureLimit` option (`--auth-failure-limit`, `SANDBOX_AUTH_FAILURE_LIMIT`) sets
 * the failures allowed per address and minute, and `0` (or `off`) switches it off.
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { admin, removeDir, send, startTestSandbox, type TestSandbox, freshPgliteDataDir } from './helpers.ts';

const dataDir = freshPgliteDataDir('dk-sandbox-');
let t: TestSandbox | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
  delete process.env.SANDBOX_AUTH_FAILURE_LIMIT;
});
afterAll(() => removeDir(dataDir));

/** One unsigned Partner API request: a failed authentication. */
async function unsigned(sandbox: TestSandbox) {
  const answer = await send(sandbox.sandbox, { path: '/api/partner/v1/domains/search', query: 'q=coffee' });
  return { status: answer.status, code: answer.json?.error?.code as string };
}

/** Sends `n` unsigned requests and counts the answers by status. */
async function failures(sandbox: TestSandbox, n: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let i = 0; i < n; i++) {
    const { status } = await unsigned(sandbox);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

it('POST /admin/reset ends the 429 a run of failed authentications earned', async () => {
  t = await startTestSandbox({ dataDir });
  expect(await failures(t, 100)).toEqual({ 401: 100 });
  expect(await unsigned(t)).toEqual({ status: 429, code: 'rate_limited' });

  expect((await admin(t.sandbox, 'POST', '/reset')).status).toBe(200);
  expect(await unsigned(t)).toEqual({ status: 401, code: 'missing_credentials' });
}, 120_000);

it('authFailureLimit: 0 switches the throttle off: every failure is answered 401', async () => {
  t = await startTestSandbox({ dataDir, authFailureLimit: 0 });
  expect(await failures(t, 150)).toEqual({ 401: 150 });
}, 120_000);

it('SANDBOX_AUTH_FAILURE_LIMIT sets the failures allowed per address and minute', async () => {
  process.env.SANDBOX_AUTH_FAILURE_LIMIT = '5';
  t = await startTestSandbox({ dataDir });
  expect(await failures(t, 5)).toEqual({ 401: 5 });
  expect(await unsigned(t)).toEqual({ status: 429, code: 'rate_limited' });
}, 120_000);

it('SANDBOX_AUTH_FAILURE_LIMIT=off switches it off, and a bad value is refused at start', async () => {
  process.env.SANDBOX_AUTH_FAILURE_LIMIT = 'off';
  t = await startTestSandbox({ dataDir });
  expect(await failures(t, 120)).toEqual({ 401: 120 });
  await t.stop();
  t = undefined;
  process.env.SANDBOX_AUTH_FAILURE_LIMIT = 'lots';
  await expect(startTestSandbox({ dataDir })).rejects.toThrow(/SANDBOX_AUTH_FAILURE_LIMIT must be/);
}, 120_000);
