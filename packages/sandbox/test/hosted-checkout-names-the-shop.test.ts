/**
 * The hosted checkout names the partner's shop (issue 23, defect 7): the back office sets a credential's
 * `display_name` (`POST /admin/credentials`, `PATCH /admin/credentials/{key_id}`), the page heads with it and its
 * links say where they go; without one, the return URL's host names the shop. Bad input is a clear 400, an unknown
 * id a 404; `GET /admin/checkout-sessions/{id}` reads a checkout and its sale (with the buyer's e-mail).
 */
import { checkoutSessionSchema } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInventory, TEST_CARDS } from '../src/index.ts';
import { admin, PartnerTestClient, pay, send, startTestSandbox, type TestSandbox, tokenOf } from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
const pool = generateInventory({ environment: 'SANDBOX' }).filter((d) => d.words.length === 2);
let next = 40;

beforeAll(async () => {
  t = await startTestSandbox();
  client = new PartnerTestClient(t.sandbox, t.sandbox.demo, t.clock.now);
});
afterAll(() => t?.stop());

/** A checkout session for a fresh domain, returning to `https://shop.example/…`; its `pt` token and id. */
async function openSession(): Promise<{ pt: string; id: string }> {
  const answer = await client.request({
    method: 'POST',
    path: `${V1}/checkout-session`,
    json: {
      domain: pool[next++]!.name,
      return_url: 'https://shop.example/thanks',
      cancel_url: 'https://shop.example/cart',
    },
  });
  expect(answer.status).toBe(201);
  const pt = tokenOf(checkoutSessionSchema.parse(answer.json).checkout_url);
  const sid = JSON.parse(Buffer.from(pt.split('.')[0]!, 'base64url').toString('utf8')).sid as string;
  return { pt, id: sid };
}

/** The text of the element with `data-testid=id`, tags removed. */
const testId = (html: string, id: string) =>
  new RegExp(`data-testid="${id}"[^>]*>(.*?)</`, 's').exec(html)?.[1]?.replace(/<[^>]+>/g, '');

describe('the shop the hosted checkout names', () => {
  it("is the return URL's host until the back office names it, then that name", async () => {
    const before = await openSession();
    const page = await send(t.sandbox, { path: '/checkout', query: `pt=${before.pt}` });
    expect(testId(page.text, 'lander-shop')).toBe('shop.example');

    const named = await admin(t.sandbox, 'PATCH', `/credentials/${t.sandbox.demo.key_id}`, {
      display_name: '  Acme Domains ',
    });
    expect([named.status, named.json.display_name]).toEqual([200, 'Acme Domains']);
    const again = await send(t.sandbox, { path: '/checkout', query: `pt=${before.pt}` });
    expect(testId(again.text, 'lander-shop')).toBe('Acme Domains');
    expect(again.text).toContain('>Cancel and return to <bdi>Acme Domains</bdi></a>');
  });

  it('refuses a name that is empty or too long, or an unknown credential, with what to fix', async () => {
    for (const display_name of ['', '   ', 'x'.repeat(61), 42]) {
      const answer = await admin(t.sandbox, 'PATCH', `/credentials/${t.sandbox.demo.key_id}`, { display_name });
      expect([answer.status, answer.json.error.code], JSON.stringify(display_name)).toEqual([400, 'validation_error']);
    }
    const unknown = await admin(t.sandbox, 'PATCH', '/credentials/pk_test_nope', { display_name: 'Shop' });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'not_found']);
    const created = await admin(t.sandbox, 'POST', '/credentials', {
      scopes: ['embed'],
      environment: 'SANDBOX',
      display_name: 'Nimbus Names',
    });
    expect([created.status, created.json.display_name]).toEqual([201, 'Nimbus Names']);
  });
});

describe('GET /admin/checkout-sessions/{id}', () => {
  it('reads an open checkout (no sale), then its sale with the e-mail the buyer gave; 404 for an unknown id', async () => {
    const session = await openSession();
    const open = await admin(t.sandbox, 'GET', `/checkout-sessions/${session.id}`);
    expect([open.status, open.json.checkout_session.status, open.json.sale]).toEqual([200, 'open', null]);

    const paid = await pay(t.sandbox, { pt: session.pt, card_number: TEST_CARDS.succeeds, email: ' ada@example.com ' });
    expect(paid.status).toBe(303);
    const read = await admin(t.sandbox, 'GET', `/checkout-sessions/${session.id}`);
    expect([read.json.checkout_session.status, read.json.sale.buyer_email]).toEqual(['paid', 'ada@example.com']);

    const unknown = await admin(t.sandbox, 'GET', '/checkout-sessions/cs_unknown0000000000');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'not_found']);
  });

  it('a bad address is a form message, and nothing is sold', async () => {
    const session = await openSession();
    for (const email of ['', 'ada', 'ada@', '@example.com', `${'a'.repeat(250)}@example.com`]) {
      const answer = await pay(t.sandbox, { pt: session.pt, card_number: TEST_CARDS.succeeds, email });
      expect(answer.status, email).toBe(400);
      expect(answer.text).toMatch(
        /<li>Enter (your email address: your receipt goes there|a whole email address, like name@example\.com)\.<\/li>/,
      );
    }
    const read = await admin(t.sandbox, 'GET', `/checkout-sessions/${session.id}`);
    expect([read.json.checkout_session.status, read.json.sale]).toEqual(['open', null]);
  });
});
