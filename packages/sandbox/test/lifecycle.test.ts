/**
 * What the issue must show, item 1: one MoR order driven through every state of Partner API spec 3 over HTTP with a signed
 * client, each event received both as a verified webhook on a local receiver and in `GET /events`, in order, with
 * nothing missing. Refunded and cancelled outcomes are driven on two more orders.
 */
import {
  eventListSchema,
  orderSchema,
  quoteSchema,
  verifyWebhookSignature,
  webhookRegistrationSchema,
} from '@domainkit/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import {
  admin,
  newPartner,
  startTestSandbox,
  waitFor,
  WebhookReceiver,
  type PartnerTestClient,
  type TestSandbox,
} from './helpers.ts';

const V1 = '/api/partner/v1';
const WEBHOOK_SECRET = 'whsec_lifecycle_test_secret_0001';
let t: TestSandbox;
let client: PartnerTestClient;
let partnerId: string;
let keyId: string;
const receiver = new WebhookReceiver();
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(200);

beforeAll(async () => {
  t = await startTestSandbox({ webhookTimeScale: 0.001 });
  const partner = await newPartner(t.sandbox, t.clock);
  client = partner.client;
  partnerId = partner.credential.partner_id;
  keyId = partner.credential.key_id;
  await receiver.start();
});
afterAll(async () => {
  await t?.stop();
  await receiver.stop();
});

/** Waits until the receiver has accepted `count` deliveries, and answers the last one. */
async function webhookNumber(count: number) {
  return waitFor(`webhook #${count}`, () => receiver.accepted().length >= count && receiver.accepted()[count - 1]);
}

