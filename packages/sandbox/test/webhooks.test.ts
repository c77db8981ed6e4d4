/**
 * Webhook registration, delivery and the event history (Partner API spec 2.4, 2.5, 5.3, 6): HTTPS-only registration (loopback
 * excepted), signed deliveries retried with back-off under the same event id, the acknowledgement timeout, bounded
 * attempts, injected duplicate and out-of-order deliveries, and `GET /events` paging.
 */
import { eventListSchema, verifyWebhookSignature } from '@domainkit/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory } from '../src/index.ts';
import { retryDelayMs } from '../src/events/outbox.ts';
import { MAX_DELIVERY_ATTEMPTS } from '../src/events/store.ts';
import {
  admin,
  newPartner,
  startTestSandbox,
  waitFor,
  WebhookReceiver,
  type PartnerTestClient,
  type TestSandbox,
  partnerAnswers,
} from './helpers.ts';

const V1 = '/api/partner/v1';
const SECRET = 'whsec_webhooks_test_secret_000001';
let t: TestSandbox;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(1600);
let next = 0;
const fresh = () => pool[next++]!;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  t = await startTestSandbox({ webhookTimeScale: 0.0002, webhookTimeoutMs: 1000 });
});
afterAll(async () => {
  await t?.stop();
  for (const r of receivers) await r.stop();
});
beforeEach(() => t.clock.advance(61));

/** A new partner with its own receiver registered. */
async function partnerWithReceiver() {
  const partner = await newPartner(t.sandbox, t.clock);
  const receiver = await new WebhookReceiver().start();
  receivers.push(receiver);
  const registered = await partner.client.request({
    method: 'PUT',
    path: '/api/partner/webhooks',
    json: { url: receiver.url, secret: SECRET },
  });
  expect(registered.status).toBe(200);
  return { ...partner, receiver };
}

async function recordOrder(client: PartnerTestClient) {
  const d = fresh();
  const answer = await client.request({
    method: 'POST',
    path: `${V1}/orders`,
    headers: { 'Idempotency-Key': `wh-${d.name}` },
    json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
  });
  expect(answer.status).toBe(201);
  return answer.json as { public_id: string };
}

async function deliveriesOf(keyId: string) {
  return (await admin(t.sandbox, 'GET', `/deliveries?key_id=${keyId}`)).json.deliveries as Array<{
    event_id: string;
    status: string;
    attempts: number;
    duplicate: boolean;
    last_error: string | null;
    attempt_log: Array<{ status_code: number | null; error: string | null; outcome: string }>;
  }>;
}

describe('PUT /api/partner/webhooks', () => {
  it('registers an https URL, answers url, active and created_at, never the secret, and updates in place', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    const first = await client.request({
      method: 'PUT',
      path: '/api/partner/webhooks',
      json: { url: 'https://partner.example/hooks', secret: SECRET },
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ url: 'https://partner.example/hooks', active: true });
    expect(first.text).not.toContain(SECRET);
    t.clock.advance(5);
    const second = await client.request({
      method: 'PUT',
      path: '/api/partner/webhooks',
      json: { url: 'https://partner.example/v2/hooks', secret: `${SECRET}-2` },
    });
    expect(second.json).toMatchObject({ url: 'https://partner.example/v2/hooks', created_at: first.json.created_at });
    expect(second.json.updated_at).not.toBe(first.json.updated_at);
  });

  it('accepts plain http only for loopback hosts', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    for (const url of [
      'http://localhost:3000/h',
      'http://127.0.0.1:9/h',
      'http://[::1]:9/h',
      'http://app.localhost/h',
    ]) {
      expect(
        (await client.request({ method: 'PUT', path: '/api/partner/webhooks', json: { url, secret: SECRET } })).status,
      ).toBe(200);
    }
    const plain = await client.request({
      method: 'PUT',
      path: '/api/partner/webhooks',
      json: { url: 'http://partner.example/hooks', secret: SECRET },
    });
    expect({ status: plain.status, code: plain.json.error.code }).toEqual({ status: 400, code: 'validation_error' });
    expect(plain.json.error.message).toMatch(/https/);
  });

  it('refuses credentials in the URL, a short secret, and other schemes', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    for (const json of [
      { url: 'https://user:pass@partner.example/h', secret: SECRET },
      { url: 'https://partner.example/h', secret: 'short' },
      { url: 'ftp://partner.example/h', secret: SECRET },
      { url: 'https://partner.example/h' },
    ]) {
      const answer = await client.request({ method: 'PUT', path: '/api/partner/webhooks', json });
      expect(answer.status).toBe(400);
    }
  });

  it('requires the webhook scope', async () => {
    const { client } = await newPartner(t.sandbox, t.clock, { scopes: ['buy'] });
    const answer = await client.request({
      method: 'PUT',
      path: '/api/partner/webhooks',
      json: { url: 'https://partner.example/h', secret: SECRET },
    });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 403, code: 'forbidden' });
    expect((await client.request({ path: `${V1}/events` })).status).toBe(403);
  });
});

