/**
 * Regressions of "every boundary holds": input an attacker or a careless client sends is answered with a 4xx naming
 * what to fix, never a 500 (spec 7 tells clients to retry a 500, so a 500 for bad input is a retry storm). One
 * `describe` per defect, named after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPartner, send, startTestSandbox, type PartnerTestClient, type TestSandbox } from './helpers.ts';

let t: TestSandbox;
let client: PartnerTestClient;

beforeAll(async () => {
  t = await startTestSandbox();
  ({ client } = await newPartner(t.sandbox, t.clock));
});
afterAll(async () => {
  await t?.stop();
});

describe('malformed percent-escapes in a path', () => {
  it.each(['/api/tlds/%/metadata', '/api/tlds/%C3%28/metadata', '/r/%', '/r/%C3%28', '/market/%'])(
    'GET %s answers 400, not 500',
    async (path) => {
      const answer = await send(t.sandbox, { path });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toMatch(/internal_error|Something went wrong/);
    },
  );

  it.each(['/api/partner/v1/orders/%C3%28', '/api/partner/v1/orders/%'])(
    'signed GET %s answers 400 validation_error',
    async (path) => {
      const answer = await client.request({ path });
      expect([answer.status, answer.json?.error?.code]).toEqual([400, 'validation_error']);
    },
  );

  it('answers 401 where authentication comes first (bulk operation without a token)', async () => {
    const answer = await send(t.sandbox, {
      method: 'POST',
      path: '/api/domains/bulk/%C3%28',
      headers: { 'content-type': 'application/json' },
      body: '{"domains":[]}',
    });
    expect(answer.status).toBe(401);
  });
});

describe('NUL bytes reaching PostgreSQL', () => {
  it.each([
    ['/oauth/authorize', 'client_id=a%00b&response_type=code'],
    ['/market/%00', ''],
  ])('unauthenticated GET %s?%s answers 400, not 500', async (path, query) => {
    const answer = await send(t.sandbox, { path, query });
    expect(answer.status).toBe(400);
  });

  it('a database refusal that gets through is a 4xx and is logged as a defect', async () => {
    const before = t.logs.lines.length;
    const answer = await send(t.sandbox, { path: '/market/%00' });
    expect(answer.status).toBe(400);
    const defects = t.logs
      .entries()
      .slice(before)
      .filter((e) => e.defect === true);
    // Either the input policy refused the value first (no defect) or the database did and the defect is logged.
    for (const d of defects) expect(d.level).toBe(50);
  });
});
