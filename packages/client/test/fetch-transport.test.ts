/**
 * Where Node's sockets are not (Cloudflare workerd; also Bun and Deno), the client sends with the platform's
 * `fetch` instead of undici, with the same retries, Retry-After handling, timeouts and answers; its default
 * User-Agent names the runtime without reading `process`. The runtime is made to look like workerd by its
 * `navigator.userAgent`, and a real HTTP server on 127.0.0.1 answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketplaceConnectionError, PartnerClient, lastResponseOf } from '../src/index.ts';
import { KEY_ID, SECRET, searchAnswer } from './helpers.ts';

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let origin: string;
let replies: Reply[];
let seen: IncomingMessage[];

beforeEach(async () => {
  replies = [];
  seen = [];
  server = createServer((req, res) => {
    seen.push(req);
    const reply = replies.shift();
    if (reply === undefined) res.writeHead(500).end();
    else reply(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

function client(overrides: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) {
  const sleeps: number[] = [];
  const c = new PartnerClient({
    baseUrl: origin,
    keyId: KEY_ID,
    secret: SECRET,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return { client: c, sleeps };
}

describe('the client on a runtime without Node sockets (workerd)', () => {
  it('sends with fetch, waits a 429 Retry-After, then returns the parsed answer with its request id', async () => {
    const sent = vi.spyOn(globalThis, 'fetch');
    replies.push(json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '2' }));
    replies.push(json(200, searchAnswer, { 'x-request-id': 'req_fetch_1' }));
    const { client: c, sleeps } = client();

    const result = await c.searchDomains('coffee');

    expect(result.domains.map((d) => d.domain)).toEqual(['coffeehouse.com']);
    expect(lastResponseOf(result)).toEqual({ requestId: 'req_fetch_1', status: 200 });
    expect(sleeps).toEqual([2000]);
    expect(sent).toHaveBeenCalledTimes(2);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.headers['user-agent']).toBe('domainkit-client/0.1.0 workerd');
    expect(seen[0]?.headers['x-service-signature']).toMatch(/^v1=/);
  });

  it('raises MarketplaceConnectionError naming the timeout when no answer arrives in time', async () => {
    replies.push(() => {}); // never answers
    const { client: c } = client({ timeoutMs: 50, maxRetries: 0 });

    const error = await c.searchDomains('coffee').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MarketplaceConnectionError);
    expect((error as Error).message).toMatch(/timed out after 50 ms/);
  });

  it('does not follow a redirect with a signed request', async () => {
    replies.push((_req, res) => res.writeHead(302, { location: `${origin}/elsewhere` }).end());
    const { client: c } = client({ maxRetries: 0 });

    const error = await c.searchDomains('coffee').catch((e: unknown) => e);

    expect((error as { status?: number }).status).toBe(302);
    expect(seen).toHaveLength(1);
  });

  it('builds its default User-Agent without `process`', async () => {
    vi.stubGlobal('process', undefined);
    let made: PartnerClient;
    try {
      made = client().client;
    } finally {
      vi.unstubAllGlobals();
      vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    }
    replies.push(json(200, searchAnswer));
    await made.searchDomains('coffee');
    expect(seen[0]?.headers['user-agent']).toBe('domainkit-client/0.1.0 workerd');
  });
});
