/**
 * Bulk operations on a signed-in user's own domains (Public API spec 4.2 `POST /api/domains/bulk/{op}`, at most 1,000,
 * Partner API spec 8): per-domain results, another user's domain refused per item, 1,001 domains → a clear 400, and the
 * operations' effects visible in WHOIS and `GET /api/domains`.
 */
import { BULK_MAX_DOMAINS } from '@domainkit/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxUser, readDemoUser, type DemoUser } from '../src/oauth/users.ts';
import { publicDb } from '../src/db/public-tables.ts';
import { startTestSandbox, type TestSandbox } from './helpers.ts';
import { call, checkRecordedAnswers, signIn } from './public-api-helpers.ts';

let t: TestSandbox;
let user: DemoUser;
let token: string;
let mine: string[];
let theirs: string[];
const other = { email: 'other@sandbox.test', password: 'another-sandbox-user-password' };

beforeAll(async () => {
  t = await startTestSandbox();
  user = readDemoUser(t.dataDir);
  const created = await createSandboxUser(publicDb(t.sandbox.db), { ...other, domains: 5 }, new Date(t.clock.now()));
  theirs = created.domains.map((d) => d.name);
  token = (await signIn(t, user, 'pricing:read domains:manage')).tokens.access_token;
});
afterAll(() => t?.stop());
beforeEach(() => t.clock.advance(60));

function bulk(op: string, body: unknown, as = token) {
  return call(t, { path: `/api/domains/bulk/${op}`, json: body, token: as });
}

async function whois(domain: string) {
  return (await call(t, { path: '/api/tools/whois', json: { domain } })).json;
}

describe('GET /api/domains', () => {
  it('lists the signed-in user\u2019s domains by name, page after page', async () => {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await call(t, { path: `/api/domains?limit=15${cursor ? `&cursor=${cursor}` : ''}`, token });
      expect(answer.status).toBe(200);
      names.push(...answer.json.domains.map((d: { domain: string }) => d.domain));
      cursor = answer.json.next_cursor;
    } while (cursor !== null);
    expect(names).toHaveLength(40);
    expect([...names].sort()).toEqual(names);
    expect(names.some((n) => theirs.includes(n))).toBe(false);
    mine = names;
  });
});

