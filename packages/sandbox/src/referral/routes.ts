/**
 * Referral and reporting routes (Partner API spec 4.1 "Referral and reporting"). All need a credential linked to an affiliate
 * account (Partner API spec 1), else 403 `forbidden` saying so. Date windows are `from` (inclusive) and `to` (exclusive), ISO
 * 8601; lists page with `cursor` and `limit`.
 *
 * - `POST /links` `{kind: generic|domain|product, domain?, product?, label?}` (scope `refer`) → 201 the link with its
 *   tracked `url` (`{base}/r/{code}`).
 * - `GET /links` (scope `refer`) → `{links, next_cursor}` with per-link `clicks` and `sales`.
 * - `GET /me/clicks?from=&to=` (scope `report`) → `{from, to, clicks, by_link: [{link_id, clicks}]}`.
 * - `GET /me/sales` (scope `report`) → `{sales, next_cursor}`: sales attributed to links, newest first: `buyer`
 *   (email masked), `domain`, `amount_cents`, `commission_cents`, `status`.
 * - `GET /me/commissions` (scope `report`) → `{commissions, next_cursor, totals}`: the ledger oldest first, each line
 *   with its signed `amount_cents` and the running `balance_cents`; totals `accrued_cents`, `pending_cents`,
 *   `paid_out_cents`, `reversed_cents`, `balance_cents` over the whole ledger.
 * - `GET /me/payouts` (scope `report`) → `{payouts, next_cursor, total_paid_cents}`: referral payouts.
 * - `GET /analytics?from=&to=` (scope `report`) → `{from, to, currency, clicks, sales, conversion_rate, gmv_cents,
 *   commission_cents}`: the referral funnel over the window.
 */
import {
  createLinkRequestSchema,
  dateRangeParamsSchema,
  dateWindowParamsSchema,
  pageParamsSchema,
} from '@domainkit/protocol';
import express, { type Request, type Router } from 'express';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { authorize, credentialOf } from '../auth/authorize.ts';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { parseOrThrow } from '../http/api-error.ts';
import { readJsonBody } from '../http/body.ts';
import { decodeCursor, pageOf } from '../http/pagination.ts';
import { listPayouts } from '../settlement/routes.ts';
import { createLink, linkStats, maskEmail, toLinkWire } from './links.ts';

/** What the referral routes need. */
export interface ReferralRouteOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly publicUrl: (req: Request) => string;
}

function windowOf(params: { from?: string | undefined; to?: string | undefined }) {
  return {
    from: params.from === undefined ? null : new Date(params.from),
    to: params.to === undefined ? null : new Date(params.to),
  };
}

