/**
 * Fixtures dated in the past (`at` on each fixture body and on `POST /admin/settlements/run`): a history built weeks
 * back answers on the Partner API exactly as if it had happened then (settlement periods, payouts, date filters,
 * analytics windows, `GET /events` order), and a bad `at` is refused with the field named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MAX_AGE_DAYS } from '../src/admin/fixtures.ts';
import { admin, newPartner, startTestSandbox, type TestSandbox } from './helpers.ts';

const V1 = '/api/partner/v1';
const DAY = 86_400_000;
let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t?.stop());

/** The sandbox clock's reading `days` ago, RFC 3339. */
const daysAgo = (days: number) => new Date(t.clock.now() - days * DAY).toISOString();

describe('fixtures dated in the past', () => {
  it('build a history whose periods, payouts, filters, windows and events are those of the dates given', async () => {
    const { credential, client } = await newPartner(t.sandbox, t.clock);
    const key_id = credential.key_id;
    const start = t.clock.now();
    const ago = (days: number) => new Date(start - days * DAY).toISOString();
    const fixture = async (path: string, body: Record<string, unknown>) => {
      const answer = await admin(t.sandbox, 'POST', path, { key_id, ...body });
      expect(answer.status, answer.text).toBeLessThan(300);
      return answer.json;
    };
    const first = await fixture('/fixtures/orders', { status: 'TRANSFER_COMPLETED', at: ago(20) });
    const referral = await fixture('/fixtures/referral-sales', { clicks: 4, at: ago(19) });
    const firstRun = await fixture('/settlements/run', { at: ago(14) });
    const second = await fixture('/fixtures/orders', { status: 'TRANSFER_COMPLETED', at: ago(10) });
    const deal = await fixture('/fixtures/brokerage-cases', { status: 'CLOSED_DEAL', at: ago(9) });
    const secondRun = await fixture('/settlements/run', { at: ago(7) });
    const open = await fixture('/fixtures/orders', { status: 'EXTERNALLY_PAID', at: ago(2) });

    // The record, its timeline and its events carry the date given.
    expect(first.order.created_at).toBe(ago(20));
    expect(first.order.timeline.map((s: { at: string }) => s.at)).toEqual([ago(20), ago(20), ago(20)]);
    expect(first.events.map((e: { created_at: string }) => e.created_at)).toEqual([ago(20), ago(20), ago(20)]);
    expect(referral.sale.created_at).toBe(ago(19));
    expect(deal.case.created_at).toBe(ago(9));

    // Two settlement periods, back to back: the first from when the credential's history began.
    const settlements = (await client.request({ path: `${V1}/settlements` })).json.settlements;
    expect(
      settlements.map((s: { period_start: string; period_end: string; order_ids: string[] }) => [
        s.period_start,
        s.period_end,
        s.order_ids,
      ]),
    ).toEqual([
      [ago(14), ago(7), [second.order.public_id]],
      [ago(20), ago(14), [first.order.public_id]],
    ]);
    expect(firstRun.settlements).toHaveLength(1);
    expect(secondRun.settlements).toHaveLength(1);
    // The orders settled when their run closed.
    const settled = await client.request({ path: `${V1}/orders/${first.order.public_id}` });
    expect(settled.json.status).toBe('SETTLED');
    expect(settled.json.timeline.at(-1)).toMatchObject({ status: 'SETTLED', at: ago(14) });

    // Payouts: the referral commission in the first run, the brokerage deal's in the second, each paid then.
    const payouts = (await client.request({ path: `${V1}/payouts` })).json.payouts;
    expect(payouts.map((p: { paid_at: string; breakdown: unknown }) => [p.paid_at, p.breakdown])).toEqual([
      [ago(7), { non_mor_cents: 0, brokerage_cents: deal.case.commission_cents }],
    ]);
    const referralPayouts = (await client.request({ path: `${V1}/me/payouts` })).json.payouts;
    expect(referralPayouts.map((p: { paid_at: string; amount_cents: number }) => [p.paid_at, p.amount_cents])).toEqual([
      [ago(14), referral.sale.commission_cents],
    ]);

    // Date filters and windows see each record on its date.
    const window = { from: ago(12), to: ago(5) };
    const transactions = (await client.request({ path: `${V1}/transactions`, query: window })).json.transactions;
    expect(transactions.map((x: { transaction_id: string }) => x.transaction_id)).toEqual([
      deal.case.case_id,
      second.order.public_id,
    ]);
    const then = (await client.request({ path: `${V1}/analytics`, query: { from: ago(20), to: ago(18) } })).json;
    expect([then.clicks, then.sales]).toEqual([4, 1]);
    const lastWeek = (await client.request({ path: `${V1}/analytics`, query: { from: ago(7) } })).json;
    expect([lastWeek.clicks, lastWeek.sales]).toEqual([0, 0]);

    // The events list in creation order, their dates never going back.
    const events = (await client.request({ path: `${V1}/events`, query: { limit: '100' } })).json.events;
    const dates = events.map((e: { created_at: string }) => e.created_at);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0]).toBe(ago(20));
    expect(dates.at(-1)).toBe(ago(2));
    expect(events.at(-1).data.order.public_id).toBe(open.order.public_id);
  });

  it('refuses an at in the future, too old, not RFC 3339 or before the latest record, naming the field', async () => {
    const { credential } = await newPartner(t.sandbox, t.clock);
    const key_id = credential.key_id;
    const post = (path: string, body: Record<string, unknown>) => admin(t.sandbox, 'POST', path, { key_id, ...body });

    for (const at of [new Date(t.clock.now() + 60_000).toISOString(), daysAgo(FIXTURE_MAX_AGE_DAYS + 1)]) {
      const refused = await post('/fixtures/orders', { status: 'EXTERNALLY_PAID', at });
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe('validation_error');
      expect(refused.json.error.message).toMatch(/^at: .*(future|days before)/);
    }
    for (const at of ['yesterday', '2026-10-16 09:30:00', '2026-10-16T09:30:00', 1_760_000_000]) {
      const refused = await post('/fixtures/referral-sales', { at });
      expect(refused.status, String(at)).toBe(400);
      expect(refused.json.error.message).toMatch(/\bat\b/);
    }
    const tooLateForTheRun = await admin(t.sandbox, 'POST', '/settlements/run', { at: daysAgo(1) });
    expect(tooLateForTheRun.status).toBe(400);
    expect(tooLateForTheRun.json.error.message).toMatch(/at needs key_id/);

    // History is built oldest first: nothing may be dated before what is already there.
    expect((await post('/fixtures/orders', { status: 'EXTERNALLY_PAID', at: daysAgo(3) })).status).toBe(201);
    const before = await post('/fixtures/brokerage-cases', { status: 'OPEN', at: daysAgo(4) });
    expect(before.status).toBe(409);
    expect(before.json.error.code).toBe('conflict');
    expect(before.json.error.message).toMatch(/^at: .* is before .*'s latest record/);
    expect((await post('/settlements/run', { at: daysAgo(4) })).status).toBe(409);
    expect((await post('/fixtures/brokerage-cases', { status: 'OPEN', at: daysAgo(3) })).status).toBe(201);
  });
});
