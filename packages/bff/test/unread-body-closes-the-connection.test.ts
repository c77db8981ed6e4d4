/**
 * An answer given before the route read the request's body (a cross-site write refused, a console write without its
 * Idempotency-Key, a route that takes no body) closes the connection after it (RFC 9112 section 9.6): the rest of
 * the body is never drained, and the next request a client sends on a kept-alive connection is never read from the
 * middle of the previous body (which reset the connection before).
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubMarketplace, startTestBff, type StubMarketplace, type TestBff } from './helpers.ts';

let stub: StubMarketplace;
let bff: TestBff;
const signedIn: Record<string, string> = {};

beforeAll(async () => {
  stub = await startStubMarketplace();
  bff = await startTestBff(stub, { console: { authorize: () => ({ actor: 'partner' }) } });
  const session = await fetch(`${bff.url}/console/session`, { method: 'POST' });
  signedIn.authorization = `Bearer ${((await session.json()) as { token: string }).token}`;
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
});

/** Sends `body` chunked in two pieces on `agent`; answers the status and the `Connection` header, or the error. */
function send(
  agent: Agent,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; connection: string | undefined } | { error: string }> {
  return new Promise((resolve) => {
    let answered = false;
    const chunked = body === undefined ? {} : { 'transfer-encoding': 'chunked', 'content-type': 'application/json' };
    const req = httpRequest(url, { agent, method, headers: { ...headers, ...chunked } }, (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', (error) => {
      if (!answered) resolve({ error: error.message });
    });
    if (body !== undefined) {
      req.write(body.subarray(0, 64));
      req.write(body.subarray(64));
    }
    req.end();
  });
}

describe('a body the route did not read', () => {
  const large = Buffer.from(`{"domain":"coffee.com"}${' '.repeat(200 * 1024)}`);

  it.each([
    ['a cross-site write refused', '/checkout', { origin: 'https://evil.example' }, 403],
    ['a console write without its Idempotency-Key', '/console/links', signedIn, 400],
    ['the console session, which takes no body, past the limit', '/console/session', {}, 413],
  ])(
    '%s: the answer closes the connection, and the next request on the client is answered',
    async (_, path, headers, status) => {
      for (let i = 0; i < 3; i++) {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          const first = await send(agent, 'POST', `${bff.url}${path}`, headers, large);
          expect(first).toEqual({ status, connection: 'close' });
          expect(await send(agent, 'GET', `${bff.url}/healthz`, {})).toMatchObject({ status: 200 });
        } finally {
          agent.destroy();
        }
      }
    },
  );

  it('a small body read in full keeps the connection alive', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answer = await send(agent, 'POST', `${bff.url}/checkout`, {}, Buffer.from('{"domain":"x"}'));
      expect(answer).toMatchObject({ status: 400, connection: 'keep-alive' });
    } finally {
      agent.destroy();
    }
  });
});
