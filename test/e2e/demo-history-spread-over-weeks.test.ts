/**
 * The demo's seeded history (issue 24: "a sandbox seeded with a realistic history"), read as the partner reads it on
 * the Partner API: sales on many days of the last six weeks (so the console's sales chart has a shape), several
 * settlement periods back to back, payouts paid at their runs, referral clicks on different days, orders in every
 * state, and events listed in the order of their dates.
 */
import { ORDER_STATUSES } from '@domainkit/protocol';
import { PartnerClient } from '@domainkit/client';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

const stack = useDemoStack('domainkit-demo-history-', { browser: false });
const DAY_MS = 86_400_000;

/** Every item of a cursor list. */
async function all<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}

describe('the demo history spreads over the last six weeks', () => {
  it('has sales on many days, several settlement periods, payouts and clicks on different days', async () => {
    const { credential, sandboxUrl } = stack.demo;
    const client = new PartnerClient({ baseUrl: sandboxUrl, keyId: credential.key_id, secret: credential.secret });
    const now = Date.now();
    const [transactions, settlements, payouts, referralPayouts, links, orders, events] = await Promise.all([
      all(client.transactions.list({ limit: 100 })),
      all(client.settlements.list({ limit: 100 })),
      all(client.payouts.list({ limit: 100 })),
      all(client.me.payouts({ limit: 100 })),
      all(client.links.list({ limit: 100 })),
      all(client.orders.list({ limit: 100 })),
      all(client.events.list({ limit: 100 })),
    ]);

    // Sales on at least ten distinct days, all within the last six weeks and none today or later.
    const saleDays = new Set(
      transactions.filter((t) => !['REFUNDED', 'CANCELLED'].includes(t.status)).map((t) => t.created_at.slice(0, 10)),
    );
    expect(saleDays.size).toBeGreaterThanOrEqual(10);
    for (const t of transactions) {
      expect(Date.parse(t.created_at)).toBeGreaterThan(now - 43 * DAY_MS);
      expect(Date.parse(t.created_at)).toBeLessThan(now);
    }

    // At least four weekly periods, back to back, oldest first from the bottom of the list.
    expect(settlements.length).toBeGreaterThanOrEqual(4);
    const periods = settlements.map((s) => [s.period_start, s.period_end]).reverse();
    for (let i = 1; i < periods.length; i++) expect(periods[i]![0]).toBe(periods[i - 1]![1]);
    expect(new Set(periods.map(([, end]) => end)).size).toBe(periods.length);
    expect(settlements.every((s) => s.order_count > 0 && s.amount_owed_cents > 0)).toBe(true);

    // Payouts: the brokerage deal's commission to the partner, referral commissions to the affiliate, on run dates.
    const runEnds = new Set(settlements.map((s) => s.period_end));
    expect(payouts.length).toBeGreaterThanOrEqual(1);
    expect(referralPayouts.length).toBeGreaterThanOrEqual(2);
    for (const p of [...payouts, ...referralPayouts]) {
      expect(p.amount_cents).toBeGreaterThan(0);
      expect([...runEnds]).toContain(p.period_end);
    }

    // Referral clicks on at least four different days.
    const clickDays = new Set(links.filter((l) => l.clicks > 0).map((l) => l.created_at.slice(0, 10)));
    expect(clickDays.size).toBeGreaterThanOrEqual(4);

    // Orders in every state of Partner API spec 3.
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(ORDER_STATUSES));

    // Events in creation order are in date order, from six weeks ago.
    const dates = events.map((e) => e.created_at);
    expect(dates).toEqual([...dates].sort());
    expect(Date.parse(dates[0]!)).toBeLessThan(now - 40 * DAY_MS);
  });
});
