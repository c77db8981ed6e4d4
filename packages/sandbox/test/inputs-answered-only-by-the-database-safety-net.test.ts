/**
 * Regression of "sandbox inputs still answered only by the database's safety net": each input below used to pass
 * validation and be refused by PostgreSQL (a check, a foreign key, a number or a date out of range), answered with
 * a generic 400 about NUL characters and logged `defect: true`. Each must be refused by input validation with the
 * spec's code and a message saying what to fix, and no defect line may be logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, newPartner, send, startTestSandbox, type PartnerTestClient, type TestSandbox } from './helpers.ts';

let t: TestSandbox;
let client: PartnerTestClient;

beforeAll(async () => {
  t = await startTestSandbox();
  ({ client } = await newPartner(t.sandbox, t.clock));
});
afterAll(async () => {
  await t?.stop();
});

/** The defect lines logged while `act` ran. */
async function defectsDuring<T>(act: () => Promise<T>): Promise<{ result: T; defects: unknown[] }> {
  const before = t.logs.lines.length;
  const result = await act();
  const defects = t.logs
    .entries()
    .slice(before)
    .filter((entry) => entry.defect === true);
  return { result, defects };
}

const partnerCursor = (position: unknown[]) => Buffer.from(JSON.stringify(position)).toString('base64url');

describe('a Partner API cursor past the integer column', () => {
  it.each([
    ['/api/partner/v1/links', 'links'],
    ['/api/partner/v1/orders', 'orders'],
  ])('GET %s with a cursor position of 2^31 answers 400 validation_error about the cursor', async (path, kind) => {
    const { result, defects } = await defectsDuring(() =>
      client.request({ path, query: { cursor: partnerCursor([kind, 2 ** 31]) } }),
    );
    expect([result.status, result.json?.error?.code]).toEqual([400, 'validation_error']);
    expect(result.json.error.message).toMatch(/cursor/);
    expect(defects).toEqual([]);
  });
});

describe('a Public API listings cursor in year 0000', () => {
  it('GET /api/market/listings answers 400 validation_error about the cursor', async () => {
    const cursor = Buffer.from(
      JSON.stringify({ v: 1, t: '0000-01-01T00:00:00.000Z', n: 'coffee.com', f: null }),
    ).toString('base64url');
    const { result, defects } = await defectsDuring(() =>
      send(t.sandbox, { path: '/api/market/listings', query: `cursor=${cursor}` }),
    );
    expect([result.status, result.json?.error?.code]).toEqual([400, 'validation_error']);
    expect(result.json.error.message).toMatch(/cursor/);
    expect(defects).toEqual([]);
  });
});

describe('an admin reprice below the floor', () => {
  it('POST /admin/domains/coffee.com/price with price_cents 1 answers 400 naming the floor, price unchanged', async () => {
    const { result, defects } = await defectsDuring(() =>
      admin(t.sandbox, 'POST', '/domains/coffee.com/price', { price_cents: 1 }),
    );
    expect([result.status, result.json?.error?.code]).toEqual([400, 'validation_error']);
    expect(result.json.error.message).toMatch(/floor/);
    expect(result.json.error.message).not.toMatch(/NUL/);
    expect(defects).toEqual([]);
    const quote = await client.request({ path: '/api/partner/v1/domains/coffee.com' });
    expect(quote.json.price_cents ?? quote.json.domain?.price_cents).toBeGreaterThan(1);
  });
});

describe('an admin referral sale of an unknown domain', () => {
  it('POST /admin/links/{id}/sales for a domain not in the inventory answers 404 not_found naming it', async () => {
    const link = await client.request({ method: 'POST', path: '/api/partner/v1/links', json: { kind: 'generic' } });
    expect(link.status).toBe(201);
    const { result, defects } = await defectsDuring(() =>
      admin(t.sandbox, 'POST', `/links/${link.json.link_id}/sales`, {
        domain: 'no-such-listing-anywhere.com',
        price_cents: 10_000,
      }),
    );
    expect([result.status, result.json?.error?.code]).toEqual([404, 'not_found']);
    expect(result.json.error.message).toContain('no-such-listing-anywhere.com');
    expect(defects).toEqual([]);
  });
});
