/**
 * Authentication over HTTP (Partner API spec 5.1, 7): each auth error code produced by a request built to cause it, with the
 * status decided for it; nonces; scopes; LIVE approval; the admin API guard.
 */
import { randomUUID } from 'node:crypto';
import { canonicalString, hmacHex, NONCE_TTL_SECONDS, sha256Hex } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCreateCredential,
  PartnerTestClient,
  send,
  startTestSandbox,
  type Answer,
  type TestSandbox,
} from './helpers.ts';

const SEARCH = '/api/partner/v1/domains/search';

let t: TestSandbox;
let client: PartnerTestClient;

beforeAll(async () => {
  t = await startTestSandbox();
  client = new PartnerTestClient(t.sandbox, t.sandbox.demo, t.clock.now);
});
afterAll(() => t?.stop());

/** Builds the four signing headers by hand, so a test can get one part wrong on purpose. */
async function manualHeaders(input: {
  keyId?: string;
  secret: string;
  method: string;
  signedPath: string;
  signedQuery?: string;
  body?: string;
  timestamp?: string;
  nonce?: string;
}) {
  const timestamp = input.timestamp ?? String(Math.floor(t.clock.now() / 1000));
  const nonce = input.nonce ?? randomUUID();
  const canonical = await canonicalString({
    method: input.method,
    path: input.signedPath,
    query: input.signedQuery ?? '',
    timestamp,
    nonce,
    bodySha256: await sha256Hex(input.body ?? ''),
  });
  // canonicalString canonicalises the query; for "wrong order" tests the caller passes the line it wants.
  return {
    'X-Service-Key-Id': input.keyId ?? t.sandbox.demo.key_id,
    'X-Service-Timestamp': timestamp,
    'X-Service-Nonce': nonce,
    'X-Service-Signature': `v1=${await hmacHex(input.secret, canonical)}`,
  };
}

function expectError(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.json?.error?.code }).toEqual({ status, code });
  expect(typeof answer.json.error.message).toBe('string');
  expect(answer.json.error.message.length).toBeGreaterThan(10);
  expect(answer.json.error.request_id).toMatch(/^req_/);
  expect(answer.headers.get('x-request-id')).toBe(answer.json.error.request_id);
  expect(answer.text).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
}

describe('a correctly signed request', () => {
  it('is answered 200', async () => {
    const answer = await client.request({ path: SEARCH, query: { q: 'coffee' } });
    expect(answer.status).toBe(200);
    expect(answer.json.domains.length).toBeGreaterThan(0);
  });

  it('is accepted with a query whose encoding needs care (space, plus, reserved characters)', async () => {
    const answer = await client.request({ path: SEARCH, query: { q: "green tea+!'()*" } });
    expect(answer.status).toBe(200);
    expect(answer.sent.query).toBe('q=green%20tea%2B%21%27%28%29%2A');
  });
});

describe('missing_credentials and missing_signature_headers', () => {
  it('answers 401 missing_credentials without a key id header', async () => {
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee' }), 401, 'missing_credentials');
  });

  it('answers 401 missing_credentials when only the key id is absent', async () => {
    const { 'X-Service-Key-Id': _omit, ...rest } = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers: rest }), 401, 'missing_credentials');
  });

  for (const missing of ['X-Service-Timestamp', 'X-Service-Nonce', 'X-Service-Signature'] as const) {
    it(`answers 401 missing_signature_headers without ${missing}`, async () => {
      const headers: Record<string, string> = await manualHeaders({
        secret: t.sandbox.demo.secret,
        method: 'GET',
        signedPath: SEARCH,
        signedQuery: 'q=coffee',
      });
      delete headers[missing];
      const answer = await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers });
      expectError(answer, 401, 'missing_signature_headers');
      expect(answer.json.error.message).toContain(missing);
    });
  }
});

describe('invalid_timestamp', () => {
  it('answers 401 for a timestamp 301 s behind server time', async () => {
    const timestamp = String(Math.floor(t.clock.now() / 1000) - 301);
    const headers = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
      timestamp,
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_timestamp');
  });

  it('answers 401 for a timestamp 301 s ahead of server time', async () => {
    const timestamp = String(Math.floor(t.clock.now() / 1000) + 301);
    const headers = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
      timestamp,
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_timestamp');
  });

  it('accepts a timestamp 299 s behind (inside the ±300 s window)', async () => {
    const timestamp = String(Math.floor(t.clock.now() / 1000) - 299);
    const headers = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
      timestamp,
    });
    expect((await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers })).status).toBe(200);
  });

  it('answers 401 for a timestamp in milliseconds, saying so', async () => {
    const timestamp = String(t.clock.now());
    const headers = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
      timestamp,
    });
    const answer = await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers });
    expectError(answer, 401, 'invalid_timestamp');
    expect(answer.json.error.message).toMatch(/milliseconds/);
  });

  it('answers 401 for a malformed timestamp', async () => {
    const headers = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
      timestamp: '2024-01-01T00:00:00Z',
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_timestamp');
  });
});

