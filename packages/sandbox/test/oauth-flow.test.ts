/**
 * What issue 6 must show first: the OAuth 2.1 sign-in completed end to end by a client this project did not write
 * (oauth4webapi) — discovery at both well-known URLs, dynamic registration, PKCE authorization (the consent page
 * answered with plain form posts), token, refresh with rotation — and then a masked price unmasked.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import { readDemoUser, type DemoUser } from '../src/oauth/users.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';
import { call, checkRecordedAnswers, driveConsent } from './public-api-helpers.ts';

let t: TestSandbox;
let user: DemoUser;
const listed = generateInventory({ environment: 'SANDBOX' }).find((d) => d.words.length === 1 && d.tld === 'io')!;
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:8976/callback';

beforeAll(async () => {
  t = await startTestSandbox();
  user = readDemoUser(t.dataDir);
});
afterAll(() => t?.stop());

/** What one sign-in leaves behind for the next steps. */
const state: {
  as?: oauth.AuthorizationServer;
  client?: oauth.Client;
  tokens?: oauth.TokenEndpointResponse;
  rotated?: oauth.TokenEndpointResponse;
} = {};

async function searchListed(token?: string) {
  const answer = await call(t, { path: '/api/domain/search', json: { q: listed.name }, ...(token ? { token } : {}) });
  expect(answer.status).toBe(200);
  return answer.json;
}

describe('OAuth 2.1 sign-in with oauth4webapi', () => {
  it('the demo user\u2019s sign-in was generated into the data folder, not shipped', () => {
    expect(user.email).toBe('demo@sandbox.test');
    expect(user.password.length).toBeGreaterThanOrEqual(20);
    expect(t.logs.text()).not.toContain(user.password);
  });

  it('discovers the resource and the authorization server from the 401 challenge, with byte-identical identifiers', async () => {
    const challenge = await call(t, { path: '/api' });
    expect(challenge.status).toBe(401);
    const header = challenge.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)![1]!;
    expect(metadataUrl).toBe(`${t.sandbox.url}/.well-known/oauth-protected-resource`);

    const prmRaw = await call(t, { path: '/.well-known/oauth-protected-resource' });
    expect(prmRaw.json.resource).toBe(t.sandbox.url);
    const prm = await oauth.processResourceDiscoveryResponse(
      new URL(t.sandbox.url),
      await oauth.resourceDiscoveryRequest(new URL(t.sandbox.url), insecure),
    );
    expect(prm.authorization_servers).toEqual([t.sandbox.url]);

    const asRaw = await call(t, { path: '/.well-known/oauth-authorization-server' });
    expect(asRaw.json.issuer).toBe(t.sandbox.url);
    const issuer = new URL(prm.authorization_servers![0]!);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(as.registration_endpoint).toBe(`${t.sandbox.url}/api/oauth/register`);
    state.as = as;
  });

  it('registers a public client dynamically, without a secret', async () => {
    const response = await oauth.dynamicClientRegistrationRequest(
      state.as!,
      {
        redirect_uris: [REDIRECT],
        client_name: 'oauth4webapi test client',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      },
      insecure,
    );
    const registered = await oauth.processDynamicClientRegistrationResponse(response);
    expect(registered.client_id).toMatch(/^dkcl_/);
    expect(registered.client_secret).toBeUndefined();
    expect(registered.token_endpoint_auth_method).toBe('none');
    state.client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
  });

  it('signs in with PKCE S256 on the consent page, gets tokens, and a masked price becomes real', async () => {
    const { as, client } = state as Required<typeof state>;
    const masked = await searchListed();
    expect(masked.domain.listing).toEqual({ price_cents: null, currency: 'USD', price_masked: true });

    const verifier = oauth.generateRandomCodeVerifier();
    const expectedState = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', REDIRECT);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', expectedState);
    url.searchParams.set('scope', 'pricing:read');

    const consent = await driveConsent(url, { email: user.email, password: user.password });
    expect(consent.pageStatus).toBe(200);
    expect(consent.status).toBe(303);
    expect(consent.location!.origin + consent.location!.pathname).toBe(REDIRECT);
    expect(consent.location!.searchParams.get('state')).toBe(expectedState);
    expect(consent.location!.searchParams.get('iss')).toBe(t.sandbox.url);

    const params = oauth.validateAuthResponse(as, client, consent.location!, expectedState);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(1800);
    expect(tokens.scope).toBe('pricing:read');
    expect(tokens.refresh_token).toBeTypeOf('string');
    state.tokens = tokens;

    const real = await searchListed(tokens.access_token);
    expect(real.prices_masked).toBe(false);
    expect(real.domain.listing).toEqual({ price_cents: listed.price_cents, currency: 'USD', price_masked: false });
    const listings = await call(t, { path: `/api/market/listings?tld=io&limit=200`, token: tokens.access_token });
    expect(listings.json.listings.every((l: { price_cents: number | null }) => Number.isInteger(l.price_cents))).toBe(
      true,
    );

    const index = await call(t, { path: '/api', token: tokens.access_token });
    expect(index.status).toBe(200);
    expect(index.json.token).toMatchObject({
      subject: user.user_id,
      client_id: client.client_id,
      scope: 'pricing:read',
    });
  });

  it('refreshes with rotation: a new refresh token every time, the old one spent', async () => {
    const { as, client, tokens } = state as Required<typeof state>;
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    const rotated = await oauth.processRefreshTokenResponse(as, client, response);
    expect(rotated.refresh_token).toBeTypeOf('string');
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.access_token).not.toBe(tokens.access_token);
    expect(rotated.scope).toBe('pricing:read');
    expect((await searchListed(rotated.access_token)).domain.listing.price_cents).toBe(listed.price_cents);
    state.rotated = rotated;

    const again = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), rotated.refresh_token!, insecure);
    const third = await oauth.processRefreshTokenResponse(as, client, again);
    expect(third.refresh_token).not.toBe(rotated.refresh_token);
    state.rotated = third;
  });

  it('revokes: the revoked access token answers 401 invalid_token, never masked prices', async () => {
    const { as, client, rotated } = state as Required<typeof state>;
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), rotated.access_token, insecure),
    );
    const answer = await call(t, { path: '/api/domain/search', json: { q: listed.name }, token: rotated.access_token });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="The access token was revoked/,
    );
    // The refresh token still works (revoking an access token revokes it alone)...
    const next = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), rotated.refresh_token!, insecure),
    );
    expect((await searchListed(next.access_token)).prices_masked).toBe(false);
    // ...until it is revoked, which signs the whole family out.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), next.refresh_token!, insecure),
    );
    expect((await call(t, { path: '/api', token: next.access_token })).status).toBe(401);
  });

  it('answers every OAuth and Public API call of this file as openapi.json documents it', async () => {
    const { problems, checked } = await checkRecordedAnswers(t);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(5);
  });
});
