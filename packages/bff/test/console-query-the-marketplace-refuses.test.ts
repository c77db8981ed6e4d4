/**
 * A console read whose query the marketplace refuses (a `cursor` no page of that list gave, such as one from another
 * list or typed by hand) is the partner's to fix: 400 `validation_error` saying what to send, not a 502 "could not be
 * reached" and an error log line. Found by the fuzzer (test/e2e/fuzz.test.ts, console routes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubMarketplace, startTestBff, type StubMarketplace, type TestBff } from './helpers.ts';

let stub: StubMarketplace;
let bff: TestBff;
let authorization: string;

beforeAll(async () => {
  stub = await startStubMarketplace();
  bff = await startTestBff(stub, { console: { authorize: () => ({ actor: 'partner' }) } });
  const session = await fetch(`${bff.url}/console/session`, { method: 'POST' });
  authorization = `Bearer ${((await session.json()) as { token: string }).token}`;
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
});

describe('a console query the marketplace refuses', () => {
  it('is 400 validation_error naming the cursor, and no error is logged', async () => {
    stub.enqueue('orders-list', {
      status: 400,
      body: { error: { code: 'validation_error', message: 'cursor is not a cursor of this list' } },
    });
    const answer = await fetch(`${bff.url}/console/orders?cursor=W7`, { headers: { authorization } });
    const body = (await answer.json()) as { error: { code: string; message: string } };

    expect(answer.status).toBe(400);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.message).toMatch(/`cursor`.*next_cursor/);
    // The marketplace's own words are not passed on.
    expect(body.error.message).not.toContain('cursor of this list');
    const errors = bff.lines.map((l) => JSON.parse(l) as { level: number }).filter((l) => l.level >= 50);
    expect(errors).toEqual([]);
  });

  it('a marketplace that fails is still a 502', async () => {
    stub.enqueue('orders-list', { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } });
    const answer = await fetch(`${bff.url}/console/orders?limit=5`, { headers: { authorization } });
    expect(answer.status).toBe(502);
  });
});
