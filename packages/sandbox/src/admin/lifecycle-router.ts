/**
 * Admin triggers that move the sandbox world on (the marketplace's back office), under `/admin` (bearer-token
 * guarded by admin/router.ts). Each trigger answers what changed and `events`: the events it caused, in order.
 *
 * | call | does | event |
 * |---|---|---|
 * | `GET /admin/orders?key_id=&status=&limit=` | lists orders of every credential | |
 * | `POST /admin/orders/{id}/hold` | `EXTERNALLY_PAID` → `HELD_FOR_REVIEW` | `order.held_for_review` |
 * | `POST /admin/orders/{id}/clear-review` | `HELD_FOR_REVIEW` → `EXTERNALLY_PAID` | `order.manual_review_cleared` |
 * | `POST /admin/orders/{id}/start-transfer` | → `TRANSFER_IN_PROGRESS` | `order.transfer_started` |
 * | `POST /admin/orders/{id}/confirm-delivery` | → `TRANSFER_COMPLETED` | `order.transfer_completed` |
 * | `POST /admin/orders/{id}/refund` `{reason?}` | → `REFUNDED` | `order.refunded` |
 * | `POST /admin/orders/{id}/cancel` `{reason?}` | → `CANCELLED` | `order.refunded` |
 * | `POST /admin/settlements/run` `{key_id?, at?}` | closes the period (at `at` with `key_id`, dated as fixtures are): statements, payouts | `order.settled` per order |
 * | `POST /admin/brokerage/{case_id}/advance` | `OPEN` → `CONTACTING_OWNER` → `NEGOTIATING` | |
 * | `POST /admin/brokerage/{case_id}/close` `{deal, price_cents?}` | `CLOSED_DEAL` / `CLOSED_NO_DEAL` | `brokerage.case_completed` (deal) |
 * | `POST /admin/links/{link_id}/clicks` `{count?}` | records clicks | |
 * | `POST /admin/links/{link_id}/sales` `{domain, price_cents?, buyer_email?}` | records a referral sale | |
 * | `POST /admin/sales/{sale_id}/refund` | refunds a sale; reverses its referral commission | |
 * | `POST /admin/domains/{name}/price` `{price_cents, environment?}` | reprices a listing | |
 * | `GET /admin/deliveries?key_id=&status=&event_id=&limit=` | webhook deliveries with every attempt | |
 * | `GET /admin/faults`, `PUT /admin/faults` | reads / changes fault injection (faults/faults.ts) | |
 * | `POST /admin/reset` | resets the world (admin/reset.ts) | |
 *
 * Illegal moves answer 409 `conflict` with a message naming the status; unknown ids 404 `not_found`.
 */
import { domainNameSchema, orderStatusSchema, boundedIntSchema } from '@domainkit/protocol';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { moveCase, toCaseWire } from '../brokerage/cases.ts';
import type { Clock } from '../clock.ts';
import { findActiveCredential } from '../credentials/store.ts';
import { environmentSchema } from '../scopes.ts';
import type { SandboxDb } from '../db/tables.ts';
import { announceEvents, eventId, eventSeq, toWireEvent } from '../events/store.ts';
import { faultSettingsSchema, getFaults, updateFaults } from '../faults/faults.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { orderTimeline, toOrderWire, transitionOrder, type OrderAction } from '../mor/orders.ts';
import { recordClicks, refundSale, sellThroughLink } from '../referral/links.ts';
import { runSettlement, toPayoutWire, toSettlementWire } from '../settlement/run.ts';
import { admitDatedHistory, fixtureAtSchema, fixtureDate } from './fixtures.ts';
import { resetWorld } from './reset.ts';
import type { AuthFailureThrottle } from '../auth/failure-throttle.ts';

const ORDER_TRIGGERS: Readonly<Record<string, OrderAction>> = {
  hold: 'hold',
  'clear-review': 'clear_review',
  'start-transfer': 'start_transfer',
  'confirm-delivery': 'confirm_delivery',
  refund: 'refund',
  cancel: 'cancel',
};

