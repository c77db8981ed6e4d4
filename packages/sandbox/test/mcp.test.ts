/**
 * What issue 6 must show second: the official MCP TypeScript SDK client connects to the sandbox's MCP server
 * (Streamable HTTP), lists the tools, calls `search_domain` anonymously (masked prices), then signs in by itself
 * through the 401 challenge (discovery, dynamic registration, PKCE; the consent page answered with form posts) using
 * the SDK's auth support, and gets real prices.
 */
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import { readDemoUser, type DemoUser } from '../src/oauth/users.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';
import { driveConsent } from './public-api-helpers.ts';

let t: TestSandbox;
let user: DemoUser;
const listed = generateInventory({ environment: 'SANDBOX' }).find((d) => d.words.length === 1)!;
const openClients: Client[] = [];

beforeAll(async () => {
  t = await startTestSandbox();
  user = readDemoUser(t.dataDir);
});
afterAll(async () => {
  for (const c of openClients) await c.close().catch(() => undefined);
  await t?.stop();
});

/** An in-memory OAuth client provider, as an MCP host application would implement one. */
class TestOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:33418/oauth/callback';
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'MCP SDK test host',
    redirect_uris: [this.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connect(
  path: string,
  authProvider?: OAuthClientProvider,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'domainkit-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${t.sandbox.url}${path}`),
    authProvider ? { authProvider } : {},
  );
  openClients.push(client);
  await client.connect(transport);
  return { client, transport };
}

async function searchTool(client: Client, q: string) {
  const result = await client.callTool({ name: 'search_domain', arguments: { q } });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as {
    prices_masked: boolean;
    domain: { listing: { price_cents: number | null; price_masked: boolean } | null };
  };
}

const provider = new TestOAuthProvider();

describe('MCP server with the official SDK client', () => {
  it('lists the three tools, read-only, with input and output schemas', async () => {
    const { client } = await connect('/mcp');
    expect(client.getServerVersion()?.name).toBe('marketplace-sandbox');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['search_domain', 'tld_registration_price', 'whois_lookup']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema).toBeDefined();
    }
    expect(tools.find((tool) => tool.name === 'search_domain')!.inputSchema.required).toEqual(['q']);
  });

  it('answers search_domain anonymously with masked prices, and the other tools too', async () => {
    const { client } = await connect('/mcp');
    const result = await searchTool(client, listed.name);
    expect(result.prices_masked).toBe(true);
    expect(result.domain.listing).toEqual({ price_cents: null, currency: 'USD', price_masked: true });
    const price = await client.callTool({ name: 'tld_registration_price', arguments: { tld: 'com', op: 'renew' } });
    expect(price.structuredContent).toMatchObject({ tld: 'com', op: 'renew', price_cents: 1099, currency: 'USD' });
    const whois = await client.callTool({ name: 'whois_lookup', arguments: { domain: listed.name } });
    expect(whois.structuredContent).toMatchObject({ domain: listed.name, registered: true });
  });

  it('answers a tool error the agent can read for an unknown TLD', async () => {
    const { client } = await connect('/mcp');
    const result = await client.callTool({ name: 'whois_lookup', arguments: { domain: 'coffee.zzz' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/\.zzz is not a TLD this service knows/);
  });

  it('signs in by itself through the 401 challenge (SDK auth: discovery, registration, PKCE), then sees real prices', async () => {
    await expect(connect('/mcp/signed-in', provider)).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK discovered the server, registered a client and sent the user to the consent page.
    expect(provider.client?.client_id).toMatch(/^dkcl_/);
    const url = provider.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${t.sandbox.url}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('pricing:read');
    // The resource the client asks a token for is the endpoint it used (its own metadata names it, RFC 9728 3.3).
    expect(url.searchParams.get('resource')).toBe(`${t.sandbox.url}/mcp/signed-in`);

    const consent = await driveConsent(url, { email: user.email, password: user.password });
    const code = consent.location?.searchParams.get('code');
    expect(code).toBeTruthy();
    const pending = new StreamableHTTPClientTransport(new URL(`${t.sandbox.url}/mcp/signed-in`), {
      authProvider: provider,
    });
    await pending.finishAuth(code!);
    expect(provider.saved?.access_token).toMatch(/^dka_/);
    expect(provider.saved?.refresh_token).toMatch(/^dkr_/);

    const { client } = await connect('/mcp/signed-in', provider);
    const result = await searchTool(client, listed.name);
    expect(result.prices_masked).toBe(false);
    expect(result.domain.listing).toEqual({ price_cents: listed.price_cents, currency: 'USD', price_masked: false });
  });

  it('uses the same token on the anonymous endpoint for real prices', async () => {
    const { client } = await connect('/mcp', provider);
    expect((await searchTool(client, listed.name)).domain.listing?.price_cents).toBe(listed.price_cents);
  });

  it('refreshes by itself when the access token expires (401 invalid_token), rotating the refresh token', async () => {
    const before = provider.saved!;
    t.clock.advance(31 * 60);
    const { client } = await connect('/mcp/signed-in', provider);
    expect((await searchTool(client, listed.name)).prices_masked).toBe(false);
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
  });

  it('answers an invalid token with 401 invalid_token on either endpoint, never with masked prices', async () => {
    for (const path of ['/mcp', '/mcp/signed-in']) {
      const res = await fetch(`${t.sandbox.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer dka_bogus',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token".*resource_metadata="/);
    }
    const anonymous = await fetch(`${t.sandbox.url}/mcp/signed-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer scope="pricing:read", resource_metadata="${t.sandbox.url}/.well-known/oauth-protected-resource/mcp/signed-in"`,
    );
    expect((await fetch(`${t.sandbox.url}/mcp`)).status).toBe(405);
  });
});
