/**
 * Settlement and history routes (Partner API spec 2.7, 4.1 "Settlement, history, refunds"):
 *
 * - `GET /settlements?from=&to=&cursor=&limit=` (scope `buy`) → `{settlements, next_cursor}`: statements newest
 *   first, windowed on `period_end`.
 * - `GET /transactions?from=&to=&status=&payment_model=&cursor=&limit=` (scope `report`) → `{transactions,
 *   next_cursor, totals: {count, gmv_cents, commission_cents}}`: every sale of the credential (MoR orders, hosted
 *   lander and referral sales as `non_mor`, brokerage deals), newest first, windowed on `created_at`. `totals` cover
 *   the whole filtered history, not just the page; refunded and cancelled sales are listed and counted in `count`
 *   but add nothing to GMV or commission.
 * - `GET /payouts?from=&to=&cursor=&limit=` (scope `report`) → `{payouts, next_cursor, total_paid_cents}`: payouts
 *   of non-MoR commissions and brokerage cuts, newest first.
 *
 * `from` is inclusive, `to` exclusive (ISO 8601). All three count in the `reporting` rate-limit class.
 */
import { dateWindowParamsSchema, listTransactionsParamsSchema } from '@domainkit/protocol';
import express, { type Router } from 'express';
import { sql, type RawBuilder } from 'kysely';
import { authorize, credentialOf } from '../auth/authorize.ts';
import type { SandboxDb, SandboxExecutor } from '../db/tables.ts';
import { parseOrThrow } from '../http/api-error.ts';
import { decodeCursor, pageOf } from '../http/pagination.ts';
import { toPayoutWire, toSettlementWire } from './run.ts';

interface TransactionRow {
  transaction_id: string;
  domain: string;
  payment_model: string;
  status: string;
  gmv_cents: number;
  commission_cents: number;
  currency: string;
  created_at: Date;
}

function transactionsSource(keyId: string): RawBuilder<unknown> {
  return sql`(
    select public_id as transaction_id, domain, 'mor' as payment_model, status, sale_price_cents as gmv_cents, commission_cents, currency, created_at
      from orders where key_id = ${keyId}
    union all
    select id, domain, 'non_mor', status, price_cents, commission_cents, currency, created_at
      from sales where key_id = ${keyId} and payment_model = 'non_mor'
    union all
    select case_id, domain, 'brokerage', 'COMPLETED', deal_price_cents, commission_cents, currency, closed_at
      from brokerage_cases where key_id = ${keyId} and status = 'CLOSED_DEAL'
  ) as t`;
}

/** A page of payouts of one kind, with the total ever paid. */
export async function listPayouts(
  db: SandboxExecutor,
  input: {
    keyId: string;
    kind: 'partner' | 'referral';
    from?: string | undefined;
    to?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  },
) {
  let query = db.selectFrom('payouts').selectAll().where('key_id', '=', input.keyId).where('kind', '=', input.kind);
  if (input.from !== undefined) query = query.where('created_at', '>=', new Date(input.from));
  if (input.to !== undefined) query = query.where('created_at', '<', new Date(input.to));
  if (input.cursor !== undefined)
    query = query.where('seq', '<', decodeCursor('payouts', input.cursor, ['seq'])[0] as number);
  const rows = await query
    .orderBy('seq', 'desc')
    .limit(input.limit + 1)
    .execute();
  const page = pageOf('payouts', rows, input.limit, (r) => [r.seq]);
  const total = await db
    .selectFrom('payouts')
    .select(sql<string>`coalesce(sum(amount_cents), 0)`.as('total'))
    .where('key_id', '=', input.keyId)
    .where('kind', '=', input.kind)
    .where('status', '=', 'paid')
    .executeTakeFirstOrThrow();
  return {
    payouts: page.items.map(toPayoutWire),
    next_cursor: page.next_cursor,
    total_paid_cents: Number(total.total),
  };
}

