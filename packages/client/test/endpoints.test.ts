/**
 * Every Partner API endpoint of Partner API spec 4.1 and the webhook registration: the method and the full path (the webhook
 * registration has no /v1), the query or JSON body actually sent and signed, and the answer parsed with its
 * protocol schema, unknown fields kept.
 */
import { PARTNER_API_OPERATIONS } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { MarketplaceResponseError, type PartnerClient } from '../src/index.ts';
import {
  ORIGIN,
  checkoutAnswer,
  detailAnswer,
  eventAnswer,
  mockAgentPerTest,
  orderAnswer,
  quoteAnswer,
  script,
  searchAnswer,
  testClient,
  type ReceivedRequest,
} from './helpers.ts';

const agent = mockAgentPerTest({ assertNoPendingInterceptors: true });

const settlement = {
  settlement_id: 'stl_1',
  period_start: '2030-01-01T00:00:00Z',
  period_end: '2030-01-08T00:00:00Z',
  currency: 'USD',
  gross_sold_cents: 250000,
  commission_retained_cents: 25000,
  amount_owed_cents: 225000,
  order_count: 1,
};
const transaction = {
  transaction_id: 'txn_1',
  domain: 'coffeehouse.com',
  payment_model: 'mor',
  status: 'SETTLED',
  gmv_cents: 250000,
  commission_cents: 25000,
  currency: 'USD',
  created_at: '2030-01-01T00:00:00Z',
};
const payout = {
  payout_id: 'po_1',
  amount_cents: 1000,
  currency: 'USD',
  status: 'paid',
  created_at: '2030-01-01T00:00:00Z',
  paid_at: null,
};
const brokerageCase = {
  case_id: 'brk_1',
  domain: 'wanted.com',
  tier: 'managed',
  status: 'open',
  budget_cents: 500000,
  currency: 'USD',
  progress_url: `${ORIGIN}/brokerage/progress/tok`,
  created_at: '2030-01-01T00:00:00Z',
};
/** Referral and reporting answers in protocol's documented shapes (the client parses them with those schemas). */
const clicksReport = {
  from: null,
  to: '2030-02-01T00:00:00Z',
  clicks: 12,
  by_link: [{ link_id: 'lnk_1', clicks: 12 }],
};
const referralSale = {
  sale_id: 'rs_1',
  link_id: 'lnk_1',
  domain: 'coffeehouse.com',
  buyer: { email: 'b***@example.com' },
  amount_cents: 250000,
  commission_cents: 25000,
  currency: 'USD',
  status: 'COMPLETED',
  created_at: '2030-01-01T00:00:00Z',
};
const commissionEntry = {
  entry_id: 'com_1',
  type: 'accrued',
  status: 'pending',
  amount_cents: 2500,
  balance_cents: 2500,
  currency: 'USD',
  created_at: '2030-01-01T00:00:00Z',
};
const analytics = {
  from: null,
  to: null,
  currency: 'USD',
  clicks: 12,
  sales: 1,
  conversion_rate: 1 / 12,
  gmv_cents: 250000,
  commission_cents: 25000,
};
const link = {
  link_id: 'lnk_1',
  kind: 'domain',
  url: `${ORIGIN}/r/lnk_1`,
  domain: 'coffeehouse.com',
  clicks: 3,
  sales: 1,
  created_at: '2030-01-01T00:00:00Z',
};
const refund = {
  refund_id: 'rf_1',
  order_id: 'ord_0001',
  amount_cents: 250000,
  currency: 'USD',
  status: 'REFUNDED',
  created_at: '2030-01-01T00:00:00Z',
};

type Case = {
  name: string;
  method: string;
  path: string;
  query?: string;
  body?: unknown;
  status?: number;
  answer: unknown;
  call: (client: PartnerClient) => Promise<unknown>;
  expected: unknown;
};

const V1 = '/api/partner/v1';
const first = async <T>(iterable: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
};

