/**
 * A realistic history for the demo partner's console, made once per data folder through the sandbox's fixtures
 * (`POST /admin/fixtures/…`, which walk the same moves and emit the same events a real history does), spread over
 * the last six weeks with each record dated on its day (the fixtures' `at`): orders in every state, a weekly
 * settlement run closing each period with its statement and payouts, referral links with clicks and sales, and
 * brokerage cases with each outcome.
 */
import type { createSandboxAdmin } from '@domainkit/sandbox';

type Admin = ReturnType<typeof createSandboxAdmin>;
type OrderFixture = Parameters<Admin['fixtures']['order']>[0];
type CaseFixture = Parameters<Admin['fixtures']['brokerageCase']>[0];

const DAY_MS = 86_400_000;

/** One dated step of the history: `days` before today (UTC) at `hour` o'clock UTC. */
type Step = { readonly days: number; readonly hour: number } & (
  | { readonly order: Pick<OrderFixture, 'status' | 'via_review'> }
  | { readonly referral: { clicks: number; status?: 'REFUNDED' } }
  | { readonly brokerage: Pick<CaseFixture, 'status' | 'domain' | 'deal_price_cents'> }
  | { readonly settlementRun: true }
);

/**
 * The history, oldest first (the fixtures date a history from its oldest record to its newest). Orders delivered
 * before a weekly run end `SETTLED` by it; those after the last run wait in `TRANSFER_COMPLETED`, and the last
 * referral commission waits `pending`. Brokerage cases name unlisted three-word domains (the generated inventory
 * holds none). Every step is at least one day back, so none is dated in the future whatever the time of day.
 */
export const HISTORY: readonly Step[] = [
  { days: 41, hour: 10, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 40, hour: 15, referral: { clicks: 14 } },
  { days: 38, hour: 9, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 37, hour: 17, order: { status: 'CANCELLED' } },
  { days: 36, hour: 11, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 35, hour: 23, settlementRun: true },
  { days: 33, hour: 14, order: { status: 'TRANSFER_COMPLETED' } },
  {
    days: 32,
    hour: 16,
    brokerage: { status: 'CLOSED_DEAL', domain: 'harborlightbakery.com', deal_price_cents: 480_000 },
  },
  { days: 31, hour: 10, referral: { clicks: 9 } },
  { days: 30, hour: 13, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 29, hour: 18, order: { status: 'REFUNDED' } },
  { days: 28, hour: 23, settlementRun: true },
  { days: 27, hour: 9, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 25, hour: 12, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 24, hour: 20, referral: { clicks: 23 } },
  { days: 21, hour: 23, settlementRun: true },
  { days: 20, hour: 10, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 18, hour: 15, order: { status: 'TRANSFER_COMPLETED', via_review: true } },
  { days: 16, hour: 11, referral: { clicks: 5, status: 'REFUNDED' } },
  { days: 15, hour: 14, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 14, hour: 23, settlementRun: true },
  { days: 13, hour: 9, brokerage: { status: 'CLOSED_NO_DEAL', domain: 'copperkettlecafe.com' } },
  { days: 12, hour: 16, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 10, hour: 11, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 9, hour: 19, referral: { clicks: 11 } },
  { days: 7, hour: 23, settlementRun: true },
  { days: 6, hour: 10, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 5, hour: 9, brokerage: { status: 'NEGOTIATING', domain: 'meadowlarkstudio.net' } },
  { days: 5, hour: 14, order: { status: 'TRANSFER_IN_PROGRESS', via_review: true } },
  { days: 4, hour: 12, order: { status: 'TRANSFER_IN_PROGRESS' } },
  { days: 3, hour: 10, order: { status: 'HELD_FOR_REVIEW' } },
  { days: 3, hour: 15, brokerage: { status: 'OPEN', domain: 'bluequarryoutfitters.com' } },
  { days: 2, hour: 11, order: { status: 'EXTERNALLY_PAID' } },
  { days: 2, hour: 18, referral: { clicks: 7 } },
  { days: 1, hour: 9, order: { status: 'TRANSFER_COMPLETED' } },
  { days: 1, hour: 16, order: { status: 'EXTERNALLY_PAID' } },
];

/** The RFC 3339 instant of a step: midnight UTC `days` before `now`'s day, plus `hour` hours. */
function dateOf(step: Pick<Step, 'days' | 'hour'>, now: number): string {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  return new Date(midnight - step.days * DAY_MS + step.hour * 3_600_000).toISOString();
}

/**
 * Seeds the demo credential's six-week history unless it already has orders (a second `pnpm start` keeps the first
 * history).
 * @param now - today, milliseconds since the epoch (default the wall clock).
 * @returns whether it seeded.
 * @throws {SandboxAdminError} when a fixture is refused (the sandbox already holds a later history for the key).
 */
export async function seedConsoleHistory(admin: Admin, keyId: string, now = Date.now()): Promise<boolean> {
  const { orders } = await admin.orders.list({ key_id: keyId, limit: 1 });
  if (orders.length > 0) return false;
  for (const step of HISTORY) {
    const at = dateOf(step, now);
    if ('order' in step) await admin.fixtures.order({ key_id: keyId, at, ...step.order });
    else if ('referral' in step) await admin.fixtures.referralSale({ key_id: keyId, at, ...step.referral });
    else if ('brokerage' in step) await admin.fixtures.brokerageCase({ key_id: keyId, at, ...step.brokerage });
    else await admin.settlements.run({ key_id: keyId, at });
  }
  return true;
}
