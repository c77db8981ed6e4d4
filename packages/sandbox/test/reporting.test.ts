/**
 * Settlement, history and payouts (Partner API spec 2.7), brokerage (2.6) and referral and reporting (4.1), over HTTP: a
 * settlement run closes a period, transactions carry totals and filters, a brokerage case renders its no-login
 * progress page and emits `brokerage.case_completed` on a deal, and a tracked link really redirects, counts the
 * click and gets the sale attributed.
 */
import {
  analyticsSchema,
  brokerageCaseListSchema,
  brokerageCaseSchema,
  clicksReportSchema,
  commissionListSchema,
  linkListSchema,
  linkSchema,
  payoutListSchema,
  referralSaleListSchema,
  settlementListSchema,
  transactionListSchema,
} from '@domainkit/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory, TEST_CARDS } from '../src/index.ts';
import {
  admin,
  newPartner,
  pay,
  send,
  startTestSandbox,
  tokenOf,
  type TestSandbox,
  partnerAnswers,
} from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(1800);
let next = 0;
const fresh = () => pool[next++]!;

beforeAll(async () => {
  t = await startTestSandbox({ deliverWebhooks: false });
});
afterAll(() => t?.stop());
beforeEach(() => t.clock.advance(61));

const code = (a: { status: number; json: { error?: { code?: string } } | undefined }) => ({
  status: a.status,
  code: a.json?.error?.code,
});

describe('settlement, transactions and payouts', () => {
  it('settles the completed orders of the period, pays non-MoR commissions, and reports every sale with totals', async () => {
    const { client, credential } = await newPartner(t.sandbox, t.clock);
    const buy = async (d: { name: string; price_cents: number }) =>
      (
        await client.request({
          method: 'POST',
          path: `${V1}/orders`,
          headers: { 'Idempotency-Key': `st-${d.name}` },
          json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
        })
      ).json as { public_id: string };
    const [d1, d2, d3, d4] = [fresh(), fresh(), fresh(), fresh()];
    const completed = await buy(d1);
    const open = await buy(d2);
    const refunded = await buy(d3);
    await admin(t.sandbox, 'POST', `/orders/${completed.public_id}/start-transfer`);
    await admin(t.sandbox, 'POST', `/orders/${completed.public_id}/confirm-delivery`);
    expect(
      (await client.request({ method: 'POST', path: `${V1}/refunds`, json: { order_id: refunded.public_id } })).status,
    ).toBe(201);
    const session = await client.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain: d4.name } });
    expect(
      (await pay(t.sandbox, { pt: tokenOf(session.json.checkout_url), card_number: TEST_CARDS.succeeds })).status,
    ).toBe(303);

    t.clock.advance(3600);
    const run = await admin(t.sandbox, 'POST', '/settlements/run', { key_id: credential.key_id });
    expect(run.status).toBe(200);
    expect(run.json.events.map((e: { data: { order: { public_id: string } } }) => e.data.order.public_id)).toEqual([
      completed.public_id,
    ]);

    const settlements = settlementListSchema.parse((await client.request({ path: `${V1}/settlements` })).json);
    expect(settlements.settlements).toHaveLength(1);
    expect(settlements.settlements[0]).toMatchObject({
      order_count: 1,
      order_ids: [completed.public_id],
      gross_sold_cents: d1.price_cents,
      commission_retained_cents: d1.price_cents / 10,
      amount_owed_cents: d1.price_cents - d1.price_cents / 10,
      currency: 'USD',
    });
    expect((await client.request({ path: `${V1}/orders/${completed.public_id}` })).json.status).toBe('SETTLED');
    expect((await client.request({ path: `${V1}/orders/${open.public_id}` })).json.status).toBe('EXTERNALLY_PAID');

    const payouts = payoutListSchema.parse((await client.request({ path: `${V1}/payouts` })).json);
    expect(payouts.payouts).toHaveLength(1);
    expect(payouts.payouts[0]).toMatchObject({
      kind: 'partner',
      amount_cents: (d4.price_cents * 8) / 100,
      status: 'paid',
      breakdown: { non_mor_cents: (d4.price_cents * 8) / 100, brokerage_cents: 0 },
    });
    expect(payouts.total_paid_cents).toBe((d4.price_cents * 8) / 100);

    const all = transactionListSchema.parse((await client.request({ path: `${V1}/transactions` })).json);
    expect(all.transactions.map((x) => [x.domain, x.payment_model, x.status])).toEqual([
      [d4.name, 'non_mor', 'COMPLETED'],
      [d3.name, 'mor', 'REFUNDED'],
      [d2.name, 'mor', 'EXTERNALLY_PAID'],
      [d1.name, 'mor', 'SETTLED'],
    ]);
    expect(all.totals).toMatchObject({ count: 4, gmv_cents: d1.price_cents + d2.price_cents + d4.price_cents });
    expect(all.totals!.commission_cents).toBe(d1.price_cents / 10 + d2.price_cents / 10 + (d4.price_cents * 8) / 100);

    const nonMor = transactionListSchema.parse(
      (await client.request({ path: `${V1}/transactions`, query: { payment_model: 'non_mor' } })).json,
    );
    expect(nonMor.transactions.map((x) => x.domain)).toEqual([d4.name]);
    expect(nonMor.totals).toMatchObject({ count: 1, gmv_cents: d4.price_cents });
    const refundedOnly = transactionListSchema.parse(
      (await client.request({ path: `${V1}/transactions`, query: { status: 'REFUNDED' } })).json,
    );
    expect(refundedOnly.transactions.map((x) => x.domain)).toEqual([d3.name]);
    expect(refundedOnly.totals).toMatchObject({ count: 1, gmv_cents: 0 });
    const future = transactionListSchema.parse(
      (await client.request({ path: `${V1}/transactions`, query: { from: new Date(t.clock.now()).toISOString() } }))
        .json,
    );
    expect(future.transactions).toEqual([]);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 4; i++) {
      const page = transactionListSchema.parse(
        (await client.request({ path: `${V1}/transactions`, query: { limit: '3', ...(cursor ? { cursor } : {}) } }))
          .json,
      );
      seen.push(...page.transactions.map((x) => x.transaction_id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(all.transactions.map((x) => x.transaction_id));

    // A second run has nothing to settle or pay.
    const again = await admin(t.sandbox, 'POST', '/settlements/run', { key_id: credential.key_id });
    expect(again.json).toMatchObject({ settlements: [], payouts: [], events: [] });
  });

  it('requires buy for settlements and report for transactions and payouts', async () => {
    const { client } = await newPartner(t.sandbox, t.clock, { scopes: ['search'] });
    for (const path of ['/settlements', '/transactions', '/payouts'])
      expect(code(await client.request({ path: `${V1}${path}` }))).toEqual({ status: 403, code: 'forbidden' });
    const { client: reporter } = await newPartner(t.sandbox, t.clock, { scopes: ['report'] });
    expect((await reporter.request({ path: `${V1}/transactions` })).status).toBe(200);
    expect((await reporter.request({ path: `${V1}/settlements` })).status).toBe(403);
  });
});