/** Builds the referral and reporting router (mounted under `/api/partner/v1`). */
export function referralRouter(options: ReferralRouteOptions): Router {
  const { db, clock, logger } = options;
  const router = express.Router();
  const refer = (rateClass: 'manage' | 'read') => authorize({ scope: 'refer', rateClass, affiliate: true });
  const report = authorize({ scope: 'report', rateClass: 'reporting', affiliate: true });

  router.post('/links', refer('manage'), async (req, res) => {
    const input = parseOrThrow(createLinkRequestSchema, readJsonBody(req), 'link');
    const credential = credentialOf(res);
    const link = await createLink(db, {
      keyId: credential.key_id,
      affiliateId: credential.affiliate_id!,
      environment: credential.environment,
      ...input,
      now: new Date(clock()),
    });
    logger.info({ key_id: credential.key_id, link_id: link.link_id, kind: link.kind }, 'referral link created');
    res.status(201).json(toLinkWire(link, options.publicUrl(req), { clicks: 0, sales: 0 }));
  });

  router.get('/links', refer('read'), async (req, res) => {
    const params = parseOrThrow(pageParamsSchema, req.query, 'query');
    let query = db.selectFrom('referral_links').selectAll().where('key_id', '=', credentialOf(res).key_id);
    if (params.cursor !== undefined)
      query = query.where('seq', '<', decodeCursor('links', params.cursor, ['seq'])[0] as number);
    const rows = await query
      .orderBy('seq', 'desc')
      .limit(params.limit + 1)
      .execute();
    const page = pageOf('links', rows, params.limit, (r) => [r.seq]);
    const stats = await linkStats(
      db,
      page.items.map((l) => l.link_id),
    );
    const base = options.publicUrl(req);
    res.json({
      links: page.items.map((l) => toLinkWire(l, base, stats.get(l.link_id)!)),
      next_cursor: page.next_cursor,
    });
  });

  router.get('/me/clicks', report, async (req, res) => {
    const params = parseOrThrow(dateRangeParamsSchema, req.query, 'query');
    const { from, to } = windowOf(params);
    let query = db
      .selectFrom('referral_clicks')
      .innerJoin('referral_links', 'referral_links.link_id', 'referral_clicks.link_id')
      .select(['referral_clicks.link_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('referral_links.key_id', '=', credentialOf(res).key_id);
    if (from) query = query.where('referral_clicks.at', '>=', from);
    if (to) query = query.where('referral_clicks.at', '<', to);
    const rows = await query.groupBy('referral_clicks.link_id').orderBy('referral_clicks.link_id').execute();
    const byLink = rows.map((r) => ({ link_id: r.link_id, clicks: Number(r.n) }));
    res.json({
      from: params.from ?? null,
      to: params.to ?? null,
      clicks: byLink.reduce((a, b) => a + b.clicks, 0),
      by_link: byLink,
    });
  });

  router.get('/me/sales', report, async (req, res) => {
    const params = parseOrThrow(dateWindowParamsSchema, req.query, 'query');
    const { from, to } = windowOf(params);
    let query = db
      .selectFrom('sales')
      .selectAll()
      .where('key_id', '=', credentialOf(res).key_id)
      .where('link_id', 'is not', null);
    if (from) query = query.where('created_at', '>=', from);
    if (to) query = query.where('created_at', '<', to);
    if (params.cursor !== undefined) {
      const [at, id] = decodeCursor('sales', params.cursor, ['instant', 'text']) as [number, string];
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(new Date(at), id)));
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(params.limit + 1)
      .execute();
    const page = pageOf('sales', rows, params.limit, (r) => [r.created_at.getTime(), r.id]);
    res.json({
      sales: page.items.map((s) => ({
        sale_id: s.id,
        link_id: s.link_id,
        domain: s.domain,
        buyer: { email: maskEmail(s.buyer_email) },
        amount_cents: s.price_cents,
        commission_cents: s.commission_cents,
        currency: s.currency,
        status: s.status,
        created_at: s.created_at.toISOString(),
      })),
      next_cursor: page.next_cursor,
    });
  });

  router.get('/me/commissions', report, async (req, res) => {
    const params = parseOrThrow(dateWindowParamsSchema, req.query, 'query');
    const { from, to } = windowOf(params);
    const keyId = credentialOf(res).key_id;
    const after = params.cursor === undefined ? 0 : (decodeCursor('commissions', params.cursor, ['seq'])[0] as number);
    const rows = await sql<{
      id: number;
      type: string;
      status: string | null;
      sale_id: string | null;
      payout_id: string | null;
      amount_cents: number;
      currency: string;
      created_at: Date;
      balance: string;
    }>`
      select * from (
        select id, type, status, sale_id, payout_id, amount_cents, currency, created_at, sum(amount_cents) over (order by id) as balance
          from commission_ledger where key_id = ${keyId}
      ) l
      where id > ${after}
        and (${from}::timestamptz is null or created_at >= ${from}::timestamptz)
        and (${to}::timestamptz is null or created_at < ${to}::timestamptz)
      order by id limit ${params.limit + 1}`.execute(db);
    const totals = await sql<{ accrued: string; pending: string; paid_out: string; reversed: string; balance: string }>`
      select coalesce(sum(amount_cents) filter (where type = 'accrued'), 0) as accrued,
             coalesce(sum(amount_cents) filter (where type = 'accrued' and status = 'pending'), 0) as pending,
             coalesce(-sum(amount_cents) filter (where type = 'paid_out'), 0) as paid_out,
             coalesce(-sum(amount_cents) filter (where type = 'reversed'), 0) as reversed,
             coalesce(sum(amount_cents), 0) as balance
        from commission_ledger where key_id = ${keyId}`.execute(db);
    const page = pageOf('commissions', rows.rows, params.limit, (r) => [r.id]);
    const t = totals.rows[0]!;
    res.json({
      commissions: page.items.map((r) => ({
        entry_id: `cl_${r.id}`,
        type: r.type,
        status: r.status,
        sale_id: r.sale_id,
        payout_id: r.payout_id,
        amount_cents: r.amount_cents,
        balance_cents: Number(r.balance),
        currency: r.currency,
        created_at: r.created_at.toISOString(),
      })),
      next_cursor: page.next_cursor,
      totals: {
        accrued_cents: Number(t.accrued),
        pending_cents: Number(t.pending),
        paid_out_cents: Number(t.paid_out),
        reversed_cents: Number(t.reversed),
        balance_cents: Number(t.balance),
        currency: 'USD',
      },
    });
  });

  router.get('/me/payouts', report, async (req, res) => {
    const params = parseOrThrow(dateWindowParamsSchema, req.query, 'query');
    res.json(await listPayouts(db, { keyId: credentialOf(res).key_id, kind: 'referral', ...params }));
  });

  router.get('/analytics', report, async (req, res) => {
    const params = parseOrThrow(dateRangeParamsSchema, req.query, 'query');
    const { from, to } = windowOf(params);
    const keyId = credentialOf(res).key_id;
    const result = await sql<{ clicks: number; sales: number; gmv: string; commission: string }>`
      select
        (select count(*)::int from referral_clicks c join referral_links l on l.link_id = c.link_id
          where l.key_id = ${keyId} and (${from}::timestamptz is null or c.at >= ${from}::timestamptz) and (${to}::timestamptz is null or c.at < ${to}::timestamptz)) as clicks,
        count(*)::int as sales,
        coalesce(sum(price_cents), 0) as gmv,
        coalesce(sum(commission_cents), 0) as commission
      from sales
      where key_id = ${keyId} and link_id is not null and status = 'COMPLETED'
        and (${from}::timestamptz is null or created_at >= ${from}::timestamptz) and (${to}::timestamptz is null or created_at < ${to}::timestamptz)`.execute(
      db,
    );
    const r = result.rows[0]!;
    res.json({
      from: params.from ?? null,
      to: params.to ?? null,
      currency: 'USD',
      clicks: r.clicks,
      sales: r.sales,
      conversion_rate: r.clicks === 0 ? 0 : Math.round((r.sales / r.clicks) * 10_000) / 10_000,
      gmv_cents: Number(r.gmv),
      commission_cents: Number(r.commission),
    });
  });

  return router;
}
