/**
 * Regressions "foreign origins" and "the standalone BFF's 404s carry no CSP or nosniff": state-changing routes
 * refuse a request from a foreign origin with 403 before anything reaches the marketplace (CORS only stops a browser
 * from reading the answer, not the write), and every answer of the standalone server carries the security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCardPayments } from '../src/index.ts';
import {
  SHOP_ORIGIN,
  call,
  openTestDatabase,
  startStubMarketplace,
  startTestBff,
  type StubMarketplace,
  type TestDatabase,
} from './helpers.ts';

let stub: StubMarketplace;
let testDb: TestDatabase;
let bff: Awaited<ReturnType<typeof startTestBff>>;

beforeAll(async () => {
  stub = await startStubMarketplace();
  testDb = await openTestDatabase('pglite');
  bff = await startTestBff(stub, {
    database: testDb.database,
    payments: testCardPayments(),
    background: { enabled: false },
  });
});
afterAll(async () => {
  await bff?.close();
  await testDb?.close();
  await stub?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  call(`${bff.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('cross-site writes', () => {
  it.each([
    ['a foreign origin', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['the allowed host over http:', { origin: 'http://shop.example' }],
    ['no Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('POST /checkout from %s answers 403 and the marketplace sees no call', async (_name, headers) => {
    const before = stub.callsTo('checkout').length;
    const answer = await post('/checkout', { domain: 'coffee.com' }, headers);
    expect([answer.status, answer.json?.error?.code]).toEqual([403, 'forbidden']);
    expect(stub.callsTo('checkout').length).toBe(before);
  });

  it('POST /quotes and POST /orders from a foreign origin answer 403 without an upstream call', async () => {
    const before = stub.calls.length;
    const quote = await post('/quotes', { domain: 'coffee.com' }, { origin: 'https://evil.example' });
    const order = await post(
      '/orders',
      { quote_id: 'qt_x', buyer: { email: 'a@b.example' }, payment: {} },
      { origin: 'https://evil.example' },
    );
    expect([quote.status, order.status]).toEqual([403, 403]);
    expect(stub.calls.length).toBe(before);
  });

  it.each([
    ['an allowed origin', { origin: SHOP_ORIGIN }],
    ['its own origin', {} as Record<string, string>],
    ['a server (neither Origin nor Sec-Fetch-Site)', {}],
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
  ])('POST /checkout from %s is served', async (name, headers) => {
    const own: Record<string, string> = name === 'its own origin' ? { origin: new URL(bff.url).origin } : {};
    const answer = await post('/checkout', { domain: 'coffee.com' }, { ...headers, ...own });
    expect(answer.status).toBe(201);
  });
});

describe('security headers on every answer of the standalone server', () => {
  it.each(['/no-such-path', '/bff/no-such-route', '/'])('GET %s (404) carries CSP and nosniff', async (path) => {
    const answer = await call(`${new URL(bff.url).origin}${path}`);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});
