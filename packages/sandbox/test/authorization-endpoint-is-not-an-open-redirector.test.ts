/**
 * Finding: the authorization endpoint was an open redirector (RFC 9700 4.11.2). Anyone can register a client
 * anonymously (RFC 7591) with an https redirect URI of their own site; a link to `/oauth/authorize` with a bad
 * parameter then sent the browser straight there from the sandbox's URL, before any sign-in, and so did a forged
 * cross-site form post of the consent form's "Deny".
 *
 * Now an error is redirected automatically only to a redirect URI that cannot take the browser to another web site
 * (loopback http, a native app's private-use scheme), or after the user pressed a button on the sandbox's own page.
 * Otherwise the sandbox shows the error on its own page, with a link back to the application the user may follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDemoUser, type DemoUser } from '../src/oauth/users.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';
import { authorizationUrl, driveConsent, pkce, registerTestClient } from './public-api-helpers.ts';

let t: TestSandbox;
let user: DemoUser;
beforeAll(async () => {
  t = await startTestSandbox();
  user = readDemoUser(t.dataDir);
});
afterAll(() => t?.stop());

const ATTACKER = 'https://attacker.example/landing';

/** The href of the page's link back to the application, decoded. */
function returnLink(html: string): URL | undefined {
  const match =
    /<a [^>]*data-testid="authorize-error-return"[^>]*href="([^"]+)"|<a [^>]*href="([^"]+)"[^>]*data-testid="authorize-error-return"/.exec(
      html,
    );
  const href = match?.[1] ?? match?.[2];
  return href === undefined ? undefined : new URL(href.replaceAll('&amp;', '&'));
}

describe('an error before any sign-in, for a client with an https redirect URI', () => {
  it.each([
    ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
    ['a missing PKCE challenge', { code_challenge: undefined }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a foreign resource', { resource: 'https://other.example' }, 'invalid_target'],
  ])('%s is shown on the sandbox’s page, not redirected to the client', async (_name, params, error) => {
    const client = await registerTestClient(t, { redirectUri: ATTACKER, name: 'Totally legit app' });
    const url = authorizationUrl(t, client, { code_challenge: pkce().challenge, state: 'st-1', ...params });
    for (const [k, v] of Object.entries(params)) if (v === undefined) url.searchParams.delete(k);
    const res = await fetch(url, { redirect: 'manual' });
    const html = await res.text();

    expect(res.headers.get('location')).toBeNull();
    expect(res.status).toBe(400);
    expect(html).toContain('data-testid="authorize-error"');
    // The user may still go back, by following a link that names where it leads.
    const back = returnLink(html);
    expect(back?.origin + back!.pathname).toBe(ATTACKER);
    expect(back!.searchParams.get('error')).toBe(error);
    expect(back!.searchParams.get('state')).toBe('st-1');
    expect(back!.searchParams.get('iss')).toBe(t.sandbox.url);
    expect(html).toContain('attacker.example');
  });
});

describe('the consent form', () => {
  it('a forged cross-site post of "Deny" is not redirected to the client', async () => {
    const client = await registerTestClient(t, { redirectUri: ATTACKER });
    const fields = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: ATTACKER,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      state: 'st-2',
      decision: 'deny',
    });
    for (const headers of [
      { origin: 'https://attacker.example' },
      { origin: 'null' },
      { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
    ]) {
      const res = await fetch(`${t.sandbox.url}/oauth/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: fields.toString(),
        redirect: 'manual',
      });
      expect(res.headers.get('location'), JSON.stringify(headers)).toBeNull();
      const back = returnLink(await res.text());
      expect(back?.searchParams.get('error')).toBe('access_denied');
    }
  });

  it('"Deny" pressed on the sandbox’s own page goes back to the client with access_denied', async () => {
    const client = await registerTestClient(t, { redirectUri: ATTACKER });
    const page = await fetch(authorizationUrl(t, client, { code_challenge: pkce().challenge, state: 'st-3' }));
    expect(page.status).toBe(200);
    const res = await fetch(`${t.sandbox.url}/oauth/authorize`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: t.sandbox.url,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: ATTACKER,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        state: 'st-3',
        decision: 'deny',
      }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
  });

  it('a signed-in allow still answers the code to an https redirect URI', async () => {
    const client = await registerTestClient(t, { redirectUri: ATTACKER });
    const outcome = await driveConsent(
      authorizationUrl(t, client, { code_challenge: pkce().challenge, state: 'st-4' }),
      user,
    );
    expect(outcome.status).toBe(303);
    expect(outcome.location!.origin + outcome.location!.pathname).toBe(ATTACKER);
    expect(outcome.location!.searchParams.get('code')).toMatch(/^dkc_/);
  });
});

describe('redirect URIs that cannot lead to another web site', () => {
  it.each([
    ['a loopback http URI (a native app on this machine)', 'http://127.0.0.1:9/callback'],
    ['a private-use scheme (a native app)', 'com.example.app:/oauth/callback'],
  ])('%s still gets the error by redirect', async (_name, redirectUri) => {
    const client = await registerTestClient(t, { redirectUri });
    const res = await fetch(authorizationUrl(t, client, { code_challenge: pkce().challenge, scope: 'admin' }), {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });
});
