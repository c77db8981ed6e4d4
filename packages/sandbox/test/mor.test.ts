/**
 * MoR quotes and orders over HTTP (Partner API spec 2.1, 2.2, 3, 4.1): quotes reserve a domain for the credential, both field
 * sets of `POST /orders`, price checks, order reads (own orders only, filters, cursor pages), the state machine's
 * refusals, refunds only before `TRANSFER_COMPLETED`, and scopes.
 */
import { orderListSchema, orderSchema, quoteSchema, QUOTE_TTL_SECONDS } from '@domainkit/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory } from '../src/index.ts';
import { admin, newPartner, PartnerTestClient, startTestSandbox, type TestSandbox, partnerAnswers } from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
let other: PartnerTestClient;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(1400);
let next = 0;
const fresh = () => pool[next++]!;
let keySeq = 0;

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
  client = (await newPartner(t.sandbox, t.clock)).client;
  other = (await newPartner(t.sandbox, t.clock)).client;
});
afterAll(() => t?.stop());
beforeEach(() => t.clock.advance(61)); // a fresh write budget per test (20 per minute, Partner API spec 8)

const quote = (domain: string, c = client) => c.request({ method: 'POST', path: `${V1}/quotes`, json: { domain } });
const order = (json: Record<string, unknown>, c = client) =>
  c.request({ method: 'POST', path: `${V1}/orders`, headers: { 'Idempotency-Key': `mor-${++keySeq}` }, json });
const buyNow = (d: { name: string; price_cents: number }, c = client) =>
  order({ domain: d.name, expected_price: d.price_cents, currency: 'USD' }, c);
const code = (a: { status: number; json: { error?: { code?: string } } | undefined }) => ({
  status: a.status,
  code: a.json?.error?.code,
});

describe('POST /quotes', () => {
  it('locks the buy-now price for 10 minutes under a signed quote_id', async () => {
    const d = fresh();
    const answer = await quote(d.name);
    expect(answer.status).toBe(201);
    const q = quoteSchema.parse(answer.json);
    expect(q).toMatchObject({ domain: d.name, price_cents: d.price_cents, currency: 'USD' });
    expect(q.quote_id).toMatch(/^quo_[0-9A-Za-z]{22}\.[A-Za-z0-9_-]{43}$/);
    expect((Date.parse(q.expires_at) - Date.parse(q.created_at!)) / 1000).toBe(QUOTE_TTL_SECONDS);
  });

  it('reserves the domain for the quoting credential until the quote expires', async () => {
    const d = fresh();
    expect((await quote(d.name)).status).toBe(201);
    const theirQuote = await quote(d.name, other);
    expect(code(theirQuote)).toEqual({ status: 409, code: 'conflict' });
    expect(theirQuote.json.error.message).toMatch(/reserved by another buyer's quote until/);
    expect(code(await buyNow(d, other))).toEqual({ status: 409, code: 'conflict' });
    expect(
      code(await other.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain: d.name } })),
    ).toEqual({ status: 409, code: 'conflict' });
    // The quoting credential may quote again.
    expect((await quote(d.name)).status).toBe(201);
    t.clock.advance(QUOTE_TTL_SECONDS + 1);
    expect((await quote(d.name, other)).status).toBe(201);
  });

  it('answers 404 for an unlisted domain and 409 for a sold or reserved one', async () => {
    expect(code(await quote('not-listed-anywhere.com'))).toEqual({ status: 404, code: 'not_found' });
    expect(code(await quote('already-sold.com'))).toEqual({ status: 409, code: 'conflict' });
    expect(code(await quote('reserved-elsewhere.com'))).toEqual({ status: 409, code: 'conflict' });
  });

  it('answers 400 for a body without a valid domain', async () => {
    expect(
      code(await client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: 'not a domain' } })),
    ).toEqual({ status: 400, code: 'validation_error' });
    expect(
      code(await client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: 'x.com', price: 1 } })),
    ).toEqual({ status: 400, code: 'validation_error' });
  });
});