const reasonSchema = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional(),
  note: z.string().trim().min(1).max(500).optional(),
});
const idSchema = z.string().min(1).max(100);
const limitSchema = z.coerce.number().int().min(1).max(500).default(100);

/** Builds the lifecycle admin router (mounted inside the admin router, after its token guard and JSON parser). */
export function lifecycleAdminRouter(options: {
  db: SandboxDb;
  clock: Clock;
  logger: Logger;
  publicUrl: (req: express.Request) => string;
  /** Cleared by `POST /admin/reset`. */
  failureThrottle?: AuthFailureThrottle | undefined;
}): Router {
  const { db, clock, logger } = options;
  const router = express.Router();
  const body = (req: express.Request) =>
    req.body === undefined || (typeof req.body === 'object' && req.body !== null && Object.keys(req.body).length === 0)
      ? {}
      : req.body;

  router.get('/orders', async (req, res) => {
    const q = parseOrThrow(
      z.strictObject({ key_id: idSchema.optional(), status: orderStatusSchema.optional(), limit: limitSchema }),
      req.query,
      'query',
    );
    let query = db.selectFrom('orders').selectAll();
    if (q.key_id) query = query.where('key_id', '=', q.key_id);
    if (q.status) query = query.where('status', '=', q.status);
    const rows = await query.orderBy('seq', 'desc').limit(q.limit).execute();
    res.json({ orders: rows.map((r) => ({ ...toOrderWire(r), key_id: r.key_id })) });
  });

  router.post('/orders/:publicId/:trigger', async (req, res) => {
    const action = ORDER_TRIGGERS[req.params.trigger];
    if (action === undefined)
      throw apiError(
        'not_found',
        `Unknown order trigger "${req.params.trigger}": use one of ${Object.keys(ORDER_TRIGGERS).join(', ')}.`,
      );
    const publicId = parseOrThrow(idSchema, req.params.publicId, 'order id');
    const input = parseOrThrow(reasonSchema, body(req), 'trigger body');
    const now = new Date(clock());
    const moved = await db.transaction().execute(async (trx) => {
      const result = await transitionOrder(trx, {
        publicId,
        action,
        now,
        reason: input.reason ?? null,
        ...(input.note ? { note: input.note } : {}),
      });
      return { ...result, timeline: await orderTimeline(trx, publicId) };
    });
    announceEvents([moved.event]);
    logger.info(
      { order: publicId, status: moved.order.status, event_id: moved.event.id, event_type: moved.event.type },
      'admin moved an order',
    );
    res.json({ order: toOrderWire(moved.order, moved.timeline), events: [moved.event] });
  });

  router.post('/settlements/run', async (req, res) => {
    const input = parseOrThrow(
      z.strictObject({ key_id: idSchema.optional(), at: fixtureAtSchema.optional() }),
      body(req),
      'settlement run',
    );
    const now = fixtureDate(input.at, clock());
    if (input.at !== undefined) {
      if (input.key_id === undefined)
        throw apiError('validation_error', "at needs key_id: a dated run closes one credential's period.");
      const credential = await findActiveCredential(db, input.key_id);
      if (credential === undefined) throw apiError('not_found', `No active credential has key id ${input.key_id}.`);
      await admitDatedHistory(db, credential, now, true);
    }
    const result = await runSettlement(db, { keyId: input.key_id, now });
    announceEvents(result.events);
    const ids = result.settlements.map((s) => s.settlement_id);
    const orders =
      ids.length === 0
        ? []
        : await db
            .selectFrom('orders')
            .select(['public_id', 'settlement_id'])
            .where('settlement_id', 'in', ids)
            .orderBy('seq')
            .execute();
    logger.info(
      { settlements: ids.length, payouts: result.payouts.length, events: result.events.length },
      'settlement run',
    );
    res.json({
      settlements: result.settlements.map((s) => ({
        ...toSettlementWire(
          s,
          orders.filter((o) => o.settlement_id === s.settlement_id).map((o) => o.public_id),
        ),
        key_id: s.key_id,
      })),
      payouts: result.payouts.map((p) => ({ ...toPayoutWire(p), key_id: p.key_id })),
      events: result.events,
    });
  });

  router.post('/brokerage/:caseId/advance', async (req, res) => {
    const input = parseOrThrow(
      z.strictObject({ note: z.string().trim().min(1).max(500).optional() }),
      body(req),
      'advance',
    );
    const moved = await db
      .transaction()
      .execute((trx) => moveCase(trx, { caseId: req.params.caseId, now: new Date(clock()), note: input.note }));
    res.json({ case: toCaseWire(moved.case, options.publicUrl(req)), events: [] });
  });

  router.post('/brokerage/:caseId/close', async (req, res) => {
    const input = parseOrThrow(
      z
        .strictObject({
          deal: z.boolean(),
          price_cents: boundedIntSchema({ min: 1, unit: 'cents' }).optional(),
          note: z.string().trim().min(1).max(500).optional(),
        })
        .refine((b) => !b.deal || b.price_cents !== undefined, {
          message: 'a deal needs price_cents (the agreed price in minor units)',
          path: ['price_cents'],
        }),
      body(req),
      'close',
    );
    const close = input.deal ? { deal: true as const, priceCents: input.price_cents! } : { deal: false as const };
    const moved = await db
      .transaction()
      .execute((trx) => moveCase(trx, { caseId: req.params.caseId, now: new Date(clock()), close, note: input.note }));
    const events = moved.event ? [moved.event] : [];
    announceEvents(events);
    res.json({ case: toCaseWire(moved.case, options.publicUrl(req)), events });
  });

  router.post('/links/:linkId/clicks', async (req, res) => {
    const input = parseOrThrow(
      z.strictObject({ count: z.number().int().min(1).max(10_000).default(1) }),
      body(req),
      'clicks',
    );
    const link = await db
      .selectFrom('referral_links')
      .select('link_id')
      .where('link_id', '=', req.params.linkId)
      .executeTakeFirst();
    if (link === undefined) throw apiError('not_found', `No referral link ${req.params.linkId}.`);
    await recordClicks(db, link.link_id, input.count, new Date(clock()));
    const total = await db
      .selectFrom('referral_clicks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('link_id', '=', link.link_id)
      .executeTakeFirstOrThrow();
    res.json({ link_id: link.link_id, recorded: input.count, clicks: Number(total.n) });
  });

  router.post('/links/:linkId/sales', async (req, res) => {
    const input = parseOrThrow(
      z.strictObject({
        domain: domainNameSchema,
        price_cents: boundedIntSchema({ min: 1, unit: 'cents' }).optional(),
        buyer_email: z.email().optional(),
      }),
      body(req),
      'referral sale',
    );
    const result = await db.transaction().execute((trx) =>
      sellThroughLink(trx, {
        linkId: req.params.linkId,
        domain: input.domain,
        priceCents: input.price_cents,
        buyerEmail: input.buyer_email,
        now: new Date(clock()),
      }),
    );
    res.status(201).json({
      sale: {
        sale_id: result.sale.id,
        link_id: result.sale.link_id,
        domain: result.sale.domain,
        amount_cents: result.sale.price_cents,
        commission_cents: result.sale.commission_cents,
        currency: result.sale.currency,
        status: result.sale.status,
        created_at: result.sale.created_at.toISOString(),
      },
      commission: {
        entry_id: `cl_${result.entry.id}`,
        amount_cents: result.entry.amount_cents,
        status: result.entry.status,
      },
    });
  });

  router.post('/sales/:saleId/refund', async (req, res) => {
    const result = await db.transaction().execute((trx) => refundSale(trx, req.params.saleId, new Date(clock())));
    res.json({
      sale: {
        sale_id: result.sale.id,
        status: result.sale.status,
        refunded_at: result.sale.refunded_at?.toISOString() ?? null,
      },
      reversal: result.reversal
        ? { entry_id: `cl_${result.reversal.id}`, amount_cents: result.reversal.amount_cents }
        : null,
    });
  });

  router.post('/domains/:name/price', async (req, res) => {
    const name = parseOrThrow(domainNameSchema, req.params.name, 'domain name');
    const input = parseOrThrow(
      z.strictObject({
        price_cents: boundedIntSchema({ min: 1, unit: 'cents' }),
        environment: environmentSchema.default('SANDBOX'),
      }),
      body(req),
      'price',
    );
    // A listing is never priced below its floor (the inventory's invariant): refused here, naming the floor.
    const row = await db.transaction().execute(async (trx) => {
      const listing = await trx
        .selectFrom('domains')
        .select('floor_price_cents')
        .where('environment', '=', input.environment)
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      if (listing === undefined) throw apiError('not_found', `${name} is not in the ${input.environment} inventory.`);
      if (input.price_cents < listing.floor_price_cents)
        throw apiError(
          'validation_error',
          `price_cents must be at least the floor price of ${name}, ${listing.floor_price_cents} cents.`,
        );
      return trx
        .updateTable('domains')
        .set({ price_cents: input.price_cents })
        .where('environment', '=', input.environment)
        .where('name', '=', name)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    res.json({
      domain: row.name,
      environment: row.environment,
      price_cents: row.price_cents,
      currency: row.currency,
      status: row.status,
    });
  });

  router.get('/deliveries', async (req, res) => {
    const q = parseOrThrow(
      z.strictObject({
        key_id: idSchema.optional(),
        status: z.enum(['pending', 'delivered', 'failed']).optional(),
        event_id: z.string().max(40).optional(),
        limit: limitSchema,
      }),
      req.query,
      'query',
    );
    let query = db
      .selectFrom('webhook_deliveries')
      .innerJoin('events', 'events.seq', 'webhook_deliveries.event_seq')
      .selectAll('webhook_deliveries')
      .select(['events.type', 'events.payload']);
    if (q.key_id) query = query.where('webhook_deliveries.key_id', '=', q.key_id);
    if (q.status) query = query.where('webhook_deliveries.status', '=', q.status);
    if (q.event_id) query = query.where('webhook_deliveries.event_seq', '=', eventSeq(q.event_id));
    const rows = await query.orderBy('webhook_deliveries.id').limit(q.limit).execute();
    const ids = rows.map((r) => r.id);
    const attempts =
      ids.length === 0
        ? []
        : await db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where('delivery_id', 'in', ids)
            .orderBy('delivery_id')
            .orderBy('attempt')
            .execute();
    res.json({
      deliveries: rows.map((r) => ({
        delivery_id: r.id,
        event_id: eventId(r.event_seq),
        event_type: r.type,
        event: toWireEvent(r),
        key_id: r.key_id,
        status: r.status,
        attempts: r.attempts,
        max_attempts: r.max_attempts,
        next_attempt_at: r.status === 'pending' ? r.next_attempt_at.toISOString() : null,
        delivered_at: r.delivered_at?.toISOString() ?? null,
        last_status_code: r.last_status_code,
        last_error: r.last_error,
        duplicate: r.duplicate,
        created_at: r.created_at.toISOString(),
        attempt_log: attempts
          .filter((a) => a.delivery_id === r.id)
          .map((a) => ({
            attempt: a.attempt,
            started_at: a.started_at.toISOString(),
            duration_ms: a.duration_ms,
            status_code: a.status_code,
            error: a.error,
            outcome: a.outcome,
          })),
      })),
    });
  });

  router.get('/faults', async (_req, res) => {
    res.json(await getFaults(db));
  });

  router.put('/faults', async (req, res) => {
    const patch = parseOrThrow(faultSettingsSchema, body(req), 'fault settings');
    const faults = await updateFaults(db, patch, new Date(clock()));
    logger.info({ faults }, 'fault settings changed');
    res.json(faults);
  });

  router.post('/reset', async (_req, res) => {
    const result = await resetWorld(db, new Date(clock()));
    // The Partner API's failed-authentication counts (process memory, not a table) end with the world's windows.
    options.failureThrottle?.clear();
    logger.info(result, 'sandbox world reset');
    res.json({ reset: true, ...result });
  });

  return router;
}