describe('delivery', () => {
  it('retries a refused delivery under the same event id with the same signed body until a 200', async () => {
    const { client, credential, receiver } = await partnerWithReceiver();
    receiver.respond = (_d, i) => ({ status: i < 2 ? 503 : 200 });
    await recordOrder(client);
    const delivered = await waitFor('the third attempt', () => receiver.accepted()[0]);
    expect(receiver.deliveries.map((d) => d.answered)).toEqual([503, 503, 200]);
    expect(new Set(receiver.deliveries.map((d) => d.raw)).size).toBe(1);
    expect(receiver.deliveries.map((d) => d.headers['x-service-delivery-attempt'])).toEqual(['1', '2', '3']);
    for (const d of receiver.deliveries) {
      await expect(
        verifyWebhookSignature({
          secret: SECRET,
          rawBody: d.raw,
          signature: d.headers['x-service-signature'] as string,
        }),
      ).resolves.toBeUndefined();
      expect(d.headers['content-type']).toBe('application/json');
    }
    const [row] = await waitFor('the delivery bookkeeping', async () =>
      (await deliveriesOf(credential.key_id))[0]?.status === 'delivered' ? deliveriesOf(credential.key_id) : undefined,
    );
    expect(row).toMatchObject({ event_id: delivered.json.id, status: 'delivered', attempts: 3 });
    expect(row!.attempt_log.map((a) => a.status_code)).toEqual([503, 503, 200]);
  });

  it('counts no answer within the timeout as a failure, and a non-200 success code too', async () => {
    const { client, credential, receiver } = await partnerWithReceiver();
    receiver.respond = (_d, i) =>
      i === 0 ? { status: 200, delayMs: 2500 } : i === 1 ? { status: 204 } : { status: 200 };
    await recordOrder(client);
    await waitFor('a delivery accepted in time', () =>
      receiver.deliveries.some((d) => d.answered === 200 && d.headers['x-service-delivery-attempt'] === '3'),
    );
    const [row] = await waitFor('delivered', async () =>
      (await deliveriesOf(credential.key_id))[0]?.status === 'delivered' ? deliveriesOf(credential.key_id) : undefined,
    );
    expect(row!.attempt_log[0]!.error).toMatch(/no answer within 1000 ms/);
    expect(row!.attempt_log[1]).toMatchObject({ status_code: 204, outcome: 'failed' });
    expect(row!.attempt_log[2]).toMatchObject({ status_code: 200, outcome: 'delivered' });
  });

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} attempts; the event stays in GET /events for catching up`, async () => {
    const { client, credential, receiver } = await partnerWithReceiver();
    receiver.respond = () => ({ status: 500 });
    await recordOrder(client);
    const [row] = await waitFor(
      'the delivery to fail for good',
      async () =>
        (await deliveriesOf(credential.key_id))[0]?.status === 'failed' ? deliveriesOf(credential.key_id) : undefined,
      30_000,
    );
    expect(row!.attempts).toBe(MAX_DELIVERY_ATTEMPTS);
    expect(row!.attempt_log).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(receiver.deliveries).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    const events = eventListSchema.parse((await client.request({ path: `${V1}/events` })).json).events;
    expect(events.map((e) => e.id)).toEqual([row!.event_id]);
  });

  it('waits 30 s × 2^(attempt−1) with ±20 % jitter between attempts, times the time scale', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, 1, () => 0.5))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000,
    ]);
    expect(retryDelayMs(1, 1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, 1, () => 0.999_999)).toBeLessThanOrEqual(36_000);
    expect(retryDelayMs(2, 0.001, () => 0.5)).toBe(60);
  });

  it('queues nothing for a credential without an endpoint; its events are still listed', async () => {
    const { client, credential } = await newPartner(t.sandbox, t.clock);
    await recordOrder(client);
    expect(await deliveriesOf(credential.key_id)).toEqual([]);
    expect((await client.request({ path: `${V1}/events` })).json.events).toHaveLength(1);
  });
});

describe('injected delivery faults', () => {
  it('delivers an event twice, same id and body, at duplicate_rate 1', async () => {
    const { client, receiver } = await partnerWithReceiver();
    await admin(t.sandbox, 'PUT', '/faults', { duplicate_rate: 1 });
    try {
      await recordOrder(client);
      await waitFor('two deliveries', () => receiver.accepted().length >= 2);
    } finally {
      await admin(t.sandbox, 'PUT', '/faults', { duplicate_rate: 0 });
    }
    const [a, b] = receiver.accepted();
    expect(b!.json.id).toBe(a!.json.id);
    expect(b!.raw).toBe(a!.raw);
  });

  it('lets a later event arrive first when the earlier one is held back (out_of_order_rate)', async () => {
    const { client, receiver } = await partnerWithReceiver();
    await admin(t.sandbox, 'PUT', '/faults', { out_of_order_rate: 1 });
    let first: { public_id: string };
    try {
      first = await recordOrder(client);
    } finally {
      await admin(t.sandbox, 'PUT', '/faults', { out_of_order_rate: 0 });
    }
    const second = await recordOrder(client);
    await waitFor('both events', () => receiver.accepted().length >= 2);
    expect(receiver.accepted().map((d) => d.json.data.order.public_id)).toEqual([second.public_id, first.public_id]);
    // The history keeps creation order.
    const listed = (await client.request({ path: `${V1}/events` })).json.events as Array<{
      data: { order: { public_id: string } };
    }>;
    expect(listed.map((e) => e.data.order.public_id)).toEqual([first.public_id, second.public_id]);
  });
});

describe('GET /events', () => {
  it('pages in creation order; after_id past the end gives an empty page; limits are bounded', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    for (let i = 0; i < 3; i++) await recordOrder(client);
    const all = eventListSchema.parse((await client.request({ path: `${V1}/events` })).json);
    expect(all.events).toHaveLength(3);
    expect(all.next_cursor).toBeNull();
    const page1 = eventListSchema.parse((await client.request({ path: `${V1}/events`, query: { limit: '2' } })).json);
    expect(page1.events.map((e) => e.id)).toEqual(all.events.slice(0, 2).map((e) => e.id));
    expect(page1.next_cursor).toBe(all.events[1]!.id);
    const page2 = eventListSchema.parse(
      (await client.request({ path: `${V1}/events`, query: { limit: '2', after_id: page1.next_cursor! } })).json,
    );
    expect(page2.events.map((e) => e.id)).toEqual([all.events[2]!.id]);
    expect(page2.next_cursor).toBeNull();
    const past = await client.request({ path: `${V1}/events`, query: { after_id: 'evt_999999999999' } });
    expect(past.json).toEqual({ events: [], next_cursor: null });
    for (const query of [{ limit: '0' }, { limit: '101' }, { limit: 'ten' }, { after_id: 'not-an-event' }] as Array<
      Record<string, string>
    >) {
      const bad = await client.request({ path: `${V1}/events`, query });
      expect({ status: bad.status, code: bad.json.error.code }).toEqual({ status: 400, code: 'validation_error' });
    }
    expect((await client.request({ path: `${V1}/events`, query: { limit: '100' } })).status).toBe(200);
  });

  it("lists only the caller's events, each with id, type, created_at, partner_id and data", async () => {
    const a = await newPartner(t.sandbox, t.clock);
    const b = await newPartner(t.sandbox, t.clock);
    const order = await recordOrder(a.client);
    const mine = eventListSchema.parse((await a.client.request({ path: `${V1}/events` })).json).events;
    expect(mine).toEqual([
      {
        id: expect.stringMatching(/^evt_\d{12}$/),
        type: 'order.recorded',
        created_at: expect.any(String),
        partner_id: a.credential.partner_id,
        data: { order: expect.objectContaining({ public_id: order.public_id, status: 'EXTERNALLY_PAID' }) },
      },
    ]);
    expect((await b.client.request({ path: `${V1}/events` })).json.events).toEqual([]);
  });
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