const cases: Case[] = [
  {
    name: 'searchDomains',
    method: 'GET',
    path: `${V1}/domains/search`,
    query: 'q=coffee',
    answer: searchAnswer,
    call: (c) => c.searchDomains(' coffee '),
    expected: searchAnswer,
  },
  {
    name: 'getDomain',
    method: 'GET',
    path: `${V1}/domains/coffeehouse.com`,
    answer: detailAnswer,
    call: (c) => c.getDomain('CoffeeHouse.com'),
    expected: detailAnswer,
  },
  {
    name: 'getAvailability',
    method: 'GET',
    path: `${V1}/availability`,
    query: 'domain=unlisted.com',
    answer: { domain: 'unlisted.com', available: false, price_cents: null, currency: null },
    call: (c) => c.getAvailability('unlisted.com'),
    expected: { domain: 'unlisted.com', available: false, price_cents: null, currency: null },
  },
  {
    name: 'getPricing',
    method: 'GET',
    path: `${V1}/pricing`,
    query: 'domain=coffeehouse.com',
    answer: { domain: 'coffeehouse.com', price_cents: 250000, floor_price_cents: 200000, currency: 'USD' },
    call: (c) => c.getPricing('coffeehouse.com'),
    expected: { domain: 'coffeehouse.com', price_cents: 250000, floor_price_cents: 200000, currency: 'USD' },
  },
  {
    name: 'createCheckoutSession',
    method: 'POST',
    path: `${V1}/checkout-session`,
    body: { domain: 'coffeehouse.com', return_url: 'https://shop.example/thanks' },
    status: 201,
    answer: checkoutAnswer,
    call: (c) => c.createCheckoutSession({ domain: 'coffeehouse.com', return_url: 'https://shop.example/thanks' }),
    expected: checkoutAnswer,
  },
  {
    name: 'quotes.create',
    method: 'POST',
    path: `${V1}/quotes`,
    body: { domain: 'coffeehouse.com' },
    status: 201,
    answer: quoteAnswer,
    call: (c) => c.quotes.create({ domain: 'CoffeeHouse.com' }),
    expected: quoteAnswer,
  },
  {
    name: 'orders.create (quote field set)',
    method: 'POST',
    path: `${V1}/orders`,
    body: {
      domain: 'coffeehouse.com',
      quote_id: 'qt_signed.abc',
      expected_price: 250000,
      currency: 'USD',
      buyer: { email: 'ada@example.com', country: 'GB' },
      external_payment_ref: 'pay_1',
    },
    status: 201,
    answer: orderAnswer(),
    call: (c) =>
      c.orders.create({
        domain: 'coffeehouse.com',
        quote_id: 'qt_signed.abc',
        expected_price: 250000,
        currency: 'USD',
        buyer: { email: 'ada@example.com', country: 'gb' },
        external_payment_ref: 'pay_1',
      }),
    expected: orderAnswer(),
  },
  {
    name: 'orders.retrieve',
    method: 'GET',
    path: `${V1}/orders/ord_0001`,
    answer: { ...orderAnswer(), timeline: [{ status: 'EXTERNALLY_PAID', at: '2030-01-01T00:00:00Z' }] },
    call: (c) => c.orders.retrieve('ord_0001'),
    expected: { ...orderAnswer(), timeline: [{ status: 'EXTERNALLY_PAID', at: '2030-01-01T00:00:00Z' }] },
  },
  {
    name: 'orders.list with filters',
    method: 'GET',
    path: `${V1}/orders`,
    query: 'domain=coffeehouse.com&limit=50&status=SETTLED',
    answer: { orders: [orderAnswer('ord_1', 'SETTLED')], next_cursor: null },
    call: (c) => first(c.orders.list({ status: 'SETTLED', domain: 'coffeehouse.com' })),
    expected: [orderAnswer('ord_1', 'SETTLED')],
  },
  {
    name: 'refunds.create',
    method: 'POST',
    path: `${V1}/refunds`,
    body: { order_id: 'ord_0001', reason: 'buyer changed mind' },
    status: 201,
    answer: refund,
    call: (c) => c.refunds.create({ order_id: 'ord_0001', reason: 'buyer changed mind' }),
    expected: refund,
  },
  {
    name: 'settlements.list',
    method: 'GET',
    path: `${V1}/settlements`,
    query: 'from=2030-01-01T00%3A00%3A00Z&limit=50',
    answer: { settlements: [settlement], next_cursor: null },
    call: (c) => first(c.settlements.list({ from: '2030-01-01T00:00:00Z' })),
    expected: [settlement],
  },
  {
    name: 'transactions.list',
    method: 'GET',
    path: `${V1}/transactions`,
    query: 'limit=50&payment_model=mor',
    answer: {
      transactions: [transaction],
      next_cursor: null,
      totals: { gmv_cents: 250000, commission_cents: 25000, count: 1 },
    },
    call: (c) => first(c.transactions.list({ payment_model: 'mor' })),
    expected: [transaction],
  },
  {
    name: 'payouts.list',
    method: 'GET',
    path: `${V1}/payouts`,
    query: 'limit=50',
    answer: { payouts: [payout], next_cursor: null },
    call: (c) => first(c.payouts.list()),
    expected: [payout],
  },
  {
    name: 'brokerage.eligibility',
    method: 'GET',
    path: `${V1}/brokerage/eligibility`,
    query: 'domain=wanted.com',
    answer: { domain: 'wanted.com', eligible: true, reason: null },
    call: (c) => c.brokerage.eligibility('wanted.com'),
    expected: { domain: 'wanted.com', eligible: true, reason: null },
  },
  {
    name: 'brokerage.create',
    method: 'POST',
    path: `${V1}/brokerage`,
    body: { domain: 'wanted.com', tier: 'managed', buyer_email: 'ada@example.com', budget: 500000 },
    status: 201,
    answer: brokerageCase,
    call: (c) =>
      c.brokerage.create({ domain: 'wanted.com', tier: 'managed', buyer_email: 'ada@example.com', budget: 500000 }),
    expected: brokerageCase,
  },
  {
    name: 'brokerage.retrieve',
    method: 'GET',
    path: `${V1}/brokerage/brk_1`,
    answer: brokerageCase,
    call: (c) => c.brokerage.retrieve('brk_1'),
    expected: brokerageCase,
  },
  {
    name: 'brokerage.list',
    method: 'GET',
    path: `${V1}/brokerage`,
    query: 'limit=50',
    answer: { cases: [brokerageCase], next_cursor: null },
    call: (c) => first(c.brokerage.list()),
    expected: [brokerageCase],
  },
  {
    name: 'brokerage.list with a status filter',
    method: 'GET',
    path: `${V1}/brokerage`,
    query: 'limit=50&status=OPEN',
    answer: { cases: [brokerageCase], next_cursor: null },
    call: (c) => first(c.brokerage.list({ status: 'OPEN' })),
    expected: [brokerageCase],
  },
  {
    name: 'links.create',
    method: 'POST',
    path: `${V1}/links`,
    body: { kind: 'domain', domain: 'coffeehouse.com' },
    status: 201,
    answer: link,
    call: (c) => c.links.create({ kind: 'domain', domain: 'coffeehouse.com' }),
    expected: link,
  },
  {
    name: 'links.list',
    method: 'GET',
    path: `${V1}/links`,
    query: 'limit=50',
    answer: { links: [link], next_cursor: null },
    call: (c) => first(c.links.list()),
    expected: [link],
  },
  {
    name: 'me.clicks',
    method: 'GET',
    path: `${V1}/me/clicks`,
    query: 'to=2030-02-01T00%3A00%3A00Z',
    answer: clicksReport,
    call: (c) => c.me.clicks({ to: '2030-02-01T00:00:00Z' }),
    expected: clicksReport,
  },
  {
    name: 'me.sales',
    method: 'GET',
    path: `${V1}/me/sales`,
    query: 'limit=50',
    answer: { sales: [referralSale], next_cursor: null },
    call: (c) => first(c.me.sales()),
    expected: [referralSale],
  },
  {
    name: 'me.commissions',
    method: 'GET',
    path: `${V1}/me/commissions`,
    query: 'limit=50',
    answer: { commissions: [commissionEntry], next_cursor: null },
    call: (c) => first(c.me.commissions()),
    expected: [commissionEntry],
  },
  {
    name: 'me.payouts',
    method: 'GET',
    path: `${V1}/me/payouts`,
    query: 'limit=50',
    answer: { payouts: [payout], next_cursor: null },
    call: (c) => first(c.me.payouts()),
    expected: [payout],
  },
  {
    name: 'analytics.retrieve',
    method: 'GET',
    path: `${V1}/analytics`,
    query: '',
    answer: analytics,
    call: (c) => c.analytics.retrieve(),
    expected: analytics,
  },
  {
    name: 'events.list',
    method: 'GET',
    path: `${V1}/events`,
    query: 'after_id=evt_0001&limit=50',
    answer: { events: [eventAnswer('evt_0002')], next_cursor: null },
    call: (c) => first(c.events.list({ after_id: 'evt_0001' })),
    expected: [eventAnswer('evt_0002')],
  },
  {
    name: 'webhooks.register (no /v1)',
    method: 'PUT',
    path: '/api/partner/webhooks',
    body: { url: 'https://shop.example/dk/webhooks', secret: 'whsec_test_0123456789abcdef' },
    answer: { url: 'https://shop.example/dk/webhooks', active: true, created_at: '2030-01-01T00:00:00Z' },
    call: (c) =>
      c.webhooks.register({ url: 'https://shop.example/dk/webhooks', secret: 'whsec_test_0123456789abcdef' }),
    expected: { url: 'https://shop.example/dk/webhooks', active: true, created_at: '2030-01-01T00:00:00Z' },
  },
];

