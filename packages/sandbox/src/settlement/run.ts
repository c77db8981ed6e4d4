/**
 * The settlement run (Partner API spec 2.7, 3: "Settlement run closes the period"): for each credential, one period from the
 * end of its previous run (or its creation) to now.
 *
 * 1. MoR: every `TRANSFER_COMPLETED` order becomes `SETTLED` (event `order.settled`) and the credential gets a
 *    settlement statement: gross sold, commission retained (the partner's margin) and the amount owed to the
 *    service (gross minus commission).
 * 2. Partner payout: the unpaid commissions of non-MoR (hosted lander) sales and brokerage deals are paid out.
 * 3. Referral payout: the affiliate's pending commission accruals are paid out, with a `paid_out` ledger line.
 *
 * It runs in one transaction under an advisory lock, so two runs (two processes) never settle an order twice.
 * Empty statements and zero payouts are not created.
 */
import { sql } from 'kysely';
import type { PayoutRow, SandboxDb, SettlementRow } from '../db/tables.ts';
import type { WireEvent } from '../events/store.ts';
import { randomId } from '../ids.ts';
import { transitionOrder } from '../mor/orders.ts';

/** What a run did. */
export interface SettlementRunResult {
  readonly settlements: SettlementRow[];
  readonly payouts: PayoutRow[];
  /** The `order.settled` events, in order. */
  readonly events: WireEvent[];
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Runs settlement for one credential (`keyId`) or all.
 * @param now - the end of the period.
 * @param orderIds - settle only these orders (a statement of their own) and pay nothing out: the fixtures
 *   (admin/fixtures.ts) settle one order without touching the rest of the world.
 */
export async function runSettlement(
  db: SandboxDb,
  input: { keyId?: string | undefined; now: Date; orderIds?: readonly string[] },
): Promise<SettlementRunResult> {
  const { now } = input;
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(7276100003)`.execute(trx);
    let credentialsQuery = trx
      .selectFrom('credentials')
      .select(['key_id', 'affiliate_id', 'created_at'])
      .orderBy('created_at');
    if (input.keyId !== undefined) credentialsQuery = credentialsQuery.where('key_id', '=', input.keyId);
    const credentials = await credentialsQuery.execute();
    const settlements: SettlementRow[] = [];
    const payouts: PayoutRow[] = [];
    const events: WireEvent[] = [];

    for (const credential of credentials) {
      const keyId = credential.key_id;
      const last = await sql<{
        end: Date | null;
      }>`select greatest((select max(period_end) from settlements where key_id = ${keyId}), (select max(period_end) from payouts where key_id = ${keyId})) as "end"`.execute(
        trx,
      );
      const periodStart = last.rows[0]?.end ?? credential.created_at;
      // A run dated before this credential's period began (it did not exist yet) closes nothing for it.
      if (periodStart > now) continue;

      let ordersQuery = trx
        .selectFrom('orders')
        .selectAll()
        .where('key_id', '=', keyId)
        .where('status', '=', 'TRANSFER_COMPLETED')
        .where('transfer_completed_at', '<=', now);
      if (input.orderIds !== undefined) {
        if (input.orderIds.length === 0) continue;
        ordersQuery = ordersQuery.where('public_id', 'in', input.orderIds);
      }
      const orders = await ordersQuery.orderBy('seq').forUpdate().execute();
      if (orders.length > 0) {
        const gross = sum(orders.map((o) => o.sale_price_cents));
        const commission = sum(orders.map((o) => o.commission_cents));
        const settlement = await trx
          .insertInto('settlements')
          .values({
            settlement_id: randomId('stl_', 20),
            key_id: keyId,
            period_start: periodStart,
            period_end: now,
            currency: orders[0]!.currency,
            gross_sold_cents: gross,
            commission_retained_cents: commission,
            amount_owed_cents: gross - commission,
            order_count: orders.length,
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        settlements.push(settlement);
        for (const order of orders) {
          const moved = await transitionOrder(trx, {
            publicId: order.public_id,
            action: 'settle',
            now,
            settlementId: settlement.settlement_id,
            note: `Settled in ${settlement.settlement_id}.`,
          });
          events.push(moved.event);
        }
      }
      if (input.orderIds !== undefined) continue;

      const sales = await trx
        .selectFrom('sales')
        .select(['id', 'commission_cents'])
        .where('key_id', '=', keyId)
        .where('payment_model', '=', 'non_mor')
        .where('link_id', 'is', null)
        .where('status', '=', 'COMPLETED')
        .where('payout_id', 'is', null)
        .where('created_at', '<=', now)
        .execute();
      const cases = await trx
        .selectFrom('brokerage_cases')
        .select(['case_id', 'commission_cents'])
        .where('key_id', '=', keyId)
        .where('status', '=', 'CLOSED_DEAL')
        .where('payout_id', 'is', null)
        .where('closed_at', '<=', now)
        .execute();
      const nonMor = sum(sales.map((s) => s.commission_cents));
      const brokerage = sum(cases.map((c) => c.commission_cents ?? 0));
      if (nonMor + brokerage > 0) {
        const payout = await trx
          .insertInto('payouts')
          .values({
            payout_id: randomId('po_', 20),
            key_id: keyId,
            kind: 'partner',
            amount_cents: nonMor + brokerage,
            currency: 'USD',
            status: 'paid',
            non_mor_cents: nonMor,
            brokerage_cents: brokerage,
            period_start: periodStart,
            period_end: now,
            created_at: now,
            paid_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        payouts.push(payout);
        if (sales.length > 0)
          await trx
            .updateTable('sales')
            .set({ payout_id: payout.payout_id })
            .where(
              'id',
              'in',
              sales.map((s) => s.id),
            )
            .execute();
        if (cases.length > 0)
          await trx
            .updateTable('brokerage_cases')
            .set({ payout_id: payout.payout_id })
            .where(
              'case_id',
              'in',
              cases.map((c) => c.case_id),
            )
            .execute();
      }

      if (credential.affiliate_id !== null) {
        const accruals = await trx
          .selectFrom('commission_ledger')
          .select(['id', 'amount_cents'])
          .where('key_id', '=', keyId)
          .where('type', '=', 'accrued')
          .where('status', '=', 'pending')
          .where('created_at', '<=', now)
          .execute();
        const referral = sum(accruals.map((a) => a.amount_cents));
        if (referral > 0) {
          const payout = await trx
            .insertInto('payouts')
            .values({
              payout_id: randomId('po_', 20),
              key_id: keyId,
              kind: 'referral',
              amount_cents: referral,
              currency: 'USD',
              status: 'paid',
              referral_cents: referral,
              period_start: periodStart,
              period_end: now,
              created_at: now,
              paid_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          payouts.push(payout);
          await trx
            .updateTable('commission_ledger')
            .set({ status: 'paid_out', payout_id: payout.payout_id })
            .where(
              'id',
              'in',
              accruals.map((a) => a.id),
            )
            .execute();
          await trx
            .insertInto('commission_ledger')
            .values({
              affiliate_id: credential.affiliate_id,
              key_id: keyId,
              type: 'paid_out',
              status: null,
              sale_id: null,
              payout_id: payout.payout_id,
              amount_cents: -referral,
              currency: 'USD',
              created_at: now,
            })
            .execute();
        }
      }
    }
    return { settlements, payouts, events };
  });
}

/** A settlement statement on the wire (Partner API spec 2.7). */
export function toSettlementWire(row: SettlementRow, orderIds: readonly string[]) {
  return {
    settlement_id: row.settlement_id,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    currency: row.currency,
    gross_sold_cents: Number(row.gross_sold_cents),
    commission_retained_cents: Number(row.commission_retained_cents),
    amount_owed_cents: Number(row.amount_owed_cents),
    order_count: row.order_count,
    order_ids: orderIds,
    created_at: row.created_at.toISOString(),
  };
}

/** A payout on the wire (Partner API spec 2.7). */
export function toPayoutWire(row: PayoutRow) {
  const breakdown =
    row.kind === 'referral'
      ? { referral_cents: Number(row.referral_cents) }
      : { non_mor_cents: Number(row.non_mor_cents), brokerage_cents: Number(row.brokerage_cents) };
  return {
    payout_id: row.payout_id,
    kind: row.kind,
    amount_cents: Number(row.amount_cents),
    currency: row.currency,
    status: row.status,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
    breakdown,
  };
}
