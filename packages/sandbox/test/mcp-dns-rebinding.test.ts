/**
 * Finding: the sandbox's MCP transport had no DNS-rebinding protection. A web page whose name an attacker rebinds to
 * 127.0.0.1 reached the MCP server as its own origin (Host and Origin both the attacker's name), and any foreign web
 * page could call it (the MCP specification: servers MUST validate the Origin header). Now a Host that is not one of
 * the sandbox's own names, or an Origin of a foreign site, is answered 403 before the request reaches the MCP server;
 * clients that send no Origin (agents, the SDK in Node) and local tools on a loopback origin keep working.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from './helpers.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ publicUrl: 'https://sandbox.partner.example' });
});
afterAll(() => t?.stop());

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebinding-test', version: '1' } },
});

/** Posts an MCP `initialize` with the given Host (and Origin), as a browser on a rebound name would send it. */
function initialize(
  path: string,
  headers: { host: string; origin?: string },
): Promise<{ status: number; body: string }> {
  const { port } = new URL(t.sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(INITIALIZE),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe.each(['/mcp', '/mcp/signed-in'])('%s', (path) => {
  const port = () => new URL(t.sandbox.url).port;

  it('refuses a Host that is not one of the sandbox’s names (a rebound DNS name) with 403', async () => {
    for (const host of [`rebind.attacker.example:${port()}`, 'attacker.example', `127.0.0.1.nip.io:${port()}`]) {
      const answer = await initialize(path, { host, origin: `http://${host}` });
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatch(/Host/);
    }
    const noOrigin = await initialize(path, { host: `rebind.attacker.example:${port()}` });
    expect(noOrigin.status).toBe(403);
  });

  it('refuses an Origin of a foreign site with 403, even with the right Host', async () => {
    for (const origin of ['https://attacker.example', 'null', `http://rebind.attacker.example:${port()}`]) {
      const answer = await initialize(path, { host: `127.0.0.1:${port()}`, origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.body).toMatch(/Origin/);
    }
  });

  it('serves its own names, with no Origin or a loopback or own Origin', async () => {
    const expected = path === '/mcp' ? 200 : 401;
    for (const [host, origin] of [
      [`127.0.0.1:${port()}`, undefined],
      [`localhost:${port()}`, 'http://localhost:6274'],
      [`[::1]:${port()}`, `http://127.0.0.1:${port()}`],
      ['sandbox.partner.example', 'https://sandbox.partner.example'],
    ] as const) {
      const answer = await initialize(path, { host, ...(origin !== undefined ? { origin } : {}) });
      expect(answer.status, `${host} ${origin}`).toBe(expected);
    }
  });
});
