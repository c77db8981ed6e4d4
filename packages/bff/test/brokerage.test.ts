/**
 * Brokerage through the BFF (Partner API spec 2.6, 4.1 "Brokerage"): eligibility first, each refusal with its own
 * reason; `POST /brokerage` checks every field before anything goes upstream, refuses cross-site writes, opens the
 * case with the shop's tier, and answers the same case for a retried attempt; `brokerage.case_completed` reaches the
 * partner's handler once and records the outcome in the BFF's store.
 */
import { signWebhookPayload } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStoredCases } from '../src/brokerage/index.ts';
import {
  KEY_ID,
  SHOP_ORIGIN,
  call,
  openTestDatabase,
  postJson,
  startStubMarketplace,
  startTestBff,
  type StubMarketplace,
  type TestDatabase,
} from './helpers.ts';

const WEBHOOK_SECRET = 'whsec_brokerage_test_0123456789abcdef';
let stub: StubMarketplace;
let testDb: TestDatabase;
let bff: Awaited<ReturnType<typeof startTestBff>>;
const completed: string[] = [];

beforeAll(async () => {
  stub = await startStubMarketplace();
  testDb = await openTestDatabase('pglite');
  bff = await startTestBff(stub, {
    database: testDb.database,
    brokerage: { tier: 'self_serve', minBudgetCents: 20_000 },
    webhook: { secret: WEBHOOK_SECRET },
    onEvent: { 'brokerage.case_completed': (event) => void completed.push(event.id) },
  });
});
afterAll(async () => {
  await bff?.close();
  await testDb?.close();
  await stub?.close();
});

const key = () => `attempt-${crypto.randomUUID()}`;
const request = (domain: string, over: Record<string, unknown> = {}) => ({
  domain,
  buyer_email: 'buyer@example.com',
  budget_cents: 50_000,
  consent: true,
  ...over,
});
const upstreamWrites = () => stub.callsTo('brokerage-create').length;
const upstreamCalls = () => stub.calls.length;

