/**
 * Checkout sessions and the hosted lander (Partner API spec 2.3, 4.1 "Non-MoR"): signed `pt` tokens (forged, malformed and
 * expired ones refused), the test cards, the sale attributed to the partner, and no double sale.
 */
import { checkoutSessionSchema, CHECKOUT_SESSION_TTL_SECONDS } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory, TEST_CARDS } from '../src/index.ts';
import {
  PartnerTestClient,
  pay,
  send,
  startTestSandbox,
  tokenOf,
  type TestSandbox,
  partnerAnswers,
  type Answer,
} from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
// Distinct domains per test, so tests never depend on each other's sales.
const pool = generateInventory({ environment: 'SANDBOX' }).filter((d) => d.words.length === 2);
let next = 0;
const freshDomain = () => pool[next++]!;

beforeAll(async () => {
  t = await startTestSandbox();
  client = new PartnerTestClient(t.sandbox, t.sandbox.demo, t.clock.now);
});
afterAll(() => t?.stop());

async function createSession(domain: string, extra: Record<string, string> = {}) {
  const answer = await client.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain, ...extra } });
  expect(answer.status).toBe(201);
  return checkoutSessionSchema.parse(answer.json);
}

async function availability(domain: string) {
  return (await client.request({ path: `${V1}/availability`, query: { domain } })).json as { available: boolean };
}