describe('brokerage', () => {
  it('opens a case with a no-login progress page, lists it, and emits brokerage.case_completed on a deal', async () => {
    const { client, credential } = await newPartner(t.sandbox, t.clock);
    const domain = 'my-dream-name.com';
    expect((await client.request({ path: `${V1}/brokerage/eligibility`, query: { domain } })).json).toMatchObject({
      domain,
      eligible: true,
      reason: null,
    });
    const listed = fresh();
    expect(
      (await client.request({ path: `${V1}/brokerage/eligibility`, query: { domain: listed.name } })).json,
    ).toMatchObject({ eligible: false, reason: 'listed' });
    expect(
      (await client.request({ path: `${V1}/brokerage/eligibility`, query: { domain: 'live-site.com' } })).json,
    ).toMatchObject({ eligible: false, reason: 'live_site' });

    const opened = await client.request({
      method: 'POST',
      path: `${V1}/brokerage`,
      json: { domain, tier: 'managed', buyer_email: 'buyer@example.com', budget: 500_000 },
    });
    expect(opened.status).toBe(201);
    const created = brokerageCaseSchema.parse(opened.json);
    expect(created).toMatchObject({ domain, tier: 'managed', status: 'OPEN', budget_cents: 500_000, currency: 'USD' });
    expect(created.progress_url.startsWith(`${t.sandbox.url}/brokerage/progress?t=`)).toBe(true);
    const progress = new URL(created.progress_url);

    const page = await send(t.sandbox, { path: progress.pathname, query: progress.search.slice(1) });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain(`data-testid="case-domain">${domain}<`);
    expect(page.text).toContain('data-testid="case-status">Case opened<');
    // The timeline says what happens next once, after the step's name.
    const timeline = /<ul data-testid="case-timeline">(.*?)<\/ul>/s.exec(page.text)?.[1] ?? '';
    expect(timeline).toContain('UTC</time>: Case opened. A broker will approach the owner on the buyer&#39;s behalf.');
    expect(timeline.match(/Case opened/g)).toHaveLength(1);
    expect(
      (await send(t.sandbox, { path: '/brokerage/progress', query: 't=not-a-real-token-at-all-0000' })).status,
    ).toBe(404);
    expect(t.logs.text()).not.toContain(progress.searchParams.get('t')!);

    expect((await client.request({ path: `${V1}/brokerage/eligibility`, query: { domain } })).json).toMatchObject({
      eligible: false,
      reason: 'open_case',
    });
    expect(
      code(
        await client.request({
          method: 'POST',
          path: `${V1}/brokerage`,
          json: { domain, tier: 'self_serve', buyer_email: 'b@example.com', budget: 1000 },
        }),
      ),
    ).toEqual({ status: 409, code: 'conflict' });

    const { client: stranger } = await newPartner(t.sandbox, t.clock);
    expect((await client.request({ path: `${V1}/brokerage/${created.case_id}` })).json.timeline).toHaveLength(1);
    expect(code(await stranger.request({ path: `${V1}/brokerage/${created.case_id}` }))).toEqual({
      status: 404,
      code: 'not_found',
    });

    expect((await admin(t.sandbox, 'POST', `/brokerage/${created.case_id}/advance`)).json.case.status).toBe(
      'CONTACTING_OWNER',
    );
    expect((await admin(t.sandbox, 'POST', `/brokerage/${created.case_id}/advance`)).json.case.status).toBe(
      'NEGOTIATING',
    );
    expect(code(await admin(t.sandbox, 'POST', `/brokerage/${created.case_id}/advance`))).toEqual({
      status: 409,
      code: 'conflict',
    });
    const closed = await admin(t.sandbox, 'POST', `/brokerage/${created.case_id}/close`, {
      deal: true,
      price_cents: 450_000,
    });
    expect(closed.status).toBe(200);
    expect(closed.json.events).toEqual([
      expect.objectContaining({
        type: 'brokerage.case_completed',
        data: {
          case: expect.objectContaining({ case_id: created.case_id, status: 'CLOSED_DEAL', deal_price_cents: 450_000 }),
        },
      }),
    ]);
    const events = (await client.request({ path: `${V1}/events` })).json.events as Array<{ id: string; type: string }>;
    expect(events.map((e) => e.type)).toEqual(['brokerage.case_completed']);
    expect(code(await admin(t.sandbox, 'POST', `/brokerage/${created.case_id}/close`, { deal: false }))).toEqual({
      status: 409,
      code: 'conflict',
    });

    const after = await send(t.sandbox, { path: progress.pathname, query: progress.search.slice(1) });
    expect(after.text).toContain('data-testid="case-status">Deal closed<');
    expect(after.text).toContain('$4,500.00');

    const list = brokerageCaseListSchema.parse((await client.request({ path: `${V1}/brokerage` })).json);
    expect(list.cases.map((c) => [c.case_id, c.status, c.deal_price_cents, c.commission_cents])).toEqual([
      [created.case_id, 'CLOSED_DEAL', 450_000, 22_500],
    ]);
    const deals = transactionListSchema.parse(
      (await client.request({ path: `${V1}/transactions`, query: { payment_model: 'brokerage' } })).json,
    );
    expect(deals.transactions).toEqual([
      expect.objectContaining({ transaction_id: created.case_id, gmv_cents: 450_000, commission_cents: 22_500 }),
    ]);
    await admin(t.sandbox, 'POST', '/settlements/run', { key_id: credential.key_id });
    const payouts = payoutListSchema.parse((await client.request({ path: `${V1}/payouts` })).json);
    expect(payouts.payouts[0]).toMatchObject({ amount_cents: 22_500, breakdown: { brokerage_cents: 22_500 } });
  });

  it('lists cases with the report scope (broker alone cannot), and validates the request', async () => {
    const { client: broker } = await newPartner(t.sandbox, t.clock, { scopes: ['broker'] });
    expect(code(await broker.request({ path: `${V1}/brokerage` }))).toEqual({ status: 403, code: 'forbidden' });
    for (const json of [
      { domain: 'x-y.com', tier: 'premium', buyer_email: 'a@example.com', budget: 100 },
      { domain: 'x-y.com', tier: 'managed', buyer_email: 'nope', budget: 100 },
      { domain: 'x-y.com', tier: 'managed', buyer_email: 'a@example.com', budget: 0 },
      { domain: 'x-y.com', tier: 'managed', buyer_email: 'a@example.com' },
    ]) {
      expect(code(await broker.request({ method: 'POST', path: `${V1}/brokerage`, json }))).toEqual({
        status: 400,
        code: 'validation_error',
      });
    }
  });
});

