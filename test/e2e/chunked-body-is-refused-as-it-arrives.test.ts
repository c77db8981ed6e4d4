/**
 * Regression (issue 26, finding 6): a chunked body (`Transfer-Encoding: chunked`, no `Content-Length`) over a route's
 * limit was read on to its end and then answered with a misleading 504 `upstream_timeout` (the BFF) or 408 (the
 * sandbox) once a timeout passed. Counted as the bytes arrive, it is answered 413 as soon as it passes the limit,
 * and the server closes the connection after the answer instead of reading the rest. Raw sockets: the client sends
 * more than the limit, then sends nothing more (no last chunk), so only a server that counts as bytes arrive answers.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useSandboxAndBff } from './sandbox-and-bff.ts';

const stack = useSandboxAndBff('dk-chunked-', { webhook: { secret: 'whsec-chunked-body-test' } });

/** What the server did with a chunked body the client left unfinished. */
interface Outcome {
  /** The answer's status, or 0 when none came within the wait. */
  readonly status: number;
  /** The answer's head (status line and headers). */
  readonly head: string;
  /** Whether the server closed the connection after answering (the client never closes first). */
  readonly closedByServer: boolean;
}

/**
 * Sends `bytes` body bytes as 4 kB chunks (without the last chunk), then waits up to `waitMs` for the answer and
 * for the server to close the connection.
 */
function sendUnfinishedChunkedBody(
  baseUrl: string,
  path: string,
  bytes: number,
  extraHeaders = '',
  waitMs = 20_000,
): Promise<Outcome> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({
        status: match ? Number(match[1]) : 0,
        head: received.split('\r\n\r\n', 1)[0] ?? '',
        closedByServer,
      });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
          `Transfer-Encoding: chunked\r\n${extraHeaders}\r\n`,
      );
      const chunk = `{"domain": "${'a'.repeat(4096 - 13)}`;
      for (let sent = 0; sent < bytes; sent += chunk.length)
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    });
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
    });
    socket.on('end', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer arrived still shows the server closed the connection.
      if (received !== '' && error.code === 'ECONNRESET') finish(true);
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

describe('a chunked body over the route limit', () => {
  it.each([
    ['POST /checkout (16 kB)', '/checkout', 64 * 1024],
    ['POST /orders (16 kB)', '/orders', 64 * 1024],
    ['POST /webhooks (256 kB)', '/webhooks', 512 * 1024],
  ])(
    'is answered 413 and the connection closed by the standalone BFF: %s',
    async (_name, path, bytes) => {
      const outcome = await sendUnfinishedChunkedBody(stack.bff.url, path, bytes);
      expect(outcome.status).toBe(413);
      expect(outcome.head).toMatch(/^connection: close$/im);
      expect(outcome.closedByServer).toBe(true);
    },
    30_000,
  );

  it.each([
    ['the Partner API (100 kB)', '/api/partner/v1/checkout-session', 256 * 1024],
    ['the Public API (256 kB)', '/api/domain/search', 512 * 1024],
    ['OAuth registration (16 kB)', '/api/oauth/register', 64 * 1024],
    ['the admin API (16 kB)', '/admin/credentials', 64 * 1024],
  ])(
    'is answered 413 and the connection closed by the sandbox: %s',
    async (_name, path, bytes) => {
      const admin = path.startsWith('/admin/') ? `Authorization: Bearer ${stack.sandbox.demo.admin_token}\r\n` : '';
      const outcome = await sendUnfinishedChunkedBody(stack.sandbox.url, path, bytes, admin);
      expect(outcome.status).toBe(413);
      expect(outcome.head).toMatch(/^connection: close$/im);
      expect(outcome.closedByServer).toBe(true);
    },
    30_000,
  );
});
