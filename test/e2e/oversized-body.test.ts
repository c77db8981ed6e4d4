/**
 * Regression (issue "slow and oversized bodies"): a request declaring a `Content-Length` over the limit is refused
 * with 413 at once, before its body is read, on both servers (the sandbox and the standalone BFF); a server never
 * waits for the declared bytes. Raw sockets, so nothing in between reads or shortens the body.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useSandboxAndBff } from './sandbox-and-bff.ts';

const stack = useSandboxAndBff('dk-oversized-');

/**
 * Sends the request head and a few body bytes of a huge declared body, then waits for the status line.
 * @returns the status and how long it took (ms), or status 0 when nothing came within `waitMs`.
 */
function declareHugeBody(baseUrl: string, path: string, waitMs = 5_000): Promise<{ status: number; ms: number }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ status: 0, ms: performance.now() - started });
    }, waitMs);
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
          'Content-Length: 999999999\r\n\r\n{"domain": "',
      );
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (match) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(match[1]), ms: performance.now() - started });
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('a Content-Length over the limit', () => {
  it.each([
    ['the sandbox, Partner API', '/api/partner/v1/checkout-session'],
    ['the sandbox, Public API', '/api/domain/search'],
    ['the sandbox, OAuth registration', '/api/oauth/register'],
    ['the sandbox, admin API', '/admin/credentials'],
  ])('is answered 413 within a second by %s', async (_name, path) => {
    const { status, ms } = await declareHugeBody(stack.sandbox.url, path);
    expect(status).toBe(413);
    expect(ms).toBeLessThan(1_000);
  });

  it.each([
    ['POST /checkout', '/checkout'],
    ['POST /orders', '/orders'],
    ['an unknown path', '/no-such-route'],
  ])('is answered 413 within a second by the standalone BFF: %s', async (_name, path) => {
    const { status, ms } = await declareHugeBody(stack.bff.url, path);
    expect(status).toBe(413);
    expect(ms).toBeLessThan(1_000);
  });
});
