/**
 * Regression (issue 26, finding 5): behind a TLS-terminating or Host-rewriting reverse proxy, the shop's own pages
 * were refused their purchases (403 `forbidden`): the BFF built its own origin from the scheme of the hop in front of
 * it and the raw `Host`, so `Origin: https://shop.example` never matched `http://127.0.0.1:8787`. The shop's own
 * origin is now what the browser used: `Sec-Fetch-Site: same-origin` says so itself, and a trusted proxy's
 * `Forwarded` (RFC 7239) or `X-Forwarded-Proto` / `X-Forwarded-Host` say which scheme and host it received. The
 * same headers from a hop that is not trusted change nothing: a foreign origin is still refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHOP_ORIGIN,
  call,
  startMountedBff,
  startStubMarketplace,
  startTestBff,
  type StubMarketplace,
  type TestBff,
} from './helpers.ts';

/** The shop's public origin, as the visitor's browser sees it (not in `allowedOrigins`: it is the BFF's own). */
const PUBLIC_ORIGIN = 'https://www.shop-behind-a-proxy.example';
const PUBLIC_HOST = 'www.shop-behind-a-proxy.example';

let stub: StubMarketplace;
/** Standalone, one proxy in front (the test client plays it, from 127.0.0.1). */
let behindOne: TestBff;
/** Standalone, trusting only proxies at 10.0.0.0/8: the test client is not one of them. */
let trustingOthers: TestBff;
/** Standalone, no proxy trusted (the default). */
let direct: TestBff;

beforeAll(async () => {
  stub = await startStubMarketplace();
  behindOne = await startTestBff(stub, { trustProxy: 1 });
  trustingOthers = await startTestBff(stub, { trustProxy: '10.0.0.0/8' });
  direct = await startTestBff(stub);
});
afterAll(async () => {
  await Promise.all([behindOne?.close(), trustingOthers?.close(), direct?.close()]);
  await stub?.close();
});

const checkout = (bff: { url: string }, headers: Record<string, string>) =>
  call(`${bff.url}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ domain: 'coffee.com' }),
  });

describe('a purchase from the shop’s own page, behind a reverse proxy', () => {
  it.each([
    ['X-Forwarded-Proto and X-Forwarded-Host', { 'x-forwarded-proto': 'https', 'x-forwarded-host': PUBLIC_HOST }],
    ['Forwarded (RFC 7239)', { forwarded: `for=198.51.100.7;proto=https;host="${PUBLIC_HOST}"` }],
    [
      'Forwarded in capitals, next to a client-sent element',
      { forwarded: `for=x;host=evil.example, For=198.51.100.7;Proto=HTTPS;Host=${PUBLIC_HOST}` },
    ],
    ['X-Forwarded-Proto alone, the proxy keeping the Host', { 'x-forwarded-proto': 'https', host: PUBLIC_HOST }],
  ])('is served when the trusted proxy says so with %s', async (_name, headers) => {
    const answer = await checkout(behindOne, { origin: PUBLIC_ORIGIN, ...headers });
    expect([answer.status, answer.json?.error?.message]).toEqual([201, undefined]);
  });

  it('is served behind a proxy that forwards nothing, when the browser says Sec-Fetch-Site: same-origin', async () => {
    // nginx's default proxy_pass: TLS ends there, the Host becomes the upstream's, no forwarding header at all.
    const answer = await checkout(direct, { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' });
    expect([answer.status, answer.json?.error?.message]).toEqual([201, undefined]);
  });

  it('is served through a BFF mounted in an app that trusts its proxy (Express `trust proxy`)', async () => {
    const mounted = await startMountedBff(stub, 'loopback', {
      returnUrl: 'https://shop.example/thanks',
      allowedOrigins: [SHOP_ORIGIN],
      visitorLimits: false,
    });
    try {
      const answer = await checkout(mounted, {
        origin: PUBLIC_ORIGIN,
        forwarded: `for=198.51.100.7;proto=https;host=${PUBLIC_HOST}`,
      });
      expect([answer.status, answer.json?.error?.message]).toEqual([201, undefined]);
    } finally {
      await mounted.close();
    }
  });
});

describe('forwarding headers from a hop that is not trusted', () => {
  it.each([
    ['no proxy is trusted', () => direct],
    ['only other addresses are trusted', () => trustingOthers],
  ])('cannot make a foreign origin the shop’s own when %s', async (_name, bff) => {
    const before = stub.callsTo('checkout').length;
    const spoofs: Array<Record<string, string>> = [
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
      { forwarded: 'proto=https;host=evil.example' },
    ];
    for (const headers of spoofs) {
      const answer = await checkout(bff(), { origin: 'https://evil.example', ...headers });
      expect([answer.status, answer.json?.error?.code]).toEqual([403, 'forbidden']);
    }
    expect(stub.callsTo('checkout').length).toBe(before);
  });

  it('cannot make a foreign origin the shop’s own behind the trusted proxy either (it set the headers)', async () => {
    const answer = await checkout(behindOne, {
      origin: 'https://evil.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': PUBLIC_HOST,
    });
    expect([answer.status, answer.json?.error?.code]).toEqual([403, 'forbidden']);
  });

  it('a cross-site browser request is refused whatever the proxy headers say', async () => {
    const answer = await checkout(behindOne, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      forwarded: 'proto=https;host=evil.example',
    });
    expect([answer.status, answer.json?.error?.code]).toEqual([403, 'forbidden']);
  });
});
