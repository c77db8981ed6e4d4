/**
 * Regression of "the Partner API OpenAPI document says 'any 2xx acknowledges' a webhook, and fields and headers of
 * real answers are declared nowhere" (so a generated client types them `unknown`): the document the sandbox serves
 * says only 200 acknowledges a delivery (Partner API spec 6) and declares the delivery headers, and the answers a
 * partner meets (a `price_mismatch` with the new price, a 429 with `retry_after`, a replayed order, an order's
 * settlement fields) pass the closed answer check: no field or header of the API undeclared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import {
  newPartner,
  partnerAnswers,
  send,
  startTestSandbox,
  type PartnerTestClient,
  type TestSandbox,
} from './helpers.ts';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';

const V1 = '/api/partner/v1';
const [first, second] = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(100);
let t: TestSandbox;
let client: PartnerTestClient;
// biome-ignore lint/suspicious/noExplicitAny: the served JSON document, read by path
let document: any;

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
  ({ client } = await newPartner(t.sandbox, t.clock));
  document = (await send(t.sandbox, { path: '/api/partner/openapi.json' })).json;
});
afterAll(() => t?.stop());

describe('the webhooks of the served document', () => {
  it('say only 200 acknowledges a delivery, never any 2xx', () => {
    expect(JSON.stringify(document.webhooks)).not.toMatch(/any 2xx/i);
    for (const webhook of Object.values(document.webhooks) as Array<{ post: { description: string } }>) {
      expect(webhook.post.description).toMatch(/only 200 acknowledges/);
    }
  });

  it('declare the event id and delivery attempt headers every delivery carries', () => {
    const names = document.webhooks['order.recorded'].post.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['X-Service-Signature', 'X-Service-Event-Id', 'X-Service-Delivery-Attempt']),
    );
  });
});

describe('the answers a partner meets', () => {
  it('a price_mismatch with the new price, an order and its replay, and a list of orders are all declared', async () => {
    const body = { domain: first!.name, expected_price: first!.price_cents - 100, currency: 'USD' };
    const mismatch = await client.request({
      method: 'POST',
      path: `${V1}/orders`,
      headers: { 'Idempotency-Key': 'declared-1' },
      json: body,
    });
    expect([mismatch.status, mismatch.json.error.code]).toEqual([422, 'price_mismatch']);
    expect(mismatch.json.error.price_cents).toBe(first!.price_cents);
    const buy = { domain: second!.name, expected_price: second!.price_cents, currency: 'USD' };
    const send2 = () =>
      client.request({ method: 'POST', path: `${V1}/orders`, headers: { 'Idempotency-Key': 'declared-2' }, json: buy });
    expect((await send2()).status).toBe(201);
    const replay = await send2();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await client.request({ path: `${V1}/orders` })).status).toBe(200);
    expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThanOrEqual(4);
  });

  it('a 429 rate_limited with retry_after is declared', async () => {
    let last = await client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: 'no-such-1.com' } });
    for (let i = 0; i < 40 && last.status !== 429; i++)
      last = await client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: 'no-such-1.com' } });
    expect(last.status).toBe(429);
    expect(last.json.error.retry_after).toBeGreaterThan(0);
    expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
  });
});

describe('the answer check', () => {
  const order = { public_id: 'ord_1', domain: 'a.com', status: 'SETTLED', sale_price_cents: 1, currency: 'USD' };
  it('refuses a field the document does not declare', () => {
    expect(() =>
      expectAnswersMatchPartnerApiDocument([
        { method: 'GET', path: `${V1}/orders/ord_1`, status: 200, json: { ...order, surprise: 1 } },
      ]),
    ).toThrow(/undeclared field surprise/);
  });

  it('refuses a header of the API the document does not declare, and leaves HTTP headers alone', () => {
    const answer = { method: 'GET', path: `${V1}/orders/ord_1`, status: 200, json: order };
    expect(() =>
      expectAnswersMatchPartnerApiDocument([{ ...answer, headers: { 'x-surprise': '1', 'content-type': 'a/b' } }]),
    ).toThrow(/header x-surprise is not declared/);
    expect(
      expectAnswersMatchPartnerApiDocument([
        { ...answer, headers: { 'x-request-id': 'req_1', 'content-type': 'a/b' } },
      ]),
    ).toBe(1);
  });
});