describe('GET /brokerage/eligibility', () => {
  it.each([
    ['live-site.com', 'live_site'],
    ['coffeehouse.com', 'listed'],
  ])('%s is not eligible: reason %s, with the shop offer', async (domain, reason) => {
    const answer = await call(`${bff.url}/brokerage/eligibility?domain=${domain}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      domain,
      eligible: false,
      reason,
      tier: 'self_serve',
      currency: 'USD',
      min_budget_cents: 20_000,
    });
  });

  it('an unlisted name without a case is eligible', async () => {
    const answer = await call(`${bff.url}/brokerage/eligibility?domain=acme-rockets.com`);
    expect([answer.status, answer.json.eligible, answer.json.reason]).toEqual([200, true, null]);
  });
});

describe('POST /brokerage refuses before anything goes upstream', () => {
  it('a cross-site POST is 403 and the marketplace sees no call', async () => {
    const before = upstreamCalls();
    const answer = await postJson(`${bff.url}/brokerage`, request('cross-site.com'), {
      origin: 'https://evil.example',
      'idempotency-key': key(),
    });
    expect([answer.status, answer.json.error.code]).toEqual([403, 'forbidden']);
    expect(upstreamCalls()).toBe(before);
  });

  it.each([
    ['a NUL in the e-mail', { buyer_email: 'buyer\u0000@example.com' }, '`buyer_email`'],
    ['a budget of 2^53', { budget_cents: 2 ** 53 }, '`budget_cents`'],
    ['a budget under the shop minimum', { budget_cents: 19_999 }, '`budget_cents`'],
    ['a fractional budget', { budget_cents: 250.5 }, '`budget_cents`'],
    ['no consent', { consent: false }, '`consent`'],
    ['a tier from the visitor', { tier: 'managed' }, 'tier'],
  ])('%s is 400 naming the field, no upstream call', async (_name, over, field) => {
    const before = upstreamCalls();
    const answer = await postJson(`${bff.url}/brokerage`, request('acme-rockets.com', over), {
      origin: SHOP_ORIGIN,
      'idempotency-key': key(),
    });
    expect([answer.status, answer.json.error.code]).toEqual([400, 'validation_error']);
    expect(answer.json.error.message).toContain(field);
    expect(upstreamCalls()).toBe(before);
  });

  it.each([
    ['live-site.com', 'live_site'],
    ['coffeehouse.com', 'listed'],
  ])('%s is 409 with reason %s and no case is opened', async (domain, reason) => {
    const before = upstreamWrites();
    const answer = await postJson(`${bff.url}/brokerage`, request(domain), {
      origin: SHOP_ORIGIN,
      'idempotency-key': key(),
    });
    expect([answer.status, answer.json.error.code, answer.json.error.reason]).toEqual([409, 'conflict', reason]);
    expect(upstreamWrites()).toBe(before);
  });
});

describe('POST /brokerage opens one case per visitor attempt', () => {
  it('opens the case with the shop tier, answers the progress link, and a retry answers the same case', async () => {
    const attempt = key();
    const first = await postJson(`${bff.url}/brokerage`, request('acme-rockets.com'), {
      origin: SHOP_ORIGIN,
      'idempotency-key': attempt,
    });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ domain: 'acme-rockets.com', tier: 'self_serve', budget_cents: 50_000 });
    expect(first.json.progress_url).toMatch(/^http:\/\/127\.0\.0\.1\/brokerage\/progress\?t=/);
    const sent = stub.callsTo('brokerage-create').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({
      domain: 'acme-rockets.com',
      tier: 'self_serve',
      buyer_email: 'buyer@example.com',
      budget: 50_000,
    });
    const writes = upstreamWrites();
    const again = await postJson(`${bff.url}/brokerage`, request('acme-rockets.com'), {
      origin: SHOP_ORIGIN,
      'idempotency-key': attempt,
    });
    expect([again.status, again.json.case_id, again.json.progress_url]).toEqual([
      200,
      first.json.case_id,
      first.json.progress_url,
    ]);
    expect(upstreamWrites()).toBe(writes);
    const stored = await listStoredCases(testDb.database.db, KEY_ID);
    expect(stored.filter((c) => c.case_id === first.json.case_id)).toMatchObject([
      { buyer_email: 'buyer@example.com', status: 'OPEN' },
    ]);
  });

  it('a new attempt for a name already in a case is 409 open_case', async () => {
    const answer = await postJson(`${bff.url}/brokerage`, request('acme-rockets.com'), {
      origin: SHOP_ORIGIN,
      'idempotency-key': key(),
    });
    expect([answer.status, answer.json.error.reason]).toEqual([409, 'open_case']);
  });
});

describe('brokerage.case_completed', () => {
  it('delivered twice runs the partner handler once and records the deal', async () => {
    const opened = await postJson(`${bff.url}/brokerage`, request('moon-bakery.com'), {
      origin: SHOP_ORIGIN,
      'idempotency-key': key(),
    });
    const caseId = opened.json.case_id as string;
    const event = {
      id: 'evt_brokerage_1',
      type: 'brokerage.case_completed',
      created_at: '2025-02-01T00:00:00.000Z',
      data: {
        case: {
          case_id: caseId,
          domain: 'moon-bakery.com',
          status: 'CLOSED_DEAL',
          deal_price_cents: 120_000,
          commission_cents: 6_000,
          currency: 'USD',
        },
      },
    };
    const body = JSON.stringify(event);
    const deliver = async () =>
      call(`${bff.url}/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature': await signWebhookPayload(WEBHOOK_SECRET, body),
        },
        body,
      });
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    await bff.bff.processInbox();
    await bff.bff.idle();
    expect(completed.filter((id) => id === event.id)).toEqual([event.id]);
    const stored = await listStoredCases(testDb.database.db, KEY_ID);
    expect(stored.find((c) => c.case_id === caseId)).toMatchObject({
      status: 'CLOSED_DEAL',
      deal_price_cents: 120_000,
      commission_cents: 6_000,
    });
  });
});
