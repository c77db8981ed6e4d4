/**
 * Issue 21: behind a Vercel- or Cloudflare-style platform proxy (TLS ends there; the function sees plain HTTP) the
 * shop's own page buys without the partner listing its own origin or trusting the platform's proxy: the platform's
 * own headers (`x-vercel-id` with `X-Forwarded-Proto` / `X-Forwarded-Host`; Cloudflare's `cf-visitor`) say which
 * origin the visitor used. A foreign origin is still refused, with those headers or without.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStubMarketplace, startTestBff, type StubMarketplace, type TestBff } from './helpers.ts';

const PUBLIC_ORIGIN = 'https://shop-on-a-platform.example';
const PUBLIC_HOST = 'shop-on-a-platform.example';

let stub: StubMarketplace;
let bff: TestBff;
beforeAll(async () => {
  stub = await startStubMarketplace();
  bff = await startTestBff(stub); // no proxy trusted, the own origin not listed
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
});

const checkout = (headers: Record<string, string>) =>
  call(`${bff.url}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ domain: 'coffee.com' }),
  });

describe('a purchase from the shop’s own page behind a platform proxy', () => {
  it.each([
    ['Vercel', { 'x-vercel-id': 'fra1::abcd-1', 'x-forwarded-proto': 'https', 'x-forwarded-host': PUBLIC_HOST }],
    ['Cloudflare', { 'cf-visitor': '{"scheme":"https"}', 'cf-ray': '8a1b2c3d4e5f-FRA', host: PUBLIC_HOST }],
  ])('is served behind %s without listing the shop’s origin', async (_name, headers) => {
    const answer = await checkout({ origin: PUBLIC_ORIGIN, ...headers });
    expect([answer.status, answer.json?.error?.message]).toEqual([201, undefined]);
  });

  it('still refuses a foreign origin, whatever the platform headers say', async () => {
    const before = stub.callsTo('checkout').length;
    const platforms: Array<Record<string, string>> = [
      { 'x-vercel-id': 'fra1::abcd-2', 'x-forwarded-proto': 'https', 'x-forwarded-host': PUBLIC_HOST },
      { 'cf-visitor': '{"scheme":"https"}', host: PUBLIC_HOST },
    ];
    for (const headers of platforms) {
      const answer = await checkout({ origin: 'https://evil.example', ...headers });
      expect([answer.status, answer.json?.error?.code]).toEqual([403, 'forbidden']);
    }
    expect(stub.callsTo('checkout').length).toBe(before);
  });
});
