/**
 * The brokerage consent page (mcp/consent.ts) as a person's browser gets it, whatever goes wrong: always an HTML page
 * in the person's language (the link's `lang`, else `Accept-Language`, else English), never the API's JSON; under
 * a policy that runs no script and allows its one stylesheet by hash; with what was typed kept and the wait named
 * when the marketplace is busy. The end-to-end walk of every state in Chromium is test/e2e's
 * mcp-consent-page-in-every-state.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_STRINGS } from '../src/mcp/consent-strings.ts';
import { CONSENT_CSS, formatMoney } from '../src/mcp/consent-view.ts';
import { ConsentTokens } from '../src/mcp/consent.ts';
import {
  SECRET,
  openTestDatabase,
  startStubMarketplace,
  startTestBff,
  type StubMarketplace,
  type TestBff,
  type TestDatabase,
} from './helpers.ts';

let stub: StubMarketplace;
let testDb: TestDatabase;
let bff: TestBff;
let own: string;

beforeAll(async () => {
  stub = await startStubMarketplace();
  testDb = await openTestDatabase('pglite');
  bff = await startTestBff(stub, { database: testDb.database, brokerage: true, mcp: { shopName: 'Test shop' } });
  own = new URL(bff.url).origin;
});
afterAll(async () => {
  await bff?.close();
  await testDb?.close();
  await stub?.close();
});

/** A consent link for `domain` signed as the shop signs it. */
async function link(domain: string, extra = ''): Promise<{ url: string; token: string }> {
  const { token } = await new ConsentTokens(SECRET, Date.now).sign(domain, 50_000);
  return { url: `${bff.url}/mcp/consent?t=${token}${extra}`, token };
}

/** Sends the consent form as the page's own browser would (same origin). */
function send(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: own, ...headers },
    body: new URLSearchParams(form),
  });
}

/** The page's `<html lang dir>`. */
const rootOf = (html: string) => /<html lang="([a-z]+)" dir="(ltr|rtl)">/.exec(html)?.slice(1);

describe('the consent page', () => {
  it("speaks the link's lang, else the browser's Accept-Language, else English", async () => {
    const { url } = await link('lang-test.com');
    const cases: Array<[string, Record<string, string>, string[]]> = [
      ['&lang=ar', { 'accept-language': 'fr-FR,fr;q=0.9' }, ['ar', 'rtl']],
      ['', { 'accept-language': 'de-DE, fr;q=0.5, en;q=0.1' }, ['fr', 'ltr']],
      ['', { 'accept-language': 'de-DE' }, ['en', 'ltr']],
      ['&lang=xx', {}, ['en', 'ltr']],
    ];
    for (const [extra, headers, root] of cases) {
      const answer = await fetch(`${url}${extra}`, { headers });
      const html = await answer.text();
      expect(rootOf(html), `${extra} ${JSON.stringify(headers)}`).toEqual(root);
      expect(answer.headers.get('content-language')).toBe(root[0]);
      expect(html).toContain(CONSENT_STRINGS[root[0] as 'en'].emailLabel);
    }
  });

  it('runs no script and allows only its own stylesheet, by hash', async () => {
    const answer = await fetch((await link('policy-test.com')).url);
    const html = await answer.text();
    const hash = createHash('sha256').update(CONSENT_CSS).digest('base64');
    const policy = answer.headers.get('content-security-policy')!;
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(html).toContain(`<style>${CONSENT_CSS}</style>`);
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });

  it('a form from another site is a page saying what to do (403), and opens nothing', async () => {
    const { url, token } = await link('cross-site.com');
    const answer = await send(
      `${url}&lang=fr`,
      { t: token, buyer_email: 'a@example.com', consent: 'true' },
      { origin: 'https://evil.example' },
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await answer.text()).toContain(CONSENT_STRINGS.fr.forbidden.replace(/'/g, '&#39;'));
    expect(stub.callsTo('brokerage-create')).toHaveLength(0);
  });

  it('the marketplace busy: the form again with the wait, what was typed kept (escaped)', async () => {
    const { url, token } = await link('busy-test.com');
    stub.enqueue('brokerage-eligibility', {
      status: 429,
      body: { error: { code: 'rate_limited', message: 'slow down' } },
      headers: { 'retry-after': '20' },
    });
    const typed = 'a"><script>@example.com';
    const answer = await send(url, { t: token, buyer_email: typed, consent: 'true' });
    const html = await answer.text();
    // The address cannot be used, so nothing went upstream yet: the form says so first.
    expect(answer.status).toBe(400);
    expect(html).toContain('value="a&quot;&gt;&lt;script&gt;@example.com"');
    expect(html).not.toContain('<script');

    const busy = await send(url, { t: token, buyer_email: 'person@example.com', consent: 'true' });
    const page = await busy.text();
    expect(busy.status).toBe(503);
    expect(busy.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page).toContain('Busy right now. Please try again in 20 seconds.');
    expect(page).toContain('value="person@example.com"');
    expect(page).toMatch(/id="consent"[^>]* checked/);
    expect(stub.callsTo('brokerage-create')).toHaveLength(0);
  });

  it('a body too large is the form again, not JSON (413)', async () => {
    const { url, token } = await link('large-test.com');
    const answer = await send(url, { t: token, buyer_email: 'x'.repeat(5000), consent: 'true' });
    expect(answer.status).toBe(413);
    const html = await answer.text();
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain(CONSENT_STRINGS.en.failed);
    expect(html).toContain('name="buyer_email"');
  });

  it('writes an amount as the widget does: in Arabic the currency stays whole ("US$", not "$US")', () => {
    expect(formatMoney(15_000, 'USD', 'en-US')).toBe('$150');
    expect(formatMoney(15_000, 'USD', 'ar')).toContain('\u2068US$\u2069');
  });
});
