/**
 * Brokerage routes of the Partner API (Partner API spec 4.1 "Brokerage", "Settlement, history, refunds"):
 *
 * - `GET /brokerage/eligibility?domain=` (scope `broker`) → `{domain, eligible, reason, message}`; `reason` is
 *   `listed`, `live_site`, `open_case`, or null when eligible.
 * - `POST /brokerage` `{domain, tier, buyer_email, budget}` (scope `broker`; `budget` in minor units of USD,
 *   positive) → 201 the case with `progress_url` (the buyer's no-login progress page) and its timeline. 409
 *   `conflict` when the domain is not eligible (the message gives the reason).
 * - `GET /brokerage/{case_id}` (scope `broker`) → the case with its timeline; only the caller's own cases (404
 *   otherwise).
 * - `GET /brokerage?status=&cursor=&limit=` (scope `report`, as the reference lists it: docs/spec-decisions.md) →
 *   `{cases, next_cursor}`, newest first, with outcomes (`deal_price_cents`, `commission_cents`).
 */
import {
  brokerageCaseListParamsSchema,
  createBrokerageCaseRequestSchema,
  domainParamsSchema,
} from '@domainkit/protocol';
import express, { type Request, type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { authorize, credentialOf } from '../auth/authorize.ts';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { readJsonBody } from '../http/body.ts';
import { decodeCursor, pageOf } from '../http/pagination.ts';
import { brokerageEligibility, caseTimeline, openCase, toCaseWire } from './cases.ts';

/** What the brokerage routes need. */
export interface BrokerageRouteOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The sandbox's public base URL for a request (the progress page is at `{base}/brokerage/progress?t={token}`). */
  readonly publicUrl: (req: Request) => string;
}

const createSchema = createBrokerageCaseRequestSchema.refine((b) => b.budget > 0, {
  message: 'budget must be a positive amount in minor units (cents) of USD',
  path: ['budget'],
});

/** Builds the brokerage router (mounted under `/api/partner/v1`). */
export function brokerageRouter(options: BrokerageRouteOptions): Router {
  const { db, clock, logger } = options;
  const router = express.Router();

  router.get('/brokerage/eligibility', authorize({ scope: 'broker', rateClass: 'read' }), async (req, res) => {
    const { domain } = parseOrThrow(domainParamsSchema, req.query, 'query');
    res.json(await brokerageEligibility(db, credentialOf(res).environment, domain));
  });

  router.post('/brokerage', authorize({ scope: 'broker', rateClass: 'manage' }), async (req, res) => {
    const input = parseOrThrow(createSchema, readJsonBody(req), 'brokerage case');
    const credential = credentialOf(res);
    const now = new Date(clock());
    const created = await db.transaction().execute((trx) =>
      openCase(trx, {
        credential,
        domain: input.domain,
        tier: input.tier,
        buyerEmail: input.buyer_email,
        budgetCents: input.budget,
        now,
      }),
    );
    logger.info(
      { key_id: credential.key_id, case_id: created.case_id, domain: created.domain },
      'brokerage case opened',
    );
    res.status(201).json(toCaseWire(created, options.publicUrl(req), await caseTimeline(db, created.case_id)));
  });

  router.get('/brokerage/:caseId', authorize({ scope: 'broker', rateClass: 'read' }), async (req, res) => {
    const caseId = parseOrThrow(z.string().min(1).max(100), req.params.caseId, 'case id');
    const row = await db
      .selectFrom('brokerage_cases')
      .selectAll()
      .where('case_id', '=', caseId)
      .where('key_id', '=', credentialOf(res).key_id)
      .executeTakeFirst();
    if (row === undefined) throw apiError('not_found', `No brokerage case ${caseId} for this credential.`);
    res.json(toCaseWire(row, options.publicUrl(req), await caseTimeline(db, caseId)));
  });

  router.get('/brokerage', authorize({ scope: 'report', rateClass: 'reporting' }), async (req, res) => {
    const params = parseOrThrow(brokerageCaseListParamsSchema, req.query, 'query');
    let query = db.selectFrom('brokerage_cases').selectAll().where('key_id', '=', credentialOf(res).key_id);
    if (params.status !== undefined) query = query.where('status', '=', params.status);
    if (params.cursor !== undefined)
      query = query.where('seq', '<', decodeCursor('cases', params.cursor, ['seq'])[0] as number);
    const rows = await query
      .orderBy('seq', 'desc')
      .limit(params.limit + 1)
      .execute();
    const page = pageOf('cases', rows, params.limit, (r) => [r.seq]);
    const base = options.publicUrl(req);
    res.json({ cases: page.items.map((r) => toCaseWire(r, base)), next_cursor: page.next_cursor });
  });

  return router;
}