it('drives an order through every state, each event delivered as a signed webhook and listed by GET /events, in order', async () => {
  const registered = await client.request({
    method: 'PUT',
    path: '/api/partner/webhooks',
    json: { url: receiver.url, secret: WEBHOOK_SECRET },
  });
  expect(registered.status).toBe(200);
  expect(webhookRegistrationSchema.parse(registered.json)).toMatchObject({ url: receiver.url, active: true });
  expect(registered.text).not.toContain(WEBHOOK_SECRET);

  // 1. Quote and order the scenario domain whose orders are always held for manual review.
  const quote = quoteSchema.parse(
    (await client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: 'always-held.com' } })).json,
  );
  expect(quote).toMatchObject({ domain: 'always-held.com', price_cents: 250_000, currency: 'USD' });
  const created = await client.request({
    method: 'POST',
    path: `${V1}/orders`,
    headers: { 'Idempotency-Key': 'lifecycle-order-1' },
    json: {
      quote_id: quote.quote_id,
      external_payment_ref: 'pay_123',
      buyer: { email: 'buyer@example.com', country: 'gb' },
    },
  });
  expect(created.status).toBe(201);
  const order = orderSchema.parse(created.json);
  expect(order).toMatchObject({
    domain: 'always-held.com',
    status: 'HELD_FOR_REVIEW',
    sale_price_cents: 250_000,
    external_payment_ref: 'pay_123',
  });
  expect(created.json.buyer).toEqual({ email: 'buyer@example.com', name: null, country: 'GB' });
  expect((await webhookNumber(1)).json).toMatchObject({
    type: 'order.recorded',
    data: { order: { public_id: order.public_id, status: 'EXTERNALLY_PAID' } },
  });
  expect((await webhookNumber(2)).json).toMatchObject({
    type: 'order.held_for_review',
    data: { order: { status: 'HELD_FOR_REVIEW' } },
  });

  // 2. The back office clears the review, pushes the domain, confirms delivery, and a settlement run closes it.
  const steps: Array<[string, string, string]> = [
    [`/orders/${order.public_id}/clear-review`, 'order.manual_review_cleared', 'EXTERNALLY_PAID'],
    [`/orders/${order.public_id}/start-transfer`, 'order.transfer_started', 'TRANSFER_IN_PROGRESS'],
    [`/orders/${order.public_id}/confirm-delivery`, 'order.transfer_completed', 'TRANSFER_COMPLETED'],
  ];
  let received = 2;
  for (const [path, type, status] of steps) {
    const moved = await admin(t.sandbox, 'POST', path);
    expect(moved.status).toBe(200);
    expect(moved.json.events.map((e: { type: string }) => e.type)).toEqual([type]);
    expect(moved.json.order.status).toBe(status);
    const hook = await webhookNumber(++received);
    expect(hook.json).toMatchObject({
      id: moved.json.events[0].id,
      type,
      data: { order: { public_id: order.public_id, status } },
    });
  }
  const settled = await admin(t.sandbox, 'POST', '/settlements/run', { key_id: keyId });
  expect(settled.status).toBe(200);
  expect(settled.json.events.map((e: { type: string }) => e.type)).toEqual(['order.settled']);
  expect(settled.json.settlements[0]).toMatchObject({
    order_ids: [order.public_id],
    gross_sold_cents: 250_000,
    commission_retained_cents: 25_000,
    amount_owed_cents: 225_000,
  });
  expect((await webhookNumber(++received)).json).toMatchObject({
    type: 'order.settled',
    data: { order: { status: 'SETTLED' } },
  });

  // 3. The order answers its whole timeline.
  const detail = await client.request({ path: `${V1}/orders/${order.public_id}` });
  expect(detail.status).toBe(200);
  expect(orderSchema.parse(detail.json).timeline!.map((s) => s.status)).toEqual([
    'EXTERNALLY_PAID',
    'HELD_FOR_REVIEW',
    'EXTERNALLY_PAID',
    'TRANSFER_IN_PROGRESS',
    'TRANSFER_COMPLETED',
    'SETTLED',
  ]);

  // 4. Refunded: an order recorded with the signing examples' field set, refunded by the partner before transfer.
  const second = pool[0]!;
  const recorded = await client.request({
    method: 'POST',
    path: `${V1}/orders`,
    headers: { 'Idempotency-Key': 'lifecycle-order-2' },
    json: {
      domain: second.name,
      expected_price: second.price_cents,
      currency: 'USD',
      buyer: { email: 'b@example.com', name: 'B', country: 'US' },
      return_url: 'https://partner.example/done',
      cancel_url: 'https://partner.example/cancel',
    },
  });
  expect(recorded.status).toBe(201);
  expect(recorded.json.status).toBe('EXTERNALLY_PAID');
  expect((await webhookNumber(++received)).json).toMatchObject({
    type: 'order.recorded',
    data: { order: { public_id: recorded.json.public_id } },
  });
  const refund = await client.request({
    method: 'POST',
    path: `${V1}/refunds`,
    json: { order_id: recorded.json.public_id, reason: 'buyer changed their mind' },
  });
  expect(refund.status).toBe(201);
  expect(refund.json).toMatchObject({
    order_id: recorded.json.public_id,
    amount_cents: second.price_cents,
    status: 'succeeded',
    order: { status: 'REFUNDED' },
  });
  expect((await webhookNumber(++received)).json).toMatchObject({
    type: 'order.refunded',
    data: { order: { status: 'REFUNDED' }, refund: { refund_id: refund.json.refund_id } },
  });

  // 5. Cancelled: the marketplace cancels a third order during its transfer.
  const third = pool[1]!;
  const another = await client.request({
    method: 'POST',
    path: `${V1}/orders`,
    headers: { 'Idempotency-Key': 'lifecycle-order-3' },
    json: { domain: third.name, expected_price: third.price_cents, currency: 'USD' },
  });
  expect(another.status).toBe(201);
  await webhookNumber(++received);
  expect((await admin(t.sandbox, 'POST', `/orders/${another.json.public_id}/start-transfer`)).status).toBe(200);
  await webhookNumber(++received);
  const cancelled = await admin(t.sandbox, 'POST', `/orders/${another.json.public_id}/cancel`, {
    reason: 'registrar rejected the transfer',
  });
  expect(cancelled.json.order.status).toBe('CANCELLED');
  expect((await webhookNumber(++received)).json).toMatchObject({
    type: 'order.refunded',
    data: { order: { status: 'CANCELLED' } },
  });

  // Every delivery verifies against the webhook secret, over the raw body.
  for (const d of receiver.deliveries) {
    await expect(
      verifyWebhookSignature({
        secret: WEBHOOK_SECRET,
        rawBody: d.raw,
        signature: d.headers['x-service-signature'] as string,
      }),
    ).resolves.toBeUndefined();
    expect(d.json.partner_id).toBe(partnerId);
    expect(d.headers['x-service-event-id']).toBe(d.json.id);
  }

  // GET /events, paged two at a time, lists the same events in the same order: nothing missing, nothing repeated.
  const listed: Array<{ id: string; type: string }> = [];
  let after: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await client.request({
      path: `${V1}/events`,
      query: { limit: '2', ...(after ? { after_id: after } : {}) },
    });
    expect(answer.status).toBe(200);
    const body = eventListSchema.parse(answer.json);
    listed.push(...body.events);
    if (body.next_cursor === null) break;
    after = body.next_cursor;
  }
  const delivered = receiver.accepted().map((d) => d.json);
  expect(listed.map((e) => e.id)).toEqual(delivered.map((e) => e.id));
  expect(new Set(listed.map((e) => e.id)).size).toBe(listed.length);
  expect(listed.map((e) => e.type)).toEqual([
    'order.recorded',
    'order.held_for_review',
    'order.manual_review_cleared',
    'order.transfer_started',
    'order.transfer_completed',
    'order.settled',
    'order.recorded',
    'order.refunded',
    'order.recorded',
    'order.transfer_started',
    'order.refunded',
  ]);
  // The history's items are the delivered bodies.
  expect(listed).toEqual(delivered);
  // The deliveries are recorded with their attempts.
  const deliveries = await admin(t.sandbox, 'GET', `/deliveries?key_id=${keyId}`);
  expect(deliveries.json.deliveries).toHaveLength(listed.length);
  for (const d of deliveries.json.deliveries)
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 1,
      attempt_log: [{ attempt: 1, status_code: 200, outcome: 'delivered' }],
    });
});
