/**
 * What the issue must show, item 2: idempotency of `POST /orders` (Partner API spec 4.1): a replay answers the stored response
 * byte for byte, a changed body answers 409, keys are per credential, ten concurrent requests with one key make one
 * order, and a request refused before it runs stores nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory } from '../src/index.ts';
import {
  admin,
  newPartner,
  send,
  startTestSandbox,
  type PartnerTestClient,
  type TestSandbox,
  partnerAnswers,
} from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
let keyId: string;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(400);
let next = 0;
const fresh = () => pool[next++]!;

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
  const partner = await newPartner(t.sandbox, t.clock);
  client = partner.client;
  keyId = partner.credential.key_id;
});
afterAll(() => t?.stop());
// Each test starts a fresh rate-limit window (20 writes per minute per credential, Partner API spec 8).
beforeEach(() => t.clock.advance(61));

function order(
  domain: { name: string; price_cents: number },
  key: string,
  extra: Record<string, unknown> = {},
  c = client,
) {
  return c.request({
    method: 'POST',
    path: `${V1}/orders`,
    headers: { 'Idempotency-Key': key },
    json: { domain: domain.name, expected_price: domain.price_cents, currency: 'USD', ...extra },
  });
}

async function ordersFor(domain: string, k = keyId) {
  return t.sandbox.db
    .selectFrom('orders')
    .select('public_id')
    .where('domain', '=', domain)
    .where('key_id', '=', k)
    .execute();
}

async function storedKeys() {
  return t.sandbox.db.selectFrom('idempotency_keys').select('idem_key').where('key_id', '=', keyId).execute();
}

describe('replays', () => {
  it('answers the stored response byte for byte for the same key and body, making one order', async () => {
    const d = fresh();
    const first = await order(d, 'replay-1', { buyer: { email: 'x@example.com' } });
    expect(first.status).toBe(201);
    const second = await order(d, 'replay-1', { buyer: { email: 'x@example.com' } });
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await ordersFor(d.name)).toHaveLength(1);
  });

  it('treats re-serialised JSON with the same content (key order, whitespace) as the same body', async () => {
    const d = fresh();
    const first = await order(d, 'replay-2');
    const reordered = await client.request({
      method: 'POST',
      path: `${V1}/orders`,
      headers: { 'Idempotency-Key': 'replay-2' },
      body: `{ "currency": "USD",  "expected_price": ${d.price_cents}, "domain": "${d.name}" }`,
    });
    expect(reordered.status).toBe(201);
    expect(reordered.text).toBe(first.text);
  });

  it('replays a refusal that happened while running (price_mismatch), with its original request id', async () => {
    const d = fresh();
    const first = await order({ name: d.name, price_cents: d.price_cents - 100 }, 'replay-3');
    expect({ status: first.status, code: first.json.error.code }).toEqual({ status: 422, code: 'price_mismatch' });
    expect(first.json.error.price_cents).toBe(d.price_cents);
    const again = await order({ name: d.name, price_cents: d.price_cents - 100 }, 'replay-3');
    expect(again.status).toBe(422);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('x-request-id')).not.toBe(first.json.error.request_id);
  });
});

describe('conflicts', () => {
  it('answers 409 conflict when the key is reused with a different body, and changes nothing', async () => {
    const d = fresh();
    const other = fresh();
    expect((await order(d, 'conflict-1')).status).toBe(201);
    const changed = await order(other, 'conflict-1');
    expect({ status: changed.status, code: changed.json.error.code }).toEqual({ status: 409, code: 'conflict' });
    expect(changed.json.error.message).toMatch(/different request body/);
    expect(await ordersFor(other.name)).toHaveLength(0);
    const stillListed = await client.request({ path: `${V1}/availability`, query: { domain: other.name } });
    expect(stillListed.json.available).toBe(true);
  });

  it('answers 409 for a changed field deep inside the body', async () => {
    const d = fresh();
    expect((await order(d, 'conflict-2', { buyer: { email: 'a@example.com' } })).status).toBe(201);
    const changed = await order(d, 'conflict-2', { buyer: { email: 'b@example.com' } });
    expect(changed.status).toBe(409);
  });
});

describe('keys are scoped to the credential', () => {
  it('lets two credentials use the same key for their own orders', async () => {
    const other = await newPartner(t.sandbox, t.clock);
    const mine = fresh();
    const theirs = fresh();
    const a = await order(mine, 'shared-key');
    const b = await order(theirs, 'shared-key', {}, other.client);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.json.public_id).not.toBe(a.json.public_id);
    expect(b.json.domain).toBe(theirs.name);
    // And each credential's replay answers its own order.
    expect((await order(theirs, 'shared-key', {}, other.client)).text).toBe(b.text);
    expect((await order(mine, 'shared-key')).text).toBe(a.text);
  });
});

describe('concurrency', () => {
  it('makes exactly one order from ten concurrent requests with one key', async () => {
    const d = fresh();
    const answers = await Promise.all(Array.from({ length: 10 }, () => order(d, 'concurrent-1')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await ordersFor(d.name)).toHaveLength(1);
    const events = await t.sandbox.db
      .selectFrom('events')
      .select('payload')
      .where('key_id', '=', keyId)
      .where('type', '=', 'order.recorded')
      .execute();
    expect(events.filter((e) => e.payload.includes(d.name))).toHaveLength(1);
  });
});

describe('a request refused before it runs stores nothing', () => {
  it('answers 400 missing_idempotency_key without the header', async () => {
    const d = fresh();
    const before = (await storedKeys()).length;
    const answer = await client.request({
      method: 'POST',
      path: `${V1}/orders`,
      json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
    });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({
      status: 400,
      code: 'missing_idempotency_key',
    });
    expect((await storedKeys()).length).toBe(before);
    expect(await ordersFor(d.name)).toHaveLength(0);
  });

  it('stores nothing for an invalid body: the key then serves a valid one', async () => {
    const d = fresh();
    const invalid = await order(d, 'refused-1', { buyer: { email: 'not-an-email' } });
    expect({ status: invalid.status, code: invalid.json.error.code }).toEqual({
      status: 400,
      code: 'validation_error',
    });
    expect((await storedKeys()).map((k) => k.idem_key)).not.toContain('refused-1');
    expect((await order(d, 'refused-1')).status).toBe(201);
  });

  it('stores nothing for a request that fails authentication', async () => {
    const d = fresh();
    const signed = await order(d, 'refused-2');
    expect(signed.status).toBe(201);
    const d2 = fresh();
    const tampered = await send(t.sandbox, {
      method: 'POST',
      path: `${V1}/orders`,
      headers: { ...signed.sent.headers, 'X-Service-Nonce': 'another-nonce', 'Idempotency-Key': 'refused-3' },
      body: JSON.stringify({ domain: d2.name, expected_price: d2.price_cents, currency: 'USD' }),
    });
    expect(tampered.status).toBe(401);
    expect((await storedKeys()).map((k) => k.idem_key)).not.toContain('refused-3');
    expect((await order(d2, 'refused-3')).status).toBe(201);
  });

  it('stores nothing for a request refused by a 429 (here an injected burst)', async () => {
    const d = fresh();
    expect((await admin(t.sandbox, 'PUT', '/faults', { rate_limit_burst: 1, rate_limit_retry_after: 2 })).status).toBe(
      200,
    );
    const limited = await order(d, 'refused-4');
    expect({
      status: limited.status,
      code: limited.json.error.code,
      retryAfter: limited.headers.get('retry-after'),
    }).toEqual({ status: 429, code: 'rate_limited', retryAfter: '2' });
    expect((await storedKeys()).map((k) => k.idem_key)).not.toContain('refused-4');
    expect((await order(d, 'refused-4')).status).toBe(201);
  });

  it('answers 400 validation_error for a malformed Idempotency-Key', async () => {
    const d = fresh();
    const answer = await order(d, 'x'.repeat(300));
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 400, code: 'validation_error' });
  });
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