describe('every endpoint', () => {
  // Protocol's operation table is the Partner API: an operation no client method calls is a gap in the client.
  it.each(Object.entries(PARTNER_API_OPERATIONS))('%s is called by a client method', (operationId, operation) => {
    const template = new RegExp(`^/api/partner${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const calls = cases.filter((c) => c.method === operation.method && template.test(c.path));
    expect(
      calls.map((c) => c.name),
      `no case calls ${operationId} (${operation.method} ${operation.path})`,
    ).not.toEqual([]);
  });

  it.each(cases)('$name: $method $path', async (c) => {
    const a = agent();
    const received: ReceivedRequest[] = [];
    script(a, c.method, (p) => p.split('?')[0] === c.path, [{ status: c.status ?? 200, body: c.answer }], received);
    const { client } = testClient(a);

    const result = await c.call(client);

    expect(result).toEqual(c.expected);
    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(req.method).toBe(c.method);
    expect(req.path).toBe(c.path);
    expect(req.query).toBe(c.query ?? '');
    if (c.body === undefined) expect(req.body.length).toBe(0);
    else {
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.body.toString('utf8'))).toEqual(c.body);
    }
  });
});

describe('answers', () => {
  it('keep unknown fields on orders and events', async () => {
    const a = agent();
    script(a, 'GET', `${V1}/orders/ord_0001`, [
      { status: 200, body: { ...orderAnswer(), fulfilment: { registrar: 'acme' } } },
    ]);
    script(a, 'GET', (p) => p.startsWith(`${V1}/events`), [
      {
        status: 200,
        body: { events: [{ ...eventAnswer('evt_9'), livemode: false }], next_cursor: null, has_more: false },
      },
    ]);
    const { client } = testClient(a);

    const order = await client.orders.retrieve('ord_0001');
    const [event] = await client.events.list().toArray();

    expect((order as Record<string, unknown>).fulfilment).toEqual({ registrar: 'acme' });
    expect((event as Record<string, unknown>).livemode).toBe(false);
  });

  it('raise MarketplaceResponseError naming the field when an order breaks its schema', async () => {
    const a = agent();
    script(a, 'POST', `${V1}/orders`, [{ status: 201, body: { ...orderAnswer(), sale_price_cents: '2500.00' } }]);
    const { client } = testClient(a);

    const error = await client.orders.create({ domain: 'coffeehouse.com', quote_id: 'qt_1' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MarketplaceResponseError);
    expect((error as Error).message).toContain(
      'POST /api/partner/v1/orders (orders.create) answered a body that breaks its schema: `sale_price_cents`',
    );
  });

  it('refuse bad input before sending, naming the field', async () => {
    const { client } = testClient(agent()); // no interceptor: anything sent would fail as connection_error

    await expect(client.orders.create({ domain: 'coffeehouse.com' })).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('send quote_id'),
    });
    await expect(
      client.orders.create({ domain: 'coffeehouse.com', quote_id: 'q', buyer: { email: 'nope' } }),
    ).rejects.toMatchObject({ code: 'validation_error', message: expect.stringContaining('`buyer.email`') });
    await expect(client.webhooks.register({ url: 'https://shop.example/hook', secret: 'short' })).rejects.toMatchObject(
      { code: 'validation_error', message: expect.stringContaining('at least 16 characters') },
    );
    await expect(client.orders.list({ limit: 500 }).toArray()).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('`limit`'),
    });
    await expect(
      client.brokerage.create({ domain: 'wanted.com', tier: 'gold' as 'managed', buyer_email: 'a@b.co', budget: 1 }),
    ).rejects.toMatchObject({ message: expect.stringContaining('tier must be') });
  });
});
