/**
 * Regression of "the 401 on the sandbox's signed-in MCP path points at protected resource metadata whose `resource` is
 * the base URL, and the path-specific metadata URL answers 404". RFC 9728 3.1: the metadata URL of a resource is the
 * well-known path inserted between the host and the resource's path; 3.3: the `resource` it names must equal the
 * resource identifier the client used (here the MCP endpoint's URL), or the client must refuse it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startTestSandbox, type TestSandbox } from './helpers.ts';

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t?.stop();
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rfc9728', version: '1' } },
});

/** The `resource_metadata` URL of a `WWW-Authenticate: Bearer` challenge. */
function resourceMetadataOf(challenge: string | null): string | undefined {
  return /resource_metadata="([^"]+)"/.exec(challenge ?? '')?.[1];
}

describe.each([
  ['/mcp/signed-in', {}],
  ['/mcp', { authorization: 'Bearer dka_not_a_token_this_server_issued' }],
])('POST %s answered 401', (path, auth) => {
  it('points at the metadata URL RFC 9728 3.1 forms from the path, whose resource is the URL the client used', async () => {
    const answer = await send(t.sandbox, {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
      body: initialize,
    });
    expect(answer.status).toBe(401);
    const metadataUrl = resourceMetadataOf(answer.headers.get('www-authenticate'));
    expect(metadataUrl).toBe(`${t.sandbox.url}/.well-known/oauth-protected-resource${path}`);
    const metadata = await fetch(metadataUrl!);
    expect(metadata.status).toBe(200);
    const document = (await metadata.json()) as { resource: string; authorization_servers: string[] };
    expect(document.resource).toBe(`${t.sandbox.url}${path}`);
    expect(document.authorization_servers).toEqual([t.sandbox.url]);
  });
});

describe('the Public API', () => {
  it('keeps the base URL as its resource, at the well-known URL without a path', async () => {
    const answer = await send(t.sandbox, { path: '/api' });
    expect(answer.status).toBe(401);
    expect(resourceMetadataOf(answer.headers.get('www-authenticate'))).toBe(
      `${t.sandbox.url}/.well-known/oauth-protected-resource`,
    );
    const document = (await (await fetch(`${t.sandbox.url}/.well-known/oauth-protected-resource`)).json()) as {
      resource: string;
    };
    expect(document.resource).toBe(t.sandbox.url);
  });
});
