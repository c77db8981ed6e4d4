/**
 * A realistic history for the demo partner's console, made once per data folder through the sandbox's fixtures
 * (`POST /admin/fixtures/…`, which walk the same moves and emit the same events a real history does): orders in
 * every state, settlement runs, referral links with clicks and sales, and brokerage cases with each outcome.
 */
import type { createSandboxAdmin } from '@domainkit/sandbox';

type Admin = ReturnType<typeof createSandboxAdmin>;

/** The orders made, by status (Partner API spec 3; `SETTLED` ones each close a settlement run). */
const ORDERS = [
  { status: 'EXTERNALLY_PAID' },
  { status: 'EXTERNALLY_PAID' },
  { status: 'HELD_FOR_REVIEW' },
  { status: 'TRANSFER_IN_PROGRESS' },
  { status: 'TRANSFER_IN_PROGRESS', via_review: true },
  { status: 'TRANSFER_COMPLETED' },
  { status: 'TRANSFER_COMPLETED' },
  { status: 'SETTLED' },
  { status: 'SETTLED' },
  { status: 'SETTLED' },
  { status: 'REFUNDED' },
  { status: 'CANCELLED' },
] as const;

/** Referral sales through domain links, with their clicks. */
const REFERRALS = [{ clicks: 14 }, { clicks: 9 }, { clicks: 23 }, { clicks: 5, status: 'REFUNDED' }] as const;

/** Brokerage cases, one per outcome. */
const CASES = [
  { status: 'OPEN' },
  { status: 'NEGOTIATING' },
  { status: 'CLOSED_DEAL', deal_price_cents: 480_000 },
  { status: 'CLOSED_NO_DEAL' },
] as const;

/**
 * Seeds the demo credential's history unless it already has orders (a second `pnpm start` keeps the first history).
 * @returns whether it seeded.
 */
export async function seedConsoleHistory(admin: Admin, keyId: string): Promise<boolean> {
  const { orders } = await admin.orders.list({ key_id: keyId, limit: 1 });
  if (orders.length > 0) return false;
  for (const order of ORDERS) await admin.fixtures.order({ key_id: keyId, ...order });
  for (const sale of REFERRALS) await admin.fixtures.referralSale({ key_id: keyId, ...sale });
  for (const brokerageCase of CASES) await admin.fixtures.brokerageCase({ key_id: keyId, ...brokerageCase });
  return true;
}