function testId(html: string, id: string): string | undefined {
  return new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/** Follows the lander's 303 (Post/Redirect/Get) to the page it names. */
async function receiptOf(answer: Answer): Promise<Answer> {
  const location = new URL(answer.headers.get('location')!, 'http://lander.test');
  return send(t.sandbox, { path: location.pathname, query: location.search.slice(1) });
}

describe('POST /checkout-session', () => {
  it('answers 201 with a lander URL carrying a pt token, the price and a 7-day expiry', async () => {
    const domain = freshDomain();
    const before = t.clock.now();
    const session = await createSession(domain.name, { return_url: 'https://partner.example/thanks' });
    expect(session.domain).toBe(domain.name);
    expect(session.price_cents).toBe(domain.price_cents);
    expect(session.currency).toBe('USD');
    expect(session.checkout_url.startsWith(`${t.sandbox.url}/checkout?pt=`)).toBe(true);
    const ttl = (Date.parse(session.expires_at) - before) / 1000;
    expect(Math.abs(ttl - CHECKOUT_SESSION_TTL_SECONDS)).toBeLessThan(60);
  });

  it('answers 404 not_found for an unlisted domain', async () => {
    const answer = await client.request({
      method: 'POST',
      path: `${V1}/checkout-session`,
      json: { domain: 'never-listed-here.com' },
    });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('answers 400 validation_error for a missing domain, a bad URL or an unknown field', async () => {
    for (const json of [{}, { domain: 'x.com', return_url: 'javascript:alert(1)' }, { domain: 'x.com', price: 1 }]) {
      const answer = await client.request({ method: 'POST', path: `${V1}/checkout-session`, json });
      expect({ status: answer.status, code: answer.json.error.code }).toEqual({
        status: 400,
        code: 'validation_error',
      });
    }
  });
});

describe('the hosted lander', () => {
  it('shows the domain and its price in dollars on a page with no script and a strict CSP', async () => {
    const domain = freshDomain();
    const session = await createSession(domain.name);
    const page = await send(t.sandbox, { path: '/checkout', query: `pt=${tokenOf(session.checkout_url)}` });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(testId(page.text, 'lander-domain')).toBe(domain.name);
    const dollars = `$${(domain.price_cents / 100).toLocaleString('en-US')}.00`;
    expect(testId(page.text, 'lander-price')).toBe(dollars);
    expect(page.text).toContain('name="card_number"');
    expect(page.text).toContain(`<button type="submit">Pay <bdi>${dollars}</bdi></button>`);
    expect(page.text).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const css = await send(t.sandbox, { path: '/checkout/lander.css' });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('rejects a forged token: altered payload, altered signature, or signed with another key', async () => {
    const session = await createSession(freshDomain().name);
    const token = tokenOf(session.checkout_url);
    const [payload, signature] = token.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sid: string; exp: number };
    const extended = Buffer.from(JSON.stringify({ ...decoded, exp: decoded.exp + 86_400 })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    for (const forged of [`${extended}.${signature}`, `${payload}.${flipped}`]) {
      const page = await send(t.sandbox, { path: '/checkout', query: `pt=${forged}` });
      expect(page.status).toBe(400);
      expect(testId(page.text, 'lander-error')).toMatch(/not valid/);
      expect(page.text).not.toContain('name="card_number"');
    }
    const payWithForged = await pay(t.sandbox, { pt: `${payload}.${flipped}`, card_number: TEST_CARDS.succeeds });
    expect(payWithForged.status).toBe(400);
    expect((await availability(session.domain)).available).toBe(true);
  });

  it('rejects a malformed or missing token with 400', async () => {
    for (const query of ['pt=not-a-token', 'pt=', '', 'pt=a.b&pt=c.d']) {
      const page = await send(t.sandbox, { path: '/checkout', query });
      expect(page.status).toBe(400);
      expect(testId(page.text, 'lander-error')).toBeTruthy();
    }
  });

  it('rejects an expired token with 410 (7 days later)', async () => {
    const session = await createSession(freshDomain().name);
    const pt = tokenOf(session.checkout_url);
    t.clock.advance(CHECKOUT_SESSION_TTL_SECONDS + 1);
    try {
      const page = await send(t.sandbox, { path: '/checkout', query: `pt=${pt}` });
      expect(page.status).toBe(410);
      expect(testId(page.text, 'lander-error')).toMatch(/expired/);
      const paid = await pay(t.sandbox, { pt, card_number: TEST_CARDS.succeeds });
      expect(paid.status).toBe(410);
    } finally {
      t.clock.advance(-(CHECKOUT_SESSION_TTL_SECONDS + 1));
    }
    expect((await availability(session.domain)).available).toBe(true);
  });

  describe("speaks the buyer's language (Accept-Language): English by default, French, Arabic right to left", () => {
    // One session for every language (sessions are writes, and the suite shares one write budget).
    let pt: string;
    beforeAll(async () => {
      pt = tokenOf((await createSession(freshDomain().name)).checkout_url);
    });
    const open = async (language: string | undefined) => {
      const headers = language === undefined ? undefined : { 'accept-language': language };
      return { pt, page: await send(t.sandbox, { path: '/checkout', query: `pt=${pt}`, headers }) };
    };

    it.each([
      [undefined, 'en', '', 'Pay', 'You are buying'],
      ['de-DE,de;q=0.9', 'en', '', 'Pay', 'You are buying'],
      ['fr-FR,fr;q=0.9,en;q=0.8', 'fr', '', 'Payer', 'Vous achetez'],
      ['ar-EG,ar;q=0.9', 'ar', ' dir="rtl"', 'ادفع', 'أنت تشتري'],
      ['de, en;q=0.4, ar;q=0.7', 'ar', ' dir="rtl"', 'ادفع', 'أنت تشتري'],
    ])('Accept-Language %s → %s', async (language, lang, dir, pay, eyebrow) => {
      const { page } = await open(language);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<html lang="${lang}"${dir}>`);
      expect(page.headers.get('content-language')).toBe(lang);
      expect(page.headers.get('vary')).toMatch(/Accept-Language/i);
      // Pay names the amount (Intl, in the page's language).
      expect(page.text).toMatch(new RegExp(`<button type="submit">${pay} <bdi>[^<]+</bdi></button>`));
      expect(page.text).toContain(`<p class="eyebrow">${eyebrow}</p>`);
      // Card numbers stay left to right in any language.
      expect(page.text).toContain('<code dir="ltr">4242 4242 4242 4242</code>');
    });

    it('words the price, a decline and form problems in French', async () => {
      const { pt, page } = await open('fr');
      expect(testId(page.text, 'lander-price')).toMatch(/^[\d\u202f ]+,00\u00a0\$US$/);
      const declined = await pay(t.sandbox, { pt, card_number: '4000 0000 0000 0002' }, { 'accept-language': 'fr' });
      expect(testId(declined.text, 'lander-declined')).toBe(
        'Votre carte a été refusée. Aucun paiement n’a été pris et ',
      );
      const invalid = await pay(t.sandbox, { pt, card_number: '12' }, { 'accept-language': 'fr' });
      expect(invalid.text).toContain('<li>Saisissez le numéro de carte\u202f: 12 à 19 chiffres.</li>');
    });

    it('words a broken link in Arabic', async () => {
      const broken = await send(t.sandbox, {
        path: '/checkout',
        query: 'pt=nope',
        headers: { 'accept-language': 'ar' },
      });
      expect(broken.status).toBe(400);
      expect(broken.text).toContain('<html lang="ar" dir="rtl">');
      expect(testId(broken.text, 'lander-error')).toBe('رابط الدفع هذا غير صالح');
    });
  });

  it('declines the declining test card, keeps the domain available, and lets the visitor retry', async () => {
    const session = await createSession(freshDomain().name);
    const pt = tokenOf(session.checkout_url);
    const declined = await pay(t.sandbox, { pt, card_number: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(testId(declined.text, 'lander-declined')).toMatch(/Your card was declined/);
    expect(declined.text).toContain('name="card_number"');
    expect((await availability(session.domain)).available).toBe(true);
    const retried = await pay(t.sandbox, { pt, card_number: '4242 4242 4242 4242' });
    expect(retried.status).toBe(303);
    expect(testId((await receiptOf(retried)).text, 'lander-success')).toBe('Payment received');
  });

  it('sells the domain with the succeeding test card: availability turns false, search shows it sold, the sale is attributed', async () => {
    const domain = freshDomain();
    const session = await createSession(domain.name, { return_url: 'https://partner.example/thanks?order=1' });
    const answer = await pay(t.sandbox, { pt: tokenOf(session.checkout_url), card_number: TEST_CARDS.succeeds });
    // Post/Redirect/Get: the receipt has its own URL.
    expect([answer.status, answer.headers.get('location')]).toEqual([
      303,
      `/checkout/receipt?pt=${tokenOf(session.checkout_url)}`,
    ]);
    const paid = await receiptOf(answer);
    expect(paid.status).toBe(200);
    expect(testId(paid.text, 'lander-success')).toBe('Payment received');
    // The receipt's one script is a file from the lander itself (its automatic return); nothing inline.
    expect(paid.headers.get('content-security-policy')).toMatch(/default-src 'none'.*;script-src 'self'$/);
    expect(paid.text).toContain('<script src="/checkout/receipt.js" defer></script>');
    expect(paid.text).not.toMatch(/<script>|\sstyle=|\son[a-z]+=/i);
    expect(testId(paid.text, 'lander-domain')).toBe(domain.name);
    // The partner's own query is kept; the signed result is added (docs/spec-decisions.md, "the return journey").
    expect(paid.text).toMatch(
      /href="https:\/\/partner\.example\/thanks\?order=1&amp;checkout_session_id=[^"&]+&amp;status=paid&amp;[^"]*&amp;sig=[0-9a-f]{64}"/,
    );

    expect(await availability(domain.name)).toEqual({
      domain: domain.name,
      available: false,
      price_cents: null,
      currency: null,
    });
    const found = (await client.request({ path: `${V1}/domains/search`, query: { q: domain.name } })).json.domains[0];
    expect(found).toMatchObject({ domain: domain.name, available: false });
    const detail = (await client.request({ path: `${V1}/domains/${domain.name}` })).json;
    expect(detail.status).toBe('sold');
    const pricing = await client.request({ path: `${V1}/pricing`, query: { domain: domain.name } });
    expect(pricing.status).toBe(404);

    const sales = await t.sandbox.db.selectFrom('sales').selectAll().where('domain', '=', domain.name).execute();
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({
      key_id: t.sandbox.demo.key_id,
      payment_model: 'non_mor',
      price_cents: domain.price_cents,
      environment: 'SANDBOX',
    });
    expect(sales[0]!.affiliate_id).toMatch(/^aff_/);
    expect(sales[0]!.buyer_email).toBe('buyer@example.com');

    const again = await send(t.sandbox, { path: '/checkout', query: `pt=${tokenOf(session.checkout_url)}` });
    expect(again.status).toBe(303);
    expect(testId((await receiptOf(again)).text, 'lander-success')).toBe('Payment received');
  });

  it('refuses to take a second payment for a paid session, and never sells a domain twice', async () => {
    const domain = freshDomain();
    const first = await createSession(domain.name);
    const second = await createSession(domain.name);
    expect((await pay(t.sandbox, { pt: tokenOf(first.checkout_url), card_number: TEST_CARDS.succeeds })).status).toBe(
      303,
    );

    // The form sent again (an old tab, a resubmission): the receipt, and no second charge.
    const doublePay = await pay(t.sandbox, { pt: tokenOf(first.checkout_url), card_number: TEST_CARDS.succeeds });
    expect(doublePay.status).toBe(303);
    expect(testId((await receiptOf(doublePay)).text, 'lander-success')).toBe('Payment received');

    const otherSession = await pay(t.sandbox, { pt: tokenOf(second.checkout_url), card_number: TEST_CARDS.succeeds });
    expect(otherSession.status).toBe(409);
    expect(testId(otherSession.text, 'lander-error')).toMatch(/no longer available/);
    const openOther = await send(t.sandbox, { path: '/checkout', query: `pt=${tokenOf(second.checkout_url)}` });
    expect(openOther.status).toBe(409);

    const newSession = await client.request({
      method: 'POST',
      path: `${V1}/checkout-session`,
      json: { domain: domain.name },
    });
    expect({ status: newSession.status, code: newSession.json.error.code }).toEqual({ status: 409, code: 'conflict' });
    expect(newSession.json.error.message).toMatch(/sold/);

    expect(
      await t.sandbox.db.selectFrom('sales').select('id').where('domain', '=', domain.name).execute(),
    ).toHaveLength(1);
  });

  it('sells once when two payments for one domain race', async () => {
    const domain = freshDomain();
    const sessions = await Promise.all([
      createSession(domain.name),
      createSession(domain.name),
      createSession(domain.name),
    ]);
    const results = await Promise.all(
      sessions.map((s) => pay(t.sandbox, { pt: tokenOf(s.checkout_url), card_number: TEST_CARDS.succeeds })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([303, 409, 409]);
    expect(
      await t.sandbox.db.selectFrom('sales').select('id').where('domain', '=', domain.name).execute(),
    ).toHaveLength(1);
  });

  it('re-shows the form with a message for an invalid card form or a card that is not a test card', async () => {
    const session = await createSession(freshDomain().name);
    const pt = tokenOf(session.checkout_url);
    const expired = await pay(t.sandbox, { pt, card_number: TEST_CARDS.succeeds, card_expiry: '01/20' });
    expect(expired.status).toBe(400);
    expect(/data-testid="lander-form-error">(.*?)<\/div>/.exec(expired.text)?.[1]).toMatch(/card has expired/);
    const notATestCard = await pay(t.sandbox, { pt, card_number: '5555 5555 5555 4444' });
    expect(notATestCard.status).toBe(400);
    expect(notATestCard.text).toContain('4242 4242 4242 4242');
    const empty = await pay(t.sandbox, { pt, card_number: '' });
    expect(empty.status).toBe(400);
    expect((await availability(session.domain)).available).toBe(true);
  });

  it('escapes what the visitor typed when the form is shown again', async () => {
    const session = await createSession(freshDomain().name);
    const answer = await pay(t.sandbox, {
      pt: tokenOf(session.checkout_url),
      card_number: '1',
      card_name: '<script>alert(1)</script>',
    });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toContain('<script>');
    expect(answer.text).toContain('&lt;script&gt;');
  });
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