describe('POST /orders', () => {
  it('records an order from a quote_id alone (the endpoint description field set)', async () => {
    const d = fresh();
    const q = (await quote(d.name)).json;
    const answer = await order({ quote_id: q.quote_id, external_payment_ref: 'psp_42' });
    expect(answer.status).toBe(201);
    expect(orderSchema.parse(answer.json)).toMatchObject({
      domain: d.name,
      status: 'EXTERNALLY_PAID',
      sale_price_cents: d.price_cents,
      quote_id: q.quote_id,
      external_payment_ref: 'psp_42',
      commission_cents: d.price_cents / 10,
    });
    expect(answer.json.timeline).toEqual([
      expect.objectContaining({ status: 'EXTERNALLY_PAID', event_type: 'order.recorded' }),
    ]);
    // The domain is sold; the quote is used.
    expect((await client.request({ path: `${V1}/availability`, query: { domain: d.name } })).json.available).toBe(
      false,
    );
    const reuse = await order({ quote_id: q.quote_id });
    expect(code(reuse)).toEqual({ status: 409, code: 'conflict' });
    expect(reuse.json.error.message).toMatch(/already used/);
  });

  it('accepts both field sets together when they agree, and refuses when they do not', async () => {
    const d = fresh();
    const q = (await quote(d.name)).json;
    const wrongDomain = await order({ quote_id: q.quote_id, domain: fresh().name });
    expect(code(wrongDomain)).toEqual({ status: 400, code: 'validation_error' });
    const wrongPrice = await order({
      quote_id: q.quote_id,
      domain: d.name,
      expected_price: d.price_cents + 500,
      currency: 'USD',
    });
    expect(code(wrongPrice)).toEqual({ status: 422, code: 'price_mismatch' });
    const agreed = await order({
      quote_id: q.quote_id,
      domain: d.name,
      expected_price: d.price_cents,
      currency: 'USD',
      buyer: { email: 'a@example.com' },
    });
    expect(agreed.status).toBe(201);
  });

  it('refuses a forged quote_id, and a quote of another credential', async () => {
    const d = fresh();
    const q = (await quote(d.name)).json;
    const forged = `${q.quote_id.slice(0, -3)}AAA`;
    expect(code(await order({ quote_id: forged }))).toEqual({ status: 400, code: 'validation_error' });
    const theirs = await order({ quote_id: q.quote_id }, other);
    expect(code(theirs)).toEqual({ status: 400, code: 'validation_error' });
    expect(theirs.json.error.message).toMatch(/another credential/);
  });

  it('answers 422 quote_expired after 10 minutes', async () => {
    const d = fresh();
    const q = (await quote(d.name)).json;
    t.clock.advance(QUOTE_TTL_SECONDS);
    const answer = await order({ quote_id: q.quote_id });
    expect(code(answer)).toEqual({ status: 422, code: 'quote_expired' });
    expect(answer.json.error.message).toMatch(/fresh one/);
  });

  it('answers 422 price_mismatch with the new price when the listing was repriced after the quote (price-changes.com)', async () => {
    const first = quoteSchema.parse((await quote('price-changes.com')).json);
    expect(first.price_cents).toBe(300_000);
    const refused = await order({ quote_id: first.quote_id });
    expect(code(refused)).toEqual({ status: 422, code: 'price_mismatch' });
    expect(refused.json.error).toMatchObject({ price_cents: 330_000, currency: 'USD' });
    const second = quoteSchema.parse((await quote('price-changes.com')).json);
    expect(second.price_cents).toBe(330_000);
    expect((await order({ quote_id: second.quote_id })).status).toBe(201);
  });

  it('answers 422 price_mismatch when an admin reprices a quoted domain', async () => {
    const d = fresh();
    const q = (await quote(d.name)).json;
    expect(
      (await admin(t.sandbox, 'POST', `/domains/${d.name}/price`, { price_cents: d.price_cents + 10_000 })).status,
    ).toBe(200);
    expect(code(await order({ quote_id: q.quote_id }))).toEqual({ status: 422, code: 'price_mismatch' });
  });

  it('validates the buyer and the URLs, naming the field', async () => {
    const d = fresh();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ buyer: { email: 'nope' } }, /buyer\.email/],
      [{ buyer: { email: 'a@example.com', country: 'USA' } }, /two-letter/],
      [{ return_url: 'javascript:alert(1)' }, /return_url/],
      [{ cancel_url: 'not a url' }, /cancel_url/],
      [{ currency: 'usd' }, /currency/],
      [{ unknown_field: 1 }, /unknown_field|Unrecognized/i],
    ];
    for (const [extra, message] of cases) {
      const answer = await order({ domain: d.name, expected_price: d.price_cents, currency: 'USD', ...extra });
      expect(code(answer)).toEqual({ status: 400, code: 'validation_error' });
      expect(answer.json.error.message).toMatch(message);
    }
    const neither = await order({ domain: d.name });
    expect(code(neither)).toEqual({ status: 400, code: 'validation_error' });
    expect(neither.json.error.message).toMatch(/quote_id|expected_price/);
  });

  it('answers 404 for an unlisted domain and 409 for a sold one', async () => {
    expect(code(await order({ domain: 'not-listed-anywhere.com', expected_price: 100, currency: 'USD' }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(code(await order({ domain: 'already-sold.com', expected_price: 200_000, currency: 'USD' }))).toEqual({
      status: 409,
      code: 'conflict',
    });
  });
});

describe('GET /orders and GET /orders/{public_id}', () => {
  it("lists only the caller's orders, newest first, in cursor pages without repeats", async () => {
    const { client: mine } = await newPartner(t.sandbox, t.clock);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await buyNow(fresh(), mine)).json.public_id);
    await buyNow(fresh(), other);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await mine.request({ path: `${V1}/orders`, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(answer.status).toBe(200);
      const list = orderListSchema.parse(answer.json);
      expect(list.orders.length).toBeLessThanOrEqual(2);
      seen.push(...list.orders.map((o) => o.public_id));
      if (!list.next_cursor) break;
      cursor = list.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('filters by status, domain and date range', async () => {
    const { client: mine } = await newPartner(t.sandbox, t.clock);
    const d1 = fresh();
    const first = (await buyNow(d1, mine)).json;
    t.clock.advance(3600);
    const second = (await buyNow(fresh(), mine)).json;
    await admin(t.sandbox, 'POST', `/orders/${second.public_id}/start-transfer`);
    const ids = async (query: Record<string, string>) =>
      ((await mine.request({ path: `${V1}/orders`, query })).json.orders as Array<{ public_id: string }>).map(
        (o) => o.public_id,
      );
    expect(await ids({ status: 'TRANSFER_IN_PROGRESS' })).toEqual([second.public_id]);
    expect(await ids({ domain: d1.name })).toEqual([first.public_id]);
    expect(await ids({ from: second.created_at })).toEqual([second.public_id]);
    expect(await ids({ to: second.created_at })).toEqual([first.public_id]);
    expect(code(await mine.request({ path: `${V1}/orders`, query: { status: 'PAID' } }))).toEqual({
      status: 400,
      code: 'validation_error',
    });
    expect(code(await mine.request({ path: `${V1}/orders`, query: { limit: '101' } }))).toEqual({
      status: 400,
      code: 'validation_error',
    });
    expect(code(await mine.request({ path: `${V1}/orders`, query: { cursor: 'bm90LWEtY3Vyc29y' } }))).toEqual({
      status: 400,
      code: 'validation_error',
    });
  });

  it("answers 404 for another credential's order", async () => {
    const mineOrder = (await buyNow(fresh())).json;
    expect((await client.request({ path: `${V1}/orders/${mineOrder.public_id}` })).status).toBe(200);
    expect(code(await other.request({ path: `${V1}/orders/${mineOrder.public_id}` }))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('requires the buy scope (search alone does not read orders)', async () => {
    const { client: searchOnly } = await newPartner(t.sandbox, t.clock, { scopes: ['search'] });
    const answer = await searchOnly.request({ path: `${V1}/orders` });
    expect(code(answer)).toEqual({ status: 403, code: 'forbidden' });
    expect(answer.json.error.message).toContain('"buy"');
  });
});

describe('environments', () => {
  it('serves a LIVE credential its own inventory, and only once approved', async () => {
    const created = await admin(t.sandbox, 'POST', '/credentials', { scopes: ['search', 'buy'], environment: 'LIVE' });
    const live = new PartnerTestClient(t.sandbox, created.json, t.clock.now);
    const sandboxDomain = fresh();
    const pending = await live.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: sandboxDomain.name } });
    expect(code(pending)).toEqual({ status: 403, code: 'forbidden' });
    expect(pending.json.error.message).toMatch(/awaits approval/);
    expect((await admin(t.sandbox, 'POST', `/credentials/${created.json.key_id}/approve`)).status).toBe(200);
    expect(
      code(await live.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: sandboxDomain.name } })),
    ).toEqual({ status: 404, code: 'not_found' });
    const liveDomain = generateInventory({ environment: 'LIVE' })[0]!;
    const q = await live.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: liveDomain.name } });
    expect(q.json).toMatchObject({ domain: liveDomain.name, price_cents: liveDomain.price_cents });
    const o = await order({ quote_id: q.json.quote_id }, live);
    expect(o.status).toBe(201);
    // The SANDBOX inventory is untouched by the LIVE sale, and SANDBOX credentials do not see LIVE orders.
    expect(code(await client.request({ path: `${V1}/orders/${o.json.public_id}` }))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('the state machine', () => {
  it('refuses illegal moves with 409 conflict and a message naming the status', async () => {
    const held = (await order({ quote_id: (await quote('always-held.com')).json.quote_id })).json;
    expect(held.status).toBe('HELD_FOR_REVIEW');
    const transfer = await admin(t.sandbox, 'POST', `/orders/${held.public_id}/start-transfer`);
    expect(code(transfer)).toEqual({ status: 409, code: 'conflict' });
    expect(transfer.json.error.message).toMatch(/HELD_FOR_REVIEW: clear the manual review first/);
    const deliver = await admin(t.sandbox, 'POST', `/orders/${held.public_id}/confirm-delivery`);
    expect(deliver.status).toBe(409);
    expect(deliver.json.error.message).toMatch(/possible from TRANSFER_IN_PROGRESS only/);
    expect((await admin(t.sandbox, 'POST', `/orders/${held.public_id}/clear-review`)).status).toBe(200);
    const again = await admin(t.sandbox, 'POST', `/orders/${held.public_id}/clear-review`);
    expect(again.status).toBe(409);
    expect(code(await admin(t.sandbox, 'POST', '/orders/ord_unknown/hold'))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect(code(await admin(t.sandbox, 'POST', `/orders/${held.public_id}/teleport`))).toEqual({
      status: 404,
      code: 'not_found',
    });
  });

  it('refunds only before TRANSFER_COMPLETED, and puts the domain back on sale', async () => {
    const d = fresh();
    const o = (await buyNow(d)).json;
    await admin(t.sandbox, 'POST', `/orders/${o.public_id}/start-transfer`);
    await admin(t.sandbox, 'POST', `/orders/${o.public_id}/confirm-delivery`);
    const late = await client.request({ method: 'POST', path: `${V1}/refunds`, json: { order_id: o.public_id } });
    expect(code(late)).toEqual({ status: 409, code: 'conflict' });
    expect(late.json.error.message).toMatch(/only possible before TRANSFER_COMPLETED/);

    const d2 = fresh();
    const o2 = (await buyNow(d2)).json;
    const refunded = await client.request({ method: 'POST', path: `${V1}/refunds`, json: { order_id: o2.public_id } });
    expect(refunded.status).toBe(201);
    expect((await client.request({ path: `${V1}/availability`, query: { domain: d2.name } })).json.available).toBe(
      true,
    );
    expect(
      code(await client.request({ method: 'POST', path: `${V1}/refunds`, json: { order_id: o2.public_id } })),
    ).toEqual({ status: 409, code: 'conflict' });
    expect(
      code(
        await other.request({
          method: 'POST',
          path: `${V1}/refunds`,
          json: { order_id: (await buyNow(fresh())).json.public_id },
        }),
      ),
    ).toEqual({ status: 404, code: 'not_found' });
  });

  it('honours an Idempotency-Key on POST /refunds', async () => {
    const o = (await buyNow(fresh())).json;
    const send = () =>
      client.request({
        method: 'POST',
        path: `${V1}/refunds`,
        headers: { 'Idempotency-Key': `refund-${o.public_id}` },
        json: { order_id: o.public_id },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
