/**
 * Every refusal of the OAuth 2.1 authorization server (Public API spec 5.2, 8; OAuth 2.1, RFC 7636, RFC 7591, RFC 9700): a
 * reused code (which also revokes what it issued), an expired code (moved clock), a wrong verifier (which changes
 * nothing), refused refreshes that spend nothing, the 30-day family limit, `plain` and
 * missing PKCE, redirect URI mismatches, refresh token reuse revoking the whole family, an expired access token,
 * scope widening, unacceptable redirect URIs at registration, a wrong password, a denial — and tokens at rest
 * only as hashes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import { readDemoUser, type DemoUser } from '../src/oauth/users.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';
import {
  authorizationUrl,
  authorize,
  call,
  checkRecordedAnswers,
  driveConsent,
  exchangeCode,
  pkce,
  refresh,
  registerTestClient,
  signIn,
} from './public-api-helpers.ts';

let t: TestSandbox;
let user: DemoUser;
const listed = generateInventory({ environment: 'SANDBOX' })[0]!;

beforeAll(async () => {
  t = await startTestSandbox();
  user = readDemoUser(t.dataDir);
});
afterAll(() => t?.stop());
// A fresh rate-limit window for every test (this file signs in many times).
beforeEach(() => t.clock.advance(60));

async function priceWith(token: string) {
  return call(t, { path: '/api/domain/search', json: { q: listed.name }, token });
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
function expectInvalidToken(answer: { status: number; headers: Headers; json: any }, reason: RegExp) {
  expect(answer.status).toBe(401);
  const header = answer.headers.get('www-authenticate')!;
  expect(header).toMatch(/^Bearer error="invalid_token"/);
  expect(header).toMatch(reason);
  expect(answer.json.error.code).toBe('invalid_token');
}

describe('authorization codes', () => {
  it('a reused code is refused, and the tokens it issued are revoked', async () => {
    const client = await registerTestClient(t);
    const { code, verifier } = await authorize(t, client, user);
    const first = await exchangeCode(t, client, code, verifier);
    expect(first.status).toBe(200);
    expect((await priceWith(first.json.access_token)).status).toBe(200);

    const second = await exchangeCode(t, client, code, verifier);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used.*revoked/),
    });
    expect(second.headers.get('cache-control')).toBe('no-store');
    expectInvalidToken(await priceWith(first.json.access_token), /revoked/);
    const refreshed = await refresh(t, client, first.json.refresh_token);
    expect(refreshed.json.error).toBe('invalid_grant');
  });

  it('an expired code (older than 60 seconds) is refused', async () => {
    const client = await registerTestClient(t);
    const { code, verifier } = await authorize(t, client, user);
    t.clock.advance(61);
    const answer = await exchangeCode(t, client, code, verifier);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired.*60 seconds/),
    });
  });

  it('a code 59 seconds old is still accepted', async () => {
    const client = await registerTestClient(t);
    const { code, verifier } = await authorize(t, client, user);
    t.clock.advance(59);
    expect((await exchangeCode(t, client, code, verifier)).status).toBe(200);
  });

  it('a wrong code verifier is invalid_grant and nothing more: the code stays redeemable by its owner', async () => {
    const client = await registerTestClient(t);
    const { code, verifier } = await authorize(t, client, user);
    const wrong = await exchangeCode(t, client, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge of the authorization request.',
    });
    const right = await exchangeCode(t, client, code, verifier);
    expect(right.status).toBe(200);
    expect((await priceWith(right.json.access_token)).status).toBe(200);
  });

  it('replaying a used code without its verifier (or from another client) revokes nothing', async () => {
    const client = await registerTestClient(t);
    const other = await registerTestClient(t);
    const { code, verifier } = await authorize(t, client, user);
    const first = await exchangeCode(t, client, code, verifier);
    expect(first.status).toBe(200);

    // Whoever saw the code in a URL but lacks the verifier cannot sign the user out.
    const wrong = await exchangeCode(t, client, code, pkce().verifier);
    expect(wrong.json).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge of the authorization request.',
    });
    const foreign = await exchangeCode(t, { ...other, redirect_uri: client.redirect_uri }, code, verifier);
    expect(foreign.json.error_description).toBe('The authorization code was issued to another client.');
    const redirect = await exchangeCode(t, client, code, verifier, { redirect_uri: 'http://127.0.0.1:9/elsewhere' });
    expect(redirect.json.error).toBe('invalid_grant');

    expect((await priceWith(first.json.access_token)).json.prices_masked).toBe(false);
    const rotated = await refresh(t, client, first.json.refresh_token);
    expect(rotated.status).toBe(200);
  });

  it('a missing verifier is an invalid_request; a code of another client is refused', async () => {
    const client = await registerTestClient(t);
    const other = await registerTestClient(t);
    const a = await authorize(t, client, user);
    const missing = await call(t, {
      path: '/api/oauth/token',
      form: {
        grant_type: 'authorization_code',
        client_id: client.client_id,
        code: a.code,
        redirect_uri: client.redirect_uri,
      },
    });
    expect(missing.json).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/code_verifier is required/),
    });
    const b = await authorize(t, client, user);
    const foreign = await exchangeCode(t, { ...other, redirect_uri: client.redirect_uri }, b.code, b.verifier);
    expect(foreign.json).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code was issued to another client.',
    });
  });

  it('a redirect_uri at the token endpoint that differs from the authorization request is refused', async () => {
    const client = await registerTestClient(t);
    const { code, verifier } = await authorize(t, client, user);
    const answer = await exchangeCode(t, client, code, verifier, { redirect_uri: 'http://127.0.0.1:9/elsewhere' });
    expect(answer.json).toEqual({
      error: 'invalid_grant',
      error_description: 'redirect_uri does not match the redirect_uri of the authorization request.',
    });
  });
});

describe('the authorization request', () => {
  it.each([
    ['plain', { code_challenge_method: 'plain' }, /S256 \(plain is refused\)/],
    [
      'a missing method (plain by default)',
      { code_challenge_method: undefined },
      /code_challenge_method=S256 is required/,
    ],
    ['a missing challenge', { code_challenge: undefined }, /code_challenge is required/],
    ['a malformed challenge', { code_challenge: 'short' }, /BASE64URL\(SHA256\(code_verifier\)\)/],
  ])('refuses %s, back to the client with invalid_request and its state', async (_name, overrides, message) => {
    const client = await registerTestClient(t);
    const url = authorizationUrl(t, client, { code_challenge: pkce().challenge, state: 'xyz-state', ...overrides });
    for (const [k, v] of Object.entries(overrides)) if (v === undefined) url.searchParams.delete(k);
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(client.redirect_uri);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(message);
    expect(location.searchParams.get('state')).toBe('xyz-state');
    expect(location.searchParams.get('iss')).toBe(t.sandbox.url);
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('shows an error page, never a redirect, for a redirect URI that was not registered', async () => {
    const client = await registerTestClient(t, { redirectUri: 'http://127.0.0.1:9/callback' });
    for (const redirect of [
      'https://attacker.example/callback',
      'http://127.0.0.1:9/callback/extra',
      'http://127.0.0.1:9/callback?x=1',
      'http://localhost:9/callback',
    ]) {
      const res = await fetch(
        authorizationUrl(t, client, { redirect_uri: redirect, code_challenge: pkce().challenge, state: 's' }),
        { redirect: 'manual' },
      );
      expect(res.status, redirect).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('Redirect URI mismatch');
    }
  });

  it('accepts a loopback redirect URI on any port (RFC 8252), and returns the code there', async () => {
    const client = await registerTestClient(t, { redirectUri: 'http://127.0.0.1:9/callback' });
    const { verifier, challenge } = pkce();
    const outcome = await driveConsent(
      authorizationUrl(t, client, {
        redirect_uri: 'http://127.0.0.1:53127/callback',
        code_challenge: challenge,
        state: 's',
      }),
      user,
    );
    expect(outcome.location!.origin).toBe('http://127.0.0.1:53127');
    const answer = await exchangeCode(
      t,
      { ...client, redirect_uri: 'http://127.0.0.1:53127/callback' },
      outcome.location!.searchParams.get('code')!,
      verifier,
    );
    expect(answer.status).toBe(200);
  });

  it('shows an error page for an unknown client', async () => {
    const res = await fetch(
      `${t.sandbox.url}/oauth/authorize?response_type=code&client_id=dkcl_nobody&redirect_uri=http://127.0.0.1:9/cb`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Unknown application');
  });

  it('refuses an unknown scope and a resource of another service', async () => {
    const client = await registerTestClient(t);
    const scope = await fetch(authorizationUrl(t, client, { code_challenge: pkce().challenge, scope: 'admin' }), {
      redirect: 'manual',
    });
    expect(new URL(scope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    const resource = await fetch(
      authorizationUrl(t, client, { code_challenge: pkce().challenge, resource: 'https://other.example' }),
      { redirect: 'manual' },
    );
    expect(new URL(resource.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('a wrong password re-shows the page with an error and sends nothing back; a denial answers access_denied', async () => {
    const client = await registerTestClient(t);
    const wrong = await driveConsent(authorizationUrl(t, client, { code_challenge: pkce().challenge, state: 's1' }), {
      email: user.email,
      password: 'not-the-password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.location).toBeUndefined();
    expect(wrong.html).toContain('The email or password is not correct.');
    const denied = await driveConsent(authorizationUrl(t, client, { code_challenge: pkce().challenge, state: 's2' }), {
      email: '',
      password: '',
      decision: 'deny',
    });
    expect(denied.status).toBe(303);
    expect(denied.location!.searchParams.get('error')).toBe('access_denied');
    expect(denied.location!.searchParams.get('state')).toBe('s2');
  });

  it('lets the consent form post only to the sandbox and the client\u2019s redirect origin', async () => {
    const client = await registerTestClient(t, { redirectUri: 'http://127.0.0.1:4567/cb' });
    const res = await fetch(authorizationUrl(t, client, { code_challenge: pkce().challenge }));
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:4567");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('refresh tokens and access tokens', () => {
  it('reusing a spent refresh token revokes the whole family', async () => {
    const { client, tokens } = await signIn(t, user);
    const rotated = await refresh(t, client, tokens.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.json.refresh_token).not.toBe(tokens.refresh_token);
    expect((await priceWith(rotated.json.access_token)).status).toBe(200);

    const reuse = await refresh(t, client, tokens.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.json).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used.*revoked/),
    });
    expectInvalidToken(await priceWith(rotated.json.access_token), /revoked/);
    expectInvalidToken(await priceWith(tokens.access_token), /revoked/);
    expect((await refresh(t, client, rotated.json.refresh_token)).json.error).toBe('invalid_grant');
  });

  it('an expired access token answers 401 invalid_token (not masked prices); a refresh gets a working one', async () => {
    const { client, tokens } = await signIn(t, user);
    t.clock.advance(30 * 60 - 5);
    expect((await priceWith(tokens.access_token)).json.prices_masked).toBe(false);
    t.clock.advance(10);
    expectInvalidToken(await priceWith(tokens.access_token), /expired/);
    const renewed = await refresh(t, client, tokens.refresh_token);
    expect((await priceWith(renewed.json.access_token)).json.domain.listing.price_cents).toBe(listed.price_cents);
  });

  it('a refresh may narrow the scope but never widen it', async () => {
    const narrow = await signIn(t, user, 'pricing:read');
    const widen = await refresh(t, narrow.client, narrow.tokens.refresh_token, {
      scope: 'pricing:read domains:manage',
    });
    expect(widen.status).toBe(400);
    expect(widen.json).toEqual({ error: 'invalid_scope', error_description: expect.stringMatching(/cannot widen/) });

    const both = await signIn(t, user, 'pricing:read domains:manage');
    expect(both.tokens.scope).toBe('pricing:read domains:manage');
    const narrowed = await refresh(t, both.client, both.tokens.refresh_token, { scope: 'pricing:read' });
    expect(narrowed.json.scope).toBe('pricing:read');
    const domains = await call(t, { path: '/api/domains', token: narrowed.json.access_token });
    expect(domains.status).toBe(403);
    expect(domains.json.error.code).toBe('insufficient_scope');
    // The refresh token keeps the consented scope: the next refresh may ask for it all again.
    const full = await refresh(t, both.client, narrowed.json.refresh_token);
    expect(full.json.scope).toBe('pricing:read domains:manage');
  });

  it('a refused wider-scope refresh spends nothing: the next ordinary refresh works', async () => {
    const { client, tokens } = await signIn(t, user, 'pricing:read');
    const widen = await refresh(t, client, tokens.refresh_token, { scope: 'pricing:read domains:manage' });
    expect(widen.json.error).toBe('invalid_scope');
    const malformed = await refresh(t, client, tokens.refresh_token, { scope: '   ' });
    expect(malformed.json.error).toBe('invalid_scope');

    const ordinary = await refresh(t, client, tokens.refresh_token);
    expect(ordinary.status).toBe(200);
    expect((await priceWith(ordinary.json.access_token)).json.prices_masked).toBe(false);
    expect((await priceWith(tokens.access_token)).status).toBe(200);
  });

  it('a refresh token presented by another client is refused, and stays usable by its own client', async () => {
    const { client, tokens } = await signIn(t, user);
    const other = await registerTestClient(t);
    const answer = await refresh(t, other, tokens.refresh_token);
    expect(answer.json).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token was issued to another client.',
    });
    expect((await priceWith(tokens.access_token)).status).toBe(200);
    const own = await refresh(t, client, tokens.refresh_token);
    expect(own.status).toBe(200);
    expect((await priceWith(own.json.access_token)).json.prices_masked).toBe(false);
  });

  it('a refresh token older than 30 days is refused', async () => {
    const { client, tokens } = await signIn(t, user);
    t.clock.advance(30 * 86_400 + 1);
    const answer = await refresh(t, client, tokens.refresh_token);
    expect(answer.json).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
  });

  it('a token family expires 30 days after the authorization, however often it was rotated', async () => {
    const { client, tokens } = await signIn(t, user);
    let refreshToken = tokens.refresh_token;
    // Rotations on days 10, 20 and 29: each works, none extends the sign-in.
    for (const days of [10, 10, 9]) {
      t.clock.advance(days * 86_400);
      const rotated = await refresh(t, client, refreshToken);
      expect(rotated.status).toBe(200);
      refreshToken = rotated.json.refresh_token;
    }
    t.clock.advance(86_400 - 60);
    const lastMinute = await refresh(t, client, refreshToken);
    expect(lastMinute.status).toBe(200);
    refreshToken = lastMinute.json.refresh_token;
    t.clock.advance(61);
    const after = await refresh(t, client, refreshToken);
    expect(after.status).toBe(400);
    expect(after.json).toEqual({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired.*30 days from its authorization/),
    });
  });
});

describe('the token endpoint', () => {
  it.each([
    [{ grant_type: 'password', client_id: 'x' }, 401, 'invalid_client'],
    [{ grant_type: 'authorization_code' }, 400, 'invalid_request'],
  ])('refuses %j', async (form, status, error) => {
    const answer = await call(t, { path: '/api/oauth/token', form });
    expect(answer.status).toBe(status);
    expect(answer.json.error).toBe(error);
  });

  it('refuses an unsupported grant type, JSON bodies and client secrets', async () => {
    const client = await registerTestClient(t);
    expect(
      (
        await call(t, {
          path: '/api/oauth/token',
          form: { grant_type: 'client_credentials', client_id: client.client_id },
        })
      ).json.error,
    ).toBe('unsupported_grant_type');
    const json = await call(t, {
      path: '/api/oauth/token',
      json: { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: 'x' },
    });
    expect(json.json).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/x-www-form-urlencoded/),
    });
    const basic = await call(t, {
      path: '/api/oauth/token',
      form: { grant_type: 'refresh_token', refresh_token: 'x' },
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:s`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    expect(basic.json.error).toBe('invalid_client');
  });
});

describe('dynamic client registration', () => {
  it.each([
    ['a fragment', 'https://app.example/cb#frag', /fragment/],
    ['http off loopback', 'http://app.example/cb', /not loopback/],
    ['javascript:', 'javascript:alert(1)', /never allowed/],
    ['data:', 'data:text/html,hi', /never allowed/],
    ['a bare custom scheme', 'myapp:/cb', /reverse-domain/],
    ['user info', 'https://user:pw@app.example/cb', /user information/],
    ['a relative URI', '/cb', /not an absolute URI/],
  ])('refuses %s with invalid_redirect_uri', async (_name, uri, message) => {
    const answer = await call(t, { path: '/api/oauth/register', json: { client_name: 'x', redirect_uris: [uri] } });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_redirect_uri');
    expect(answer.json.error_description).toMatch(message);
  });

  it('accepts https, loopback http and private-use schemes, and never issues a secret', async () => {
    const answer = await call(t, {
      path: '/api/oauth/register',
      json: {
        client_name: 'native',
        redirect_uris: [
          'https://app.example/cb',
          'http://[::1]/cb',
          'http://localhost:3000/cb',
          'com.example.app:/oauth2redirect',
        ],
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.json.token_endpoint_auth_method).toBe('none');
    expect(answer.json).not.toHaveProperty('client_secret');
  });

  it('refuses confidential clients and a missing redirect_uris', async () => {
    const secret = await call(t, {
      path: '/api/oauth/register',
      json: { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' },
    });
    expect(secret.json).toEqual({
      error: 'invalid_client_metadata',
      error_description: expect.stringMatching(/only public clients/),
    });
    const none = await call(t, { path: '/api/oauth/register', json: { client_name: 'x' } });
    expect(none.json.error).toBe('invalid_redirect_uri');
    const scope = await call(t, {
      path: '/api/oauth/register',
      json: { redirect_uris: ['https://app.example/cb'], scope: 'admin' },
    });
    expect(scope.json.error).toBe('invalid_client_metadata');
  });
});

describe('storage', () => {
  it('keeps codes and tokens only as SHA-256 hashes, and no secret reaches a log line', async () => {
    const { tokens } = await signIn(t, user);
    const rows = await t.sandbox.db
      .withTables<{ oauth_tokens: { token_hash: string }; oauth_codes: { code_hash: string } }>()
      .selectFrom('oauth_tokens')
      .selectAll()
      .execute();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(tokens.access_token);
    expect(dump).not.toContain(tokens.refresh_token);
    expect(dump).not.toContain(tokens.access_token.slice(4));
    const log = t.logs.text();
    expect(log).not.toContain(tokens.access_token);
    expect(log).not.toContain(tokens.refresh_token);
    expect(log).not.toContain(user.password);
    expect(log).not.toMatch(/dkc_[A-Za-z0-9_-]{20}/);
  });

  it('answers every OAuth and Public API call of this file as openapi.json documents it', async () => {
    const { problems, checked } = await checkRecordedAnswers(t);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