describe('POST /api/domains/bulk/{op}', () => {
  it('locks the user\u2019s own domains and refuses, per item, another user\u2019s, nobody\u2019s and malformed names', async () => {
    await bulk('unlock', { domains: mine.slice(0, 2) });
    const answer = await bulk('lock', {
      domains: [mine[0], theirs[0], 'not a domain', mine[1], 'nobody-owns-this-one.com'],
    });
    expect(answer.status).toBe(200);
    expect(answer.json.summary).toEqual({ requested: 5, succeeded: 2, failed: 3 });
    const [a, b, c, d, e] = answer.json.results;
    expect(a).toMatchObject({ domain: mine[0], ok: true, registration: { domain: mine[0], locked: true } });
    expect(b).toMatchObject({ domain: theirs[0], ok: false, error: { code: 'not_owned' } });
    expect(c).toMatchObject({ domain: 'not a domain', ok: false, error: { code: 'invalid_domain' } });
    expect(d).toMatchObject({ domain: mine[1], ok: true });
    expect(e).toMatchObject({ ok: false, error: { code: 'not_owned' } });
    expect((await whois(mine[0]!)).status).toContain('client transfer prohibited');
    const theirRow = await publicDb(t.sandbox.db)
      .selectFrom('sandbox_user_domains')
      .selectAll()
      .where('name', '=', theirs[0]!)
      .executeTakeFirstOrThrow();
    expect(theirRow.updated_at.getTime()).toBe(theirRow.registered_at.getTime());
  });

  it('unlocks, sets nameservers and switches auto-renew, visible in WHOIS', async () => {
    expect((await bulk('unlock', { domains: [mine[0]] })).json.results[0].registration.locked).toBe(false);
    expect((await whois(mine[0]!)).status).toEqual(['active']);
    const ns = await bulk('set_nameservers', {
      domains: mine.slice(0, 3),
      nameservers: ['NS1.Example.net', 'ns2.example.net'],
    });
    expect(ns.json.summary.succeeded).toBe(3);
    expect((await whois(mine[2]!)).nameservers).toEqual(['ns1.example.net', 'ns2.example.net']);
    const on = await bulk('enable_auto_renew', { domains: mine.slice(0, 3) });
    expect(on.json.results.every((r: { registration: { auto_renew: boolean } }) => r.registration.auto_renew)).toBe(
      true,
    );
  });

  it('renews by whole years at the TLD\u2019s renewal price, refusing a term past the TLD maximum per item', async () => {
    const before = (await call(t, { path: '/api/domains?limit=200', token })).json.domains.find(
      (d: { domain: string }) => d.domain === mine[4],
    );
    const answer = await bulk('renew', { domains: [mine[4]], years: 2 });
    const result = answer.json.results[0];
    expect(result.ok).toBe(true);
    const after = new Date(before.expires_at);
    after.setUTCFullYear(after.getUTCFullYear() + 2);
    expect(result.registration.expires_at).toBe(after.toISOString());
    const tld = mine[4]!.split('.')[1]!;
    const price = (await call(t, { path: `/api/pricing/tld?tld=${tld}&op=renew` })).json.price_cents;
    expect(result.charged_cents).toBe(price * 2);
    const tooLong = await bulk('renew', { domains: [mine[4], mine[5]], years: 10 });
    expect(tooLong.json.results.map((r: { error?: { code: string } }) => r.error?.code)).toEqual([
      'term_exceeded',
      'term_exceeded',
    ]);
  });

  it('refuses 1,001 domains with a clear 400, and answers 1,000 with one result each', async () => {
    const names = Array.from({ length: BULK_MAX_DOMAINS + 1 }, (_, i) => `bulk-name-${i}.com`);
    const tooMany = await bulk('lock', { domains: names });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.code).toBe('validation_error');
    expect(tooMany.json.error.message).toBe(
      'A bulk request holds at most 1,000 domains; this one has 1,001. Split the list into requests of 1,000.',
    );

    const thousand = [...mine, ...names.slice(0, BULK_MAX_DOMAINS - mine.length)];
    const answer = await bulk('lock', { domains: thousand });
    expect(answer.status).toBe(200);
    expect(answer.json.results).toHaveLength(1000);
    expect(answer.json.results.map((r: { domain: string }) => r.domain)).toEqual(thousand);
    expect(answer.json.summary).toEqual({ requested: 1000, succeeded: 40, failed: 960 });
  });

  it.each([
    ['lock', {}, /domains is required/],
    ['lock', { domains: [] }, /at least one domain/],
    ['lock', { domains: ['a.com', 'A.com'] }, /must not repeat a name: a\.com/],
    ['lock', { domains: ['a.com'], years: 1 }, /years applies to renew only/],
    ['set_nameservers', { domains: ['a.com'] }, /needs nameservers/],
    ['set_nameservers', { domains: ['a.com'], nameservers: ['ns1.example.net'] }, /at least 2 nameservers/],
    ['renew', { domains: ['a.com'], years: 11 }, /years must be at most 10/],
    ['transfer_away', { domains: ['a.com'] }, /Unknown bulk operation "transfer_away": use one of lock, unlock, renew/],
  ])('refuses %s %j with a 400', async (op, body, message) => {
    const answer = await bulk(op, body);
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(message);
  });

  it('needs the domains:manage scope (403 insufficient_scope), and acts only on the caller\u2019s own domains', async () => {
    const pricingOnly = (await signIn(t, user, 'pricing:read')).tokens.access_token;
    const refused = await bulk('lock', { domains: [mine[0]] }, pricingOnly);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('insufficient_scope');
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="domains:manage"/);

    const otherToken = (await signIn(t, other, 'domains:manage')).tokens.access_token;
    const answer = await bulk('unlock', { domains: [mine[0], theirs[1]] }, otherToken);
    expect(answer.json.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, true]);
    expect(answer.json.results[0].error.code).toBe('not_owned');
  });

  it('answers every call of this file as openapi.json documents it', async () => {
    const { problems, checked } = await checkRecordedAnswers(t);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
