/**
 * What the issue must show, item 3: each error code of Partner API spec 7 produced by a request built to cause it, answered with
 * the status documented in the protocol's `ERROR_CODES` (and README "Errors"), in the error body shape
 * `{"error": {"code", "message", "request_id"}}`.
 */
import { ERROR_CODES, type ErrorCode } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory } from '../src/index.ts';
import {
  admin,
  newPartner,
  PartnerTestClient,
  send,
  startTestSandbox,
  type Answer,
  type TestSandbox,
  partnerAnswers,
} from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
let credential: { key_id: string; secret: string };
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(600);

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
  const partner = await newPartner(t.sandbox, t.clock);
  client = partner.client;
  credential = partner.credential;
});
afterAll(() => t?.stop());

/** For each Partner API spec 7 code, a request built to cause it. */
const CAUSES: Record<ErrorCode, () => Promise<Answer>> = {
  validation_error: () => client.request({ path: `${V1}/domains/search` }),
  missing_idempotency_key: () =>
    client.request({
      method: 'POST',
      path: `${V1}/orders`,
      json: { domain: pool[0]!.name, expected_price: pool[0]!.price_cents, currency: 'USD' },
    }),
  missing_credentials: () => send(t.sandbox, { path: `${V1}/orders` }),
  missing_signature_headers: () =>
    send(t.sandbox, { path: `${V1}/orders`, headers: { 'X-Service-Key-Id': credential.key_id } }),
  invalid_timestamp: () =>
    new PartnerTestClient(t.sandbox, credential, () => t.clock.now() - 400_000).request({ path: `${V1}/orders` }),
  invalid_signature: () =>
    new PartnerTestClient(
      t.sandbox,
      { key_id: credential.key_id, secret: 'sk_test_this_is_not_the_secret' },
      t.clock.now,
    ).request({ path: `${V1}/orders` }),
  replay_detected: async () => {
    const first = await client.request({ path: `${V1}/orders` });
    return send(t.sandbox, { path: `${V1}/orders`, headers: first.sent.headers });
  },
  forbidden: async () => {
    const searchOnly = await newPartner(t.sandbox, t.clock, { scopes: ['search'] });
    return searchOnly.client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[1]!.name } });
  },
  not_found: () => client.request({ path: `${V1}/orders/ord_doesnotexist` }),
  conflict: () => client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: 'already-sold.com' } }),
  price_mismatch: () =>
    client.request({
      method: 'POST',
      path: `${V1}/orders`,
      headers: { 'Idempotency-Key': 'err-price' },
      json: { domain: pool[2]!.name, expected_price: pool[2]!.price_cents + 100, currency: 'USD' },
    }),
  quote_expired: async () => {
    const quote = await client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[3]!.name } });
    expect(quote.status).toBe(201);
    t.clock.advance(601);
    return client.request({
      method: 'POST',
      path: `${V1}/orders`,
      headers: { 'Idempotency-Key': 'err-expired' },
      json: { quote_id: quote.json.quote_id },
    });
  },
  rate_limited: async () => {
    const limited = await newPartner(t.sandbox, t.clock);
    for (let i = 0; i < 20; i++) {
      const answer = await limited.client.request({ method: 'POST', path: `${V1}/quotes`, json: {} });
      expect(answer.status).toBe(400); // counted, refused by validation
    }
    return limited.client.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[4]!.name } });
  },
  internal_error: async () => {
    await admin(t.sandbox, 'PUT', '/faults', { error_rate: 1 });
    try {
      return await client.request({ path: `${V1}/orders` });
    } finally {
      await admin(t.sandbox, 'PUT', '/faults', { error_rate: 0 });
    }
  },
};

describe('every Partner API spec 7 error code', () => {
  it('has a request built to cause it', () => {
    expect(Object.keys(CAUSES).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    it(`${code}: answers ${ERROR_CODES[code].status}`, async () => {
      const answer = await CAUSES[code]();
      expect({ status: answer.status, code: answer.json?.error?.code }).toEqual({
        status: ERROR_CODES[code].status,
        code,
      });
      expect(answer.json.error.message.length).toBeGreaterThan(15);
      expect(answer.json.error.request_id).toMatch(/^req_/);
      expect(answer.headers.get('x-request-id')).toBe(answer.json.error.request_id);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      if (code === 'rate_limited') expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      if (code === 'price_mismatch')
        expect(answer.json.error).toMatchObject({ price_cents: pool[2]!.price_cents, currency: 'USD' });
    });
  }
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
