/**
 * The sign-in helper (oauth4webapi underneath) against a mock authorization server (undici MockAgent, network
 * disabled): discovery through the resource's metadata, public registration, PKCE S256 with state, the code
 * exchange, refresh with rotation (always the newest refresh token, one refresh at a time), and the session as the
 * PublicClient's token source.
 */
import { createHash } from 'node:crypto';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { PublicClient, PublicSignIn, SignInError } from '../src/index.ts';

const ORIGIN = 'https://marketplace.test';

const asMetadata = {
  issuer: ORIGIN,
  authorization_endpoint: `${ORIGIN}/oauth/authorize`,
  token_endpoint: `${ORIGIN}/api/oauth/token`,
  registration_endpoint: `${ORIGIN}/api/oauth/register`,
  revocation_endpoint: `${ORIGIN}/api/oauth/revoke`,
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  authorization_response_iss_parameter_supported: true,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
};

interface Received {
  path: string;
  form: URLSearchParams;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  json: any;
  headers: Record<string, string>;
}

/** A mock authorization server with scripted token answers. */
function server(options: { issuer?: string; tokens?: Array<{ status?: number; body: unknown }> } = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const received: Received[] = [];
  const record = (opts: { path: string; body?: unknown; headers?: unknown }) => {
    const text = typeof opts.body === 'string' ? opts.body : '';
    const headers = Object.fromEntries(
      Object.entries((opts.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    const json = headers['content-type']?.includes('json') ? JSON.parse(text) : undefined;
    received.push({ path: opts.path, form: new URLSearchParams(text), json, headers });
  };
  const json = { headers: { 'content-type': 'application/json' } };
  pool
    .intercept({ path: '/.well-known/oauth-protected-resource', method: 'GET' })
    .reply(200, { resource: ORIGIN, authorization_servers: [ORIGIN] }, json)
    .persist();
  pool
    .intercept({ path: '/.well-known/oauth-authorization-server', method: 'GET' })
    .reply(200, { ...asMetadata, issuer: options.issuer ?? ORIGIN }, json)
    .persist();
  pool
    .intercept({ path: '/api/oauth/register', method: 'POST' })
    .reply((opts) => {
      record(opts);
      return {
        statusCode: 201,
        data: JSON.stringify({
          client_id: 'dkcl_test',
          redirect_uris: ['http://127.0.0.1:8976/cb'],
          token_endpoint_auth_method: 'none',
        }),
        responseOptions: json,
      };
    })
    .persist();
  const tokenAnswers = [...(options.tokens ?? [])];
  pool
    .intercept({ path: '/api/oauth/token', method: 'POST' })
    .reply((opts) => {
      record(opts);
      const next = tokenAnswers.shift() ?? {
        status: 400,
        body: { error: 'invalid_grant', error_description: 'no more answers' },
      };
      return {
        statusCode: next.status ?? 200,
        data: JSON.stringify(next.body),
        responseOptions: { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } },
      };
    })
    .persist();
  pool
    .intercept({ path: (p) => p.startsWith('/api/domain/search'), method: 'POST' })
    .reply((opts) => {
      record(opts);
      const ok = received.at(-1)!.headers.authorization === 'Bearer dka_2';
      return ok
        ? {
            statusCode: 200,
            data: JSON.stringify({ query: 'a', label: 'a', domain: null, siblings: [], prices_masked: false }),
            responseOptions: json,
          }
        : {
            statusCode: 401,
            data: JSON.stringify({ error: { code: 'invalid_token', message: 'expired', request_id: 'r' } }),
            responseOptions: {
              headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
            },
          };
    })
    .persist();
  return { agent, received };
}

const tokens = (n: number, scope = 'pricing:read') => ({
  body: { access_token: `dka_${n}`, token_type: 'Bearer', expires_in: 1800, refresh_token: `dkr_${n}`, scope },
});

describe('PublicSignIn', () => {
  it('discovers the authorization server through the protected resource metadata', async () => {
    const { agent } = server();
    const signIn = await PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent });
    expect(signIn.server.token_endpoint).toBe(`${ORIGIN}/api/oauth/token`);
    expect(signIn.resource).toBe(ORIGIN);
  });

  it('refuses metadata whose issuer differs from the URL it came from', async () => {
    const { agent } = server({ issuer: 'https://evil.test' });
    await expect(PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent })).rejects.toBeInstanceOf(SignInError);
  });

  it('refuses plain http off loopback unless told otherwise', async () => {
    await expect(PublicSignIn.discover({ baseUrl: 'http://marketplace.test' })).rejects.toThrow(/https/);
  });

  it('registers a public client, builds a PKCE S256 authorization URL, and exchanges the code with its verifier', async () => {
    const { agent, received } = server({ tokens: [tokens(1)] });
    const signIn = await PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent });
    const client = await signIn.register({ clientName: 'My app', redirectUris: ['http://127.0.0.1:8976/cb'] });
    expect(client.clientId).toBe('dkcl_test');
    expect(received[0]!.json).toMatchObject({
      client_name: 'My app',
      redirect_uris: ['http://127.0.0.1:8976/cb'],
      token_endpoint_auth_method: 'none',
    });

    const pending = await signIn.startAuthorization({
      clientId: client.clientId,
      redirectUri: 'http://127.0.0.1:8976/cb',
      scope: 'pricing:read',
    });
    const q = pending.url.searchParams;
    expect(pending.url.origin + pending.url.pathname).toBe(`${ORIGIN}/oauth/authorize`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toBe(createHash('sha256').update(pending.codeVerifier).digest('base64url'));
    expect(q.get('state')).toBe(pending.state);
    expect(q.get('resource')).toBe(ORIGIN);

    const callback = `http://127.0.0.1:8976/cb?code=dkc_abc&state=${pending.state}&iss=${encodeURIComponent(ORIGIN)}`;
    const set = await signIn.finishAuthorization(pending, callback);
    expect(set).toMatchObject({ accessToken: 'dka_1', refreshToken: 'dkr_1', scope: 'pricing:read' });
    const form = received.at(-1)!.form;
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'dkc_abc',
      code_verifier: pending.codeVerifier,
      client_id: 'dkcl_test',
      redirect_uri: 'http://127.0.0.1:8976/cb',
    });
  });

  it('refuses a callback whose state differs, without calling the token endpoint', async () => {
    const { agent, received } = server({ tokens: [tokens(1)] });
    const signIn = await PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent });
    const pending = await signIn.startAuthorization({ clientId: 'dkcl_test', redirectUri: 'http://127.0.0.1:8976/cb' });
    await expect(
      signIn.finishAuthorization(
        pending,
        `http://127.0.0.1:8976/cb?code=x&state=forged&iss=${encodeURIComponent(ORIGIN)}`,
      ),
    ).rejects.toThrow();
    expect(received.filter((r) => r.path === '/api/oauth/token')).toHaveLength(0);
    const denied = await signIn
      .finishAuthorization(
        pending,
        `http://127.0.0.1:8976/cb?error=access_denied&state=${pending.state}&iss=${encodeURIComponent(ORIGIN)}`,
      )
      .catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: 'access_denied' });
  });

  it('a session refreshes when the access token expires, always with the newest refresh token, once for concurrent callers', async () => {
    const { agent, received } = server({ tokens: [tokens(2), tokens(3)] });
    let now = 1_000_000;
    const signIn = await PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent, now: () => now });
    const saved: string[] = [];
    const session = signIn.session(
      'dkcl_test',
      { accessToken: 'dka_1', refreshToken: 'dkr_1', expiresAt: now + 1800_000, scope: 'pricing:read' },
      { onTokens: (t) => void saved.push(t.refreshToken!) },
    );
    expect(await session.getAccessToken()).toBe('dka_1');
    now += 1800_000;
    const [a, b] = await Promise.all([session.getAccessToken(), session.getAccessToken()]);
    expect([a, b]).toEqual(['dka_2', 'dka_2']);
    now += 1800_000;
    expect(await session.getAccessToken()).toBe('dka_3');
    const refreshes = received.filter((r) => r.path === '/api/oauth/token').map((r) => Object.fromEntries(r.form));
    expect(refreshes).toEqual([
      { grant_type: 'refresh_token', refresh_token: 'dkr_1', client_id: 'dkcl_test' },
      { grant_type: 'refresh_token', refresh_token: 'dkr_2', client_id: 'dkcl_test' },
    ]);
    expect(saved).toEqual(['dkr_2', 'dkr_3']);
  });

  it('raises invalid_grant when the refresh token was spent, and the session gives up on invalid_token', async () => {
    const { agent } = server({
      tokens: [
        { status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token was already used.' } },
      ],
    });
    const signIn = await PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent });
    const session = signIn.session('dkcl_test', {
      accessToken: 'dka_1',
      refreshToken: 'dkr_1',
      expiresAt: Date.now() + 1800_000,
      scope: '',
    });
    expect(await session.handleInvalidToken()).toBe(false);
    const error = await signIn.refresh('dkcl_test', session.tokens).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInError);
    expect(error).toMatchObject({ code: 'invalid_grant' });
  });

  it('serves as the PublicClient\u2019s token source: a 401 invalid_token is refreshed once and the call retried', async () => {
    const { agent, received } = server({ tokens: [tokens(2)] });
    const signIn = await PublicSignIn.discover({ baseUrl: ORIGIN, dispatcher: agent });
    const session = signIn.session('dkcl_test', {
      accessToken: 'dka_1',
      refreshToken: 'dkr_1',
      expiresAt: Date.now() + 1800_000,
      scope: 'pricing:read',
    });
    const client = new PublicClient({ baseUrl: ORIGIN, dispatcher: agent, accessToken: session });
    expect((await client.searchDomain('a')).prices_masked).toBe(false);
    expect(received.filter((r) => r.path === '/api/domain/search').map((r) => r.headers.authorization)).toEqual([
      'Bearer dka_1',
      'Bearer dka_2',
    ]);
  });
});