describe('invalid_signature', () => {
  const secret = () => t.sandbox.demo.secret;

  it('answers 401 for an unknown key id, saying the key id is unknown', async () => {
    const headers = await manualHeaders({
      keyId: 'pk_test_doesnotexist000000000000',
      secret: secret(),
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
    });
    const answer = await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers });
    expectError(answer, 401, 'invalid_signature');
    expect(answer.json.error.message).toMatch(/key id .*unknown/i);
  });

  it('answers 401 when signed with the wrong secret', async () => {
    const headers = await manualHeaders({
      secret: 'sk_test_notthesecret',
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_signature');
  });

  it('answers 401 when signed with the key id as the secret', async () => {
    const headers = await manualHeaders({
      secret: t.sandbox.demo.key_id,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_signature');
  });

  it('answers 401 when the body changed after signing (re-serialised JSON)', async () => {
    const path = '/api/partner/v1/checkout-session';
    const signedBody = '{"domain": "coffee.com"}';
    const sentBody = '{"domain":"coffee.com"}';
    const headers = {
      ...(await manualHeaders({ secret: secret(), method: 'POST', signedPath: path, body: signedBody })),
      'content-type': 'application/json',
    };
    expectError(await send(t.sandbox, { method: 'POST', path, headers, body: sentBody }), 401, 'invalid_signature');
  });

  it('answers 401 when a shortened path was signed', async () => {
    const headers = await manualHeaders({
      secret: secret(),
      method: 'GET',
      signedPath: '/domains/search',
      signedQuery: 'q=coffee',
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_signature');
  });

  it('answers 401 when the query was signed in the order sent instead of canonical order', async () => {
    const timestamp = String(Math.floor(t.clock.now() / 1000));
    const nonce = randomUUID();
    // The canonical query of "q=tea&a=1" is "a=1&q=tea"; this client signed the unsorted line.
    const wrongLine = ['GET', SEARCH, 'q=tea&a=1', timestamp, nonce, await sha256Hex('')].join('\n');
    const headers = {
      'X-Service-Key-Id': t.sandbox.demo.key_id,
      'X-Service-Timestamp': timestamp,
      'X-Service-Nonce': nonce,
      'X-Service-Signature': `v1=${await hmacHex(secret(), wrongLine)}`,
    };
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=tea&a=1', headers }), 401, 'invalid_signature');
    // Control: the same request signed over the canonical query passes authentication (and then fails validation
    // on the unknown parameter `a`, which proves the signature was accepted).
    const good = await manualHeaders({ secret: secret(), method: 'GET', signedPath: SEARCH, signedQuery: 'q=tea&a=1' });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=tea&a=1', headers: good }), 400, 'validation_error');
  });

  it('answers 401 for a signature without the v1= prefix', async () => {
    const headers = await manualHeaders({
      secret: secret(),
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
    });
    headers['X-Service-Signature'] = headers['X-Service-Signature'].slice(3);
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_signature');
  });

  it('answers 401 when the method differs from the one signed', async () => {
    const headers = await manualHeaders({
      secret: secret(),
      method: 'POST',
      signedPath: SEARCH,
      signedQuery: 'q=coffee',
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=coffee', headers }), 401, 'invalid_signature');
  });
});

describe('replay_detected and nonces', () => {
  it('answers 401 replay_detected when the same signed request is sent twice', async () => {
    const first = await client.request({ path: SEARCH, query: { q: 'river' } });
    expect(first.status).toBe(200);
    const replay = await send(t.sandbox, { path: SEARCH, query: first.sent.query, headers: first.sent.headers });
    expectError(replay, 401, 'replay_detected');
  });

  it('detects a reused nonce on a different request of the same credential', async () => {
    const nonce = randomUUID();
    const first = await send(t.sandbox, {
      path: SEARCH,
      query: 'q=lake',
      headers: await manualHeaders({
        secret: t.sandbox.demo.secret,
        method: 'GET',
        signedPath: SEARCH,
        signedQuery: 'q=lake',
        nonce,
      }),
    });
    expect(first.status).toBe(200);
    const second = await send(t.sandbox, {
      path: SEARCH,
      query: 'q=ocean',
      headers: await manualHeaders({
        secret: t.sandbox.demo.secret,
        method: 'GET',
        signedPath: SEARCH,
        signedQuery: 'q=ocean',
        nonce,
      }),
    });
    expectError(second, 401, 'replay_detected');
  });

  it('does not consume the nonce of a failed attempt', async () => {
    const nonce = randomUUID();
    const bad = await manualHeaders({
      secret: 'sk_test_wrong',
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=forest',
      nonce,
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=forest', headers: bad }), 401, 'invalid_signature');
    const stale = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=forest',
      nonce,
      timestamp: String(Math.floor(t.clock.now() / 1000) - 400),
    });
    expectError(await send(t.sandbox, { path: SEARCH, query: 'q=forest', headers: stale }), 401, 'invalid_timestamp');
    const good = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=forest',
      nonce,
    });
    expect((await send(t.sandbox, { path: SEARCH, query: 'q=forest', headers: good })).status).toBe(200);
  });

  it('keeps tracking a nonce for the whole window in which its timestamp is valid', async () => {
    // Signed at the far edge of the window (+300 s), then replayed just before that timestamp goes stale.
    const ts = Math.floor(t.clock.now() / 1000) + 300;
    const headers = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=stone',
      timestamp: String(ts),
    });
    expect((await send(t.sandbox, { path: SEARCH, query: 'q=stone', headers })).status).toBe(200);
    t.clock.advance(599); // server time is now ts + 299: the timestamp is still accepted
    try {
      expectError(await send(t.sandbox, { path: SEARCH, query: 'q=stone', headers }), 401, 'replay_detected');
    } finally {
      t.clock.advance(-599);
    }
  });

  it('sweeps nonces once their tracking period is over', async () => {
    const first = await client.request({ path: SEARCH, query: { q: 'meadow' } });
    expect(first.status).toBe(200);
    const tracked = () =>
      t.sandbox.db
        .selectFrom('nonces')
        .select('nonce')
        .where('nonce', '=', first.sent.headers['X-Service-Nonce']!)
        .execute();
    expect(await tracked()).toHaveLength(1);
    t.clock.advance(NONCE_TTL_SECONDS + 120);
    try {
      expect((await client.request({ path: SEARCH, query: { q: 'meadow' } })).status).toBe(200);
      expect(await tracked()).toHaveLength(0);
    } finally {
      t.clock.advance(-(NONCE_TTL_SECONDS + 120));
    }
  });

  it('tracks nonces per credential', async () => {
    const created = await adminCreateCredential(t.sandbox, { scopes: ['search'], environment: 'SANDBOX' });
    const other = created.json as { key_id: string; secret: string };
    const nonce = randomUUID();
    const mine = await manualHeaders({
      secret: t.sandbox.demo.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=cloud',
      nonce,
    });
    const theirs = await manualHeaders({
      keyId: other.key_id,
      secret: other.secret,
      method: 'GET',
      signedPath: SEARCH,
      signedQuery: 'q=cloud',
      nonce,
    });
    expect((await send(t.sandbox, { path: SEARCH, query: 'q=cloud', headers: mine })).status).toBe(200);
    expect((await send(t.sandbox, { path: SEARCH, query: 'q=cloud', headers: theirs })).status).toBe(200);
  });
});

describe('forbidden', () => {
  it('answers 403 forbidden naming the missing scope', async () => {
    const created = await adminCreateCredential(t.sandbox, { scopes: ['search'], environment: 'SANDBOX' });
    expect(created.status).toBe(201);
    const searchOnly = new PartnerTestClient(t.sandbox, created.json, t.clock.now);
    expect((await searchOnly.request({ path: SEARCH, query: { q: 'coffee' } })).status).toBe(200);
    const answer = await searchOnly.request({
      method: 'POST',
      path: '/api/partner/v1/checkout-session',
      json: { domain: 'coffee.com' },
    });
    expectError(answer, 403, 'forbidden');
    expect(answer.json.error.message).toContain('"embed"');
  });

  it('answers 403 forbidden for a credential without the search scope on discovery', async () => {
    const created = await adminCreateCredential(t.sandbox, { scopes: ['embed'], environment: 'SANDBOX' });
    const embedOnly = new PartnerTestClient(t.sandbox, created.json, t.clock.now);
    const answer = await embedOnly.request({ path: SEARCH, query: { q: 'coffee' } });
    expectError(answer, 403, 'forbidden');
    expect(answer.json.error.message).toContain('"search"');
  });

  it('answers 403 forbidden for a LIVE credential awaiting approval, and serves the LIVE inventory once approved', async () => {
    const created = await adminCreateCredential(t.sandbox, { scopes: ['search', 'embed'], environment: 'LIVE' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ environment: 'LIVE', approved: false, scopes: ['search', 'embed'] });
    expect(created.json.key_id).toMatch(/^pk_live_/);
    expect(created.json.secret).toMatch(/^sk_live_/);
    const live = new PartnerTestClient(t.sandbox, created.json, t.clock.now);
    const refused = await live.request({ path: SEARCH, query: { q: 'coffee' } });
    expectError(refused, 403, 'forbidden');
    expect(refused.json.error.message).toMatch(/awaits approval/);

    const approved = await send(t.sandbox, {
      method: 'POST',
      path: `/admin/credentials/${created.json.key_id}/approve`,
      headers: { authorization: `Bearer ${t.sandbox.demo.admin_token}` },
    });
    expect(approved.status).toBe(200);
    expect(approved.json.approved).toBe(true);
    expect(approved.text).not.toContain(created.json.secret);

    // The LIVE inventory is a separate one: a name listed for SANDBOX is unknown to LIVE and vice versa.
    const sandboxHit = (await client.request({ path: SEARCH, query: { q: 'coffee' } })).json.domains[0]
      .domain as string;
    const liveDetail = await live.request({ path: `/api/partner/v1/domains/${sandboxHit}` });
    const sandboxDetail = await client.request({ path: `/api/partner/v1/domains/${sandboxHit}` });
    expect(sandboxDetail.status).toBe(200);
    expect(liveDetail.status).toBe(404);
  });
});

describe('other requests under the Partner API', () => {
  it('answers 404 not_found as JSON for an unknown route (after authentication)', async () => {
    const answer = await client.request({ path: '/api/partner/v1/no-such-route' });
    expectError(answer, 404, 'not_found');
    expectError(await send(t.sandbox, { path: '/api/partner/v1/no-such-route' }), 401, 'missing_credentials');
  });

  it('authenticates the unversioned webhooks path too', async () => {
    expectError(
      await send(t.sandbox, { method: 'PUT', path: '/api/partner/webhooks', body: '{}' }),
      401,
      'missing_credentials',
    );
  });

  it('answers 400 validation_error for a malformed JSON body', async () => {
    const answer = await client.request({
      method: 'POST',
      path: '/api/partner/v1/checkout-session',
      body: '{"domain": "coffee.com"',
    });
    expectError(answer, 400, 'validation_error');
    expect(answer.json.error.message).toMatch(/JSON/);
  });

  it('answers 400 validation_error for a body that is not JSON', async () => {
    const answer = await client.request({
      method: 'POST',
      path: '/api/partner/v1/checkout-session',
      body: 'domain=coffee.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(answer, 400, 'validation_error');
  });

  it('answers 413 validation_error (not 500) for an oversized body', async () => {
    const answer = await client.request({
      method: 'POST',
      path: '/api/partner/v1/checkout-session',
      json: { domain: 'coffee.com', padding: 'x'.repeat(200_000) },
    });
    expectError(answer, 413, 'validation_error');
  });
});

describe('admin API', () => {
  it('answers 401 without the admin token', async () => {
    const answer = await send(t.sandbox, {
      method: 'POST',
      path: '/admin/credentials',
      headers: { 'content-type': 'application/json' },
      body: '{"scopes":["search"],"environment":"SANDBOX"}',
    });
    expectError(answer, 401, 'unauthorized');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 401 with a wrong admin token, and never for the demo API secret used as a token', async () => {
    for (const token of ['nope', t.sandbox.demo.secret, `${t.sandbox.demo.admin_token}x`]) {
      const answer = await send(t.sandbox, {
        method: 'POST',
        path: '/admin/credentials',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"scopes":["search"],"environment":"SANDBOX"}',
      });
      expectError(answer, 401, 'unauthorized');
    }
  });

  it('creates a SANDBOX credential with the chosen scopes, approved, and an affiliate when asked', async () => {
    const answer = await adminCreateCredential(t.sandbox, {
      scopes: ['webhook', 'search', 'search'],
      environment: 'SANDBOX',
      affiliate: true,
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ environment: 'SANDBOX', scopes: ['search', 'webhook'], approved: true });
    expect(answer.json.key_id).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
    expect(answer.json.secret).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(answer.json.affiliate_id).toMatch(/^aff_/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 400 validation_error for an unknown scope or environment', async () => {
    expectError(
      await adminCreateCredential(t.sandbox, { scopes: ['admin'], environment: 'SANDBOX' }),
      400,
      'validation_error',
    );
    expectError(
      await adminCreateCredential(t.sandbox, { scopes: ['search'], environment: 'PROD' as 'LIVE' }),
      400,
      'validation_error',
    );
  });
});