/** Builds the settlement and history router (mounted under `/api/partner/v1`). */
export function settlementRouter(options: { db: SandboxDb }): Router {
  const { db } = options;
  const router = express.Router();

  router.get('/settlements', authorize({ scope: 'buy', rateClass: 'reporting' }), async (req, res) => {
    const params = parseOrThrow(dateWindowParamsSchema, req.query, 'query');
    const keyId = credentialOf(res).key_id;
    let query = db.selectFrom('settlements').selectAll().where('key_id', '=', keyId);
    if (params.from !== undefined) query = query.where('period_end', '>=', new Date(params.from));
    if (params.to !== undefined) query = query.where('period_end', '<', new Date(params.to));
    if (params.cursor !== undefined)
      query = query.where('seq', '<', decodeCursor('settlements', params.cursor, ['seq'])[0] as number);
    const rows = await query
      .orderBy('seq', 'desc')
      .limit(params.limit + 1)
      .execute();
    const page = pageOf('settlements', rows, params.limit, (r) => [r.seq]);
    const ids = page.items.map((s) => s.settlement_id);
    const orders =
      ids.length === 0
        ? []
        : await db
            .selectFrom('orders')
            .select(['public_id', 'settlement_id'])
            .where('settlement_id', 'in', ids)
            .orderBy('seq')
            .execute();
    res.json({
      settlements: page.items.map((s) =>
        toSettlementWire(
          s,
          orders.filter((o) => o.settlement_id === s.settlement_id).map((o) => o.public_id),
        ),
      ),
      next_cursor: page.next_cursor,
    });
  });

  router.get('/transactions', authorize({ scope: 'report', rateClass: 'reporting' }), async (req, res) => {
    const params = parseOrThrow(listTransactionsParamsSchema, req.query, 'query');
    const keyId = credentialOf(res).key_id;
    const filters: RawBuilder<unknown>[] = [sql`true`];
    if (params.from !== undefined) filters.push(sql`t.created_at >= ${new Date(params.from)}::timestamptz`);
    if (params.to !== undefined) filters.push(sql`t.created_at < ${new Date(params.to)}::timestamptz`);
    if (params.status !== undefined) filters.push(sql`t.status = ${params.status.toUpperCase()}`);
    if (params.payment_model !== undefined) filters.push(sql`t.payment_model = ${params.payment_model}`);
    const where = sql.join(filters, sql` and `);
    const page = [...filters];
    if (params.cursor !== undefined) {
      const [at, id] = decodeCursor('transactions', params.cursor, ['instant', 'text']) as [number, string];
      page.push(sql`(t.created_at, t.transaction_id) < (${new Date(at)}::timestamptz, ${id})`);
    }
    const rows =
      await sql<TransactionRow>`select * from ${transactionsSource(keyId)} where ${sql.join(page, sql` and `)} order by t.created_at desc, t.transaction_id desc limit ${params.limit + 1}`.execute(
        db,
      );
    const totals = await sql<{ count: number; gmv: string; commission: string }>`
      select count(*)::int as count,
             coalesce(sum(gmv_cents) filter (where status not in ('REFUNDED', 'CANCELLED')), 0) as gmv,
             coalesce(sum(commission_cents) filter (where status not in ('REFUNDED', 'CANCELLED')), 0) as commission
        from ${transactionsSource(keyId)} where ${where}`.execute(db);
    const result = pageOf('transactions', rows.rows, params.limit, (r) => [r.created_at.getTime(), r.transaction_id]);
    const total = totals.rows[0]!;
    res.json({
      transactions: result.items.map((r) => ({
        ...r,
        gmv_cents: Number(r.gmv_cents),
        commission_cents: Number(r.commission_cents),
        created_at: r.created_at.toISOString(),
      })),
      next_cursor: result.next_cursor,
      totals: {
        count: total.count,
        gmv_cents: Number(total.gmv),
        commission_cents: Number(total.commission),
        currency: 'USD',
      },
    });
  });

  router.get('/payouts', authorize({ scope: 'report', rateClass: 'reporting' }), async (req, res) => {
    const params = parseOrThrow(dateWindowParamsSchema, req.query, 'query');
    res.json(await listPayouts(db, { keyId: credentialOf(res).key_id, kind: 'partner', ...params }));
  });

  return router;
}