describe('referral and reporting', () => {
  it('answers 403 with a clear message for a credential not linked to an affiliate account', async () => {
    const { client } = await newPartner(t.sandbox, t.clock, { affiliate: false });
    for (const [method, path] of [
      ['POST', '/links'],
      ['GET', '/links'],
      ['GET', '/me/clicks'],
      ['GET', '/me/sales'],
      ['GET', '/me/commissions'],
      ['GET', '/me/payouts'],
      ['GET', '/analytics'],
    ] as const) {
      const answer = await client.request({
        method,
        path: `${V1}${path}`,
        ...(method === 'POST' ? { json: { kind: 'generic' } } : {}),
      });
      expect(code(answer)).toEqual({ status: 403, code: 'forbidden' });
      expect(answer.json.error.message).toMatch(/not linked to an affiliate account/);
    }
  });

  it('tracks a link: the redirect counts the click, a purchase through it is attributed, commissions accrue and are paid out', async () => {
    const { client, credential } = await newPartner(t.sandbox, t.clock);
    const d = fresh();
    const created = await client.request({
      method: 'POST',
      path: `${V1}/links`,
      json: { kind: 'domain', domain: d.name, label: 'newsletter' },
    });
    expect(created.status).toBe(201);
    const link = linkSchema.parse(created.json);
    expect(link).toMatchObject({ kind: 'domain', domain: d.name, clicks: 0, sales: 0 });

    // The tracked link really redirects, with the referral in the URL and a cookie.
    const path = new URL(link.url).pathname;
    const redirect = await send(t.sandbox, { path });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/market/${d.name.replace('.', '\\.')}\\?ref=`));
    expect(redirect.headers.get('set-cookie')).toMatch(/^dk_ref=/);
    const storefront = await send(t.sandbox, { path: location.split('?')[0]!, query: location.split('?')[1]! });
    expect(storefront.status).toBe(200);
    expect(storefront.text).toContain(`data-testid="market-domain">${d.name}<`);
    const ref = new URLSearchParams(location.split('?')[1]).get('ref')!;
    const buy = await send(t.sandbox, {
      method: 'POST',
      path: '/market/buy',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ domain: d.name, ref }).toString(),
    });
    expect(buy.status).toBe(303);
    const checkout = new URL(buy.headers.get('location')!, t.sandbox.url);
    expect(
      (await pay(t.sandbox, { pt: checkout.searchParams.get('pt')!, card_number: TEST_CARDS.succeeds })).status,
    ).toBe(303);
    // Bought on the marketplace's own storefront: the hosted checkout names no partner shop, named or not.
    await admin(t.sandbox, 'PATCH', `/credentials/${credential.key_id}`, { display_name: 'Acme Domains' });
    const receipt = await send(t.sandbox, { path: '/checkout/receipt', query: checkout.search.slice(1) });
    expect(receipt.text).toContain('<div class="brand"><span>Marketplace checkout</span>');

    const links = linkListSchema.parse((await client.request({ path: `${V1}/links` })).json);
    expect(links.links).toEqual([expect.objectContaining({ link_id: link.link_id, clicks: 1, sales: 1 })]);

    // The back office records more clicks and another sale; then the first sale is refunded.
    expect((await admin(t.sandbox, 'POST', `/links/${link.link_id}/clicks`, { count: 3 })).json.clicks).toBe(4);
    const other = fresh();
    const sale = await admin(t.sandbox, 'POST', `/links/${link.link_id}/sales`, {
      domain: other.name,
      buyer_email: 'jane@example.com',
    });
    expect(sale.status).toBe(201);
    expect(sale.json.sale).toMatchObject({ amount_cents: other.price_cents, commission_cents: other.price_cents / 20 });

    const clicks = clicksReportSchema.parse((await client.request({ path: `${V1}/me/clicks` })).json);
    expect(clicks).toMatchObject({ clicks: 4, by_link: [{ link_id: link.link_id, clicks: 4 }] });
    const windowed = clicksReportSchema.parse(
      (await client.request({ path: `${V1}/me/clicks`, query: { from: new Date(t.clock.now() + 1000).toISOString() } }))
        .json,
    );
    expect(windowed.clicks).toBe(0);

    const sales = referralSaleListSchema.parse((await client.request({ path: `${V1}/me/sales` })).json);
    expect(sales.sales.map((s) => [s.domain, s.amount_cents, s.commission_cents, s.buyer.email])).toEqual([
      [other.name, other.price_cents, other.price_cents / 20, 'j***@example.com'],
      // Bought on the hosted checkout, which asks the buyer's e-mail: masked like any referral sale's.
      [d.name, d.price_cents, d.price_cents / 20, 'b***@example.com'],
    ]);
    const firstSale = sales.sales[1]!.sale_id;
    const refunded = await admin(t.sandbox, 'POST', `/sales/${firstSale}/refund`);
    expect(refunded.json.reversal.amount_cents).toBe(-d.price_cents / 20);

    const analytics = analyticsSchema.parse((await client.request({ path: `${V1}/analytics` })).json);
    expect(analytics).toMatchObject({
      clicks: 4,
      sales: 1,
      conversion_rate: 0.25,
      gmv_cents: other.price_cents,
      commission_cents: other.price_cents / 20,
    });

    await admin(t.sandbox, 'POST', '/settlements/run', { key_id: credential.key_id });
    const referralPayouts = payoutListSchema.parse((await client.request({ path: `${V1}/me/payouts` })).json);
    expect(referralPayouts.payouts).toEqual([
      expect.objectContaining({ kind: 'referral', amount_cents: other.price_cents / 20 }),
    ]);
    expect(referralPayouts.total_paid_cents).toBe(other.price_cents / 20);
    // Partner payouts (GET /payouts) do not include referral commissions.
    expect(payoutListSchema.parse((await client.request({ path: `${V1}/payouts` })).json).payouts).toEqual([]);

    const ledger = commissionListSchema.parse((await client.request({ path: `${V1}/me/commissions` })).json);
    const c1 = d.price_cents / 20;
    const c2 = other.price_cents / 20;
    expect(ledger.commissions.map((l) => [l.type, l.status, l.amount_cents, l.balance_cents])).toEqual([
      ['accrued', 'reversed', c1, c1],
      ['accrued', 'paid_out', c2, c1 + c2],
      ['reversed', null, -c1, c2],
      ['paid_out', null, -c2, 0],
    ]);
    expect(ledger.totals).toMatchObject({
      accrued_cents: c1 + c2,
      pending_cents: 0,
      paid_out_cents: c2,
      reversed_cents: c1,
      balance_cents: 0,
    });
    const page = commissionListSchema.parse(
      (await client.request({ path: `${V1}/me/commissions`, query: { limit: '3' } })).json,
    );
    const rest = commissionListSchema.parse(
      (await client.request({ path: `${V1}/me/commissions`, query: { limit: '3', cursor: page.next_cursor! } })).json,
    );
    expect([...page.commissions, ...rest.commissions]).toEqual(ledger.commissions);
  });

  it('redirects generic and product links to the storefront, and answers 404 for an unknown code', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    const generic = linkSchema.parse(
      (await client.request({ method: 'POST', path: `${V1}/links`, json: { kind: 'generic' } })).json,
    );
    const product = linkSchema.parse(
      (
        await client.request({
          method: 'POST',
          path: `${V1}/links`,
          json: { kind: 'product', product: 'premium-names' },
        })
      ).json,
    );
    expect((await send(t.sandbox, { path: new URL(generic.url).pathname })).headers.get('location')).toMatch(
      /^\/market\?ref=/,
    );
    const productRedirect = (await send(t.sandbox, { path: new URL(product.url).pathname })).headers.get('location')!;
    expect(productRedirect).toMatch(/&product=premium-names$/);
    const market = await send(t.sandbox, { path: '/market', query: productRedirect.split('?')[1]! });
    expect(market.status).toBe(200);
    expect(market.text).toContain('data-testid="market-product">Recommended: premium-names<');
    expect((await send(t.sandbox, { path: '/r/doesnotexist1' })).status).toBe(404);
    expect(code(await client.request({ method: 'POST', path: `${V1}/links`, json: { kind: 'domain' } }))).toEqual({
      status: 400,
      code: 'validation_error',
    });
  });
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
