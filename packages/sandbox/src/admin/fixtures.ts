/**
 * Fixtures: one admin call puts a record in any state, by walking the same moves a real history makes, so every
 * event of that history is emitted (and delivered to the credential's webhook endpoint) in order. For tests that need
 * "an order in `SETTLED`" without driving quote, order, transfer, delivery and settlement one by one.
 *
 * | call | creates | events |
 * |---|---|---|
 * | `POST /admin/fixtures/orders` `{status, domain?, key_id?, via_review?, buyer_email?}` | an MoR order in `status` (Partner API spec 3) | `order.recorded`, then one per move |
 * | `POST /admin/fixtures/brokerage-cases` `{status, domain?, key_id?, tier?, buyer_email?, budget_cents?, deal_price_cents?}` | a brokerage case in `status` | `brokerage.case_completed` for `CLOSED_DEAL` |
 * | `POST /admin/fixtures/referral-sales` `{status?, domain?, key_id?, clicks?, buyer_email?}` | a domain link, its clicks and a sale through it (`COMPLETED` or `REFUNDED`) | |
 *
 * `key_id` defaults to the demo credential; `domain` to a random ordinary listing (orders, referral sales) or a fresh
 * unlisted name (brokerage). The paths taken (docs/spec-decisions.md "Sandbox fixtures"):
 *
 * | order status | moves after `POST /orders` |
 * |---|---|
 * | `EXTERNALLY_PAID` | none |
 * | `HELD_FOR_REVIEW` | hold |
 * | `TRANSFER_IN_PROGRESS` | start transfer |
 * | `TRANSFER_COMPLETED` | start transfer, confirm delivery |
 * | `SETTLED` | start transfer, confirm delivery, a settlement run of this order alone |
 * | `REFUNDED` / `CANCELLED` | refund / cancel |
 *
 * `via_review: true` holds and clears the order first (`order.held_for_review`, `order.manual_review_cleared`).
 *
 * Every fixture takes an optional `at` (an RFC 3339 timestamp, `"2026-10-16T09:30:00Z"`): the record and every move,
 * event, click, sale, ledger line and settlement of its history are dated then instead of now, so the Partner API
 * answers exactly what it would had they happened then (`GET /events` order, date filters, analytics windows,
 * settlement periods). `at` may not be in the future nor more than {@link FIXTURE_MAX_AGE_DAYS} days ago (400
 * `validation_error`), nor before the credential's latest record (409 `conflict`: a history is built from its
 * oldest record to its newest, so the events' order is their dates' order). A credential with no history yet that
 * was created after `at` is dated back to `at` (it existed then). `POST /admin/settlements/run` takes `at` too.
 */
import {
  BROKERAGE_CASE_STATUSES,
  domainNameSchema,
  type OrderStatus,
  orderStatusSchema,
  boundedIntSchema,
} from '@domainkit/protocol';
import express, { type Request, type Router } from 'express';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import { caseTimeline, moveCase, openCase, toCaseWire } from '../brokerage/cases.ts';
import type { Clock } from '../clock.ts';
import { findActiveCredential } from '../credentials/store.ts';
import type { CredentialRow, SandboxDb, SandboxTrx } from '../db/tables.ts';
import { announceEvents, type WireEvent } from '../events/store.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { randomBase62 } from '../ids.ts';
import { createOrder, type OrderAction, orderTimeline, toOrderWire, transitionOrder } from '../mor/orders.ts';
import { createLink, linkStats, recordClicks, refundSale, sellThroughLink, toLinkWire } from '../referral/links.ts';
import { runSettlement } from '../settlement/run.ts';

/** The moves after `POST /orders` that reach each status (`SETTLED` adds a settlement run). */
export const ORDER_FIXTURE_PATHS: Readonly<Record<OrderStatus, readonly OrderAction[]>> = {
  EXTERNALLY_PAID: [],
  HELD_FOR_REVIEW: ['hold'],
  TRANSFER_IN_PROGRESS: ['start_transfer'],
  TRANSFER_COMPLETED: ['start_transfer', 'confirm_delivery'],
  SETTLED: ['start_transfer', 'confirm_delivery'],
  REFUNDED: ['refund'],
  CANCELLED: ['cancel'],
};

const keyIdSchema = z.string().min(1).max(100);

/** How far back a fixture may be dated, in days. */
export const FIXTURE_MAX_AGE_DAYS = 366;

/** `at` of a fixture body: when its history happened, an RFC 3339 timestamp with a zone (`Z` or `+02:00`). */
export const fixtureAtSchema = z.iso.datetime({
  offset: true,
  message: 'at must be an RFC 3339 timestamp with a zone, for example 2026-10-16T09:30:00Z',
});

const DAY_MS = 86_400_000;

/**
 * When a fixture's history happens: `at` checked against the sandbox's clock, or now when absent.
 * @param at - an RFC 3339 timestamp (already shaped by {@link fixtureAtSchema}) or undefined.
 * @param nowMs - the sandbox's clock, milliseconds since the epoch.
 * @throws {ProtocolError} `validation_error` (400) when `at` is in the future or more than
 *   {@link FIXTURE_MAX_AGE_DAYS} days ago.
 */
export function fixtureDate(at: string | undefined, nowMs: number): Date {
  if (at === undefined) return new Date(nowMs);
  const ms = Date.parse(at);
  const now = new Date(nowMs).toISOString();
  if (Number.isNaN(ms)) throw apiError('validation_error', `at: ${at} is not a date.`);
  if (ms > nowMs) throw apiError('validation_error', `at: ${at} is in the future (the sandbox's clock reads ${now}).`);
  if (ms < nowMs - FIXTURE_MAX_AGE_DAYS * DAY_MS)
    throw apiError('validation_error', `at: ${at} is more than ${FIXTURE_MAX_AGE_DAYS} days before ${now}.`);
  return new Date(ms);
}

/**
 * The date of the credential's latest record (event, order move, sale, refund, click, link, ledger line, brokerage
 * move, checkout session, settlement or payout period), or null when it has none.
 */
export async function historyEnd(db: SandboxDb | SandboxTrx, keyId: string): Promise<Date | null> {
  const result = await sql<{ end: Date | string | null }>`select greatest(
      (select max(created_at) from events where key_id = ${keyId}),
      (select max(updated_at) from orders where key_id = ${keyId}),
      (select max(greatest(created_at, refunded_at)) from sales where key_id = ${keyId}),
      (select max(created_at) from checkout_sessions where key_id = ${keyId}),
      (select max(updated_at) from brokerage_cases where key_id = ${keyId}),
      (select max(created_at) from referral_links where key_id = ${keyId}),
      (select max(c.at) from referral_clicks c join referral_links l on l.link_id = c.link_id where l.key_id = ${keyId}),
      (select max(created_at) from commission_ledger where key_id = ${keyId}),
      (select max(period_end) from settlements where key_id = ${keyId}),
      (select max(period_end) from payouts where key_id = ${keyId})
    ) as "end"`.execute(db);
  const end = result.rows[0]?.end ?? null;
  return end === null ? null : new Date(end);
}

/**
 * Checks that a dated history for `credential` may happen at `at` (not before its latest record) and dates a
 * credential with no history back to `at` when it was created later. Nothing is checked for an undated fixture.
 * @throws {ProtocolError} `conflict` (409) when the credential already has a record dated after `at`.
 */
export async function admitDatedHistory(
  db: SandboxDb,
  credential: Pick<CredentialRow, 'key_id' | 'created_at'>,
  at: Date,
  dated: boolean,
): Promise<void> {
  if (!dated) return;
  const end = await historyEnd(db, credential.key_id);
  if (end !== null && at < end)
    throw apiError(
      'conflict',
      `at: ${at.toISOString()} is before ${credential.key_id}'s latest record (${end.toISOString()}): date a history from its oldest record to its newest.`,
    );
  if (end === null && at < credential.created_at)
    await db.updateTable('credentials').set({ created_at: at }).where('key_id', '=', credential.key_id).execute();
}
const emailSchema = z.email().max(254);

/** Body of `POST /admin/fixtures/orders`. */
export const orderFixtureSchema = z.strictObject({
  status: orderStatusSchema,
  domain: domainNameSchema.optional(),
  key_id: keyIdSchema.optional(),
  via_review: z.boolean().optional(),
  buyer_email: emailSchema.optional(),
  at: fixtureAtSchema.optional(),
});

/** Body of `POST /admin/fixtures/brokerage-cases`. */
export const brokerageFixtureSchema = z.strictObject({
  status: z.enum(BROKERAGE_CASE_STATUSES),
  domain: domainNameSchema.optional(),
  key_id: keyIdSchema.optional(),
  tier: z.enum(['managed', 'self_serve']).optional(),
  buyer_email: emailSchema.optional(),
  budget_cents: boundedIntSchema({ min: 1, unit: 'cents' }).optional(),
  deal_price_cents: boundedIntSchema({ min: 1, unit: 'cents' }).optional(),
  at: fixtureAtSchema.optional(),
});

/** Body of `POST /admin/fixtures/referral-sales`. */
export const referralSaleFixtureSchema = z.strictObject({
  status: z.enum(['COMPLETED', 'REFUNDED']).optional(),
  domain: domainNameSchema.optional(),
  key_id: keyIdSchema.optional(),
  clicks: z.number().int().min(0).max(10_000).optional(),
  buyer_email: emailSchema.optional(),
  at: fixtureAtSchema.optional(),
});

async function credentialFor(db: SandboxDb, keyId: string): Promise<CredentialRow> {
  const row = await findActiveCredential(db, keyId);
  if (row === undefined) throw apiError('not_found', `No active credential has key id ${keyId}.`);
  return row;
}

/** A random ordinary listing (no scenario) that nobody has reserved with a live quote. */
async function anyListing(trx: SandboxTrx, environment: CredentialRow['environment'], now: Date): Promise<string> {
  const row = await trx
    .selectFrom('domains')
    .select('name')
    .where('environment', '=', environment)
    .where('status', '=', 'listed')
    .where('scenario', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('quotes')
            .select('quotes.id')
            .whereRef('quotes.domain', '=', 'domains.name')
            .whereRef('quotes.environment', '=', 'domains.environment')
            .where('quotes.order_id', 'is', null)
            .where('quotes.expires_at', '>', now),
        ),
      ),
    )
    .orderBy(sql`random()`)
    .limit(1)
    .executeTakeFirst();
  if (row === undefined) throw apiError('conflict', `No ${environment} listing is left to sell: reset the sandbox.`);
  return row.name;
}

/**
 * Creates an order and walks it to `status` (see the module table), in one transaction; `SETTLED` then runs a
 * settlement of that order alone. Every move is dated `at` when given (else `now`, the sandbox's clock).
 * @returns the order with its timeline, and every event emitted, in order.
 * @throws {ProtocolError} `not_found` (unknown credential or domain), `conflict` (the domain is sold or reserved,
 *   or `at` is before the credential's latest record), `validation_error` (`at` in the future or too old),
 *   `price_mismatch` never (the fixture pays the listing price).
 */
export async function createOrderFixture(
  db: SandboxDb,
  input: z.infer<typeof orderFixtureSchema> & { keyId: string; now: Date },
) {
  const now = fixtureDate(input.at, input.now.getTime());
  const credential = await credentialFor(db, input.keyId);
  await admitDatedHistory(db, credential, now, input.at !== undefined);
  const path: OrderAction[] = [...ORDER_FIXTURE_PATHS[input.status]];
  if (input.via_review === true && input.status !== 'HELD_FOR_REVIEW') path.unshift('hold', 'clear_review');
  const created = await db.transaction().execute(async (trx) => {
    const domainName = input.domain ?? (await anyListing(trx, credential.environment, now));
    const listing = await trx
      .selectFrom('domains')
      .select(['price_cents', 'currency'])
      .where('environment', '=', credential.environment)
      .where('name', '=', domainName)
      .executeTakeFirst();
    if (listing === undefined) throw apiError('not_found', `${domainName} is not listed on the marketplace.`);
    const outcome = await createOrder(trx, {
      credential,
      now,
      order: {
        domain: domainName,
        expectedPrice: listing.price_cents,
        currency: listing.currency,
        buyer: { email: input.buyer_email ?? 'buyer@example.com' },
        externalPaymentRef: `fixture_${randomBase62(12)}`,
      },
    });
    if (outcome.kind === 'refused') throw apiError(outcome.code, outcome.message);
    const events: WireEvent[] = [...outcome.events];
    let order = outcome.order;
    // A scenario domain (always-held.com) may already be held by the order itself.
    if (order.status === 'HELD_FOR_REVIEW' && path[0] === 'hold') path.shift();
    else if (order.status === 'HELD_FOR_REVIEW' && input.status !== 'REFUNDED' && input.status !== 'CANCELLED')
      path.unshift('clear_review');
    for (const action of path) {
      const moved = await transitionOrder(trx, { publicId: order.public_id, action, now });
      order = moved.order;
      events.push(moved.event);
    }
    return { order, events };
  });
  const events = [...created.events];
  if (input.status === 'SETTLED') {
    const run = await runSettlement(db, { keyId: credential.key_id, now, orderIds: [created.order.public_id] });
    events.push(...run.events);
  }
  announceEvents(events);
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('public_id', '=', created.order.public_id)
    .executeTakeFirstOrThrow();
  return { order: toOrderWire(order, await orderTimeline(db, order.public_id)), events };
}

/**
 * Opens a brokerage case and moves it to `status` (`OPEN` → `CONTACTING_OWNER` → `NEGOTIATING` → closed), every
 * move dated `at` when given (else `now`).
 * @throws {ProtocolError} `not_found` (unknown credential), `conflict` (the domain cannot be brokered, or `at` is
 *   before the credential's latest record), `validation_error` (`at` in the future or too old).
 */
export async function createBrokerageFixture(
  db: SandboxDb,
  input: z.infer<typeof brokerageFixtureSchema> & { keyId: string; now: Date; baseUrl: string },
) {
  const now = fixtureDate(input.at, input.now.getTime());
  const credential = await credentialFor(db, input.keyId);
  await admitDatedHistory(db, credential, now, input.at !== undefined);
  const steps = ['OPEN', 'CONTACTING_OWNER', 'NEGOTIATING'];
  const advance = Math.max(0, steps.indexOf(input.status));
  const result = await db.transaction().execute(async (trx) => {
    let row = await openCase(trx, {
      credential,
      domain: input.domain ?? `fixture-${randomBase62(10).toLowerCase()}.com`,
      tier: input.tier ?? 'managed',
      buyerEmail: input.buyer_email ?? 'buyer@example.com',
      budgetCents: input.budget_cents ?? 500_000,
      now,
    });
    for (let i = 0; i < advance; i++) row = (await moveCase(trx, { caseId: row.case_id, now })).case;
    const events: WireEvent[] = [];
    if (input.status === 'CLOSED_DEAL' || input.status === 'CLOSED_NO_DEAL') {
      const close =
        input.status === 'CLOSED_DEAL'
          ? { deal: true as const, priceCents: input.deal_price_cents ?? input.budget_cents ?? 500_000 }
          : { deal: false as const };
      const moved = await moveCase(trx, { caseId: row.case_id, now, close });
      row = moved.case;
      if (moved.event !== null) events.push(moved.event);
    }
    return { row, events };
  });
  announceEvents(result.events);
  return {
    case: toCaseWire(result.row, input.baseUrl, await caseTimeline(db, result.row.case_id)),
    events: result.events,
  };
}

/**
 * Creates a domain link for the credential's affiliate account, records its clicks and a sale through it (refunded
 * when `status` is `REFUNDED`, which reverses the commission), all dated `at` when given (else `now`).
 * @throws {ProtocolError} `not_found` (unknown credential), `forbidden` (no affiliate account), `conflict` (sold,
 *   or `at` is before the credential's latest record), `validation_error` (`at` in the future or too old).
 */
export async function createReferralSaleFixture(
  db: SandboxDb,
  input: z.infer<typeof referralSaleFixtureSchema> & { keyId: string; now: Date; baseUrl: string },
) {
  const now = fixtureDate(input.at, input.now.getTime());
  const credential = await credentialFor(db, input.keyId);
  await admitDatedHistory(db, credential, now, input.at !== undefined);
  const affiliateId = credential.affiliate_id;
  if (affiliateId === null)
    throw apiError('forbidden', `Credential ${credential.key_id} has no affiliate account: referral sales need one.`);
  const result = await db.transaction().execute(async (trx) => {
    const domain = input.domain ?? (await anyListing(trx, credential.environment, now));
    const link = await createLink(trx, {
      keyId: credential.key_id,
      affiliateId,
      environment: credential.environment,
      kind: 'domain',
      domain,
      label: 'fixture',
      now,
    });
    const clicks = input.clicks ?? 1;
    if (clicks > 0) await recordClicks(trx, link.link_id, clicks, now);
    const sold = await sellThroughLink(trx, { linkId: link.link_id, domain, buyerEmail: input.buyer_email, now });
    const sale = input.status === 'REFUNDED' ? (await refundSale(trx, sold.sale.id, now)).sale : sold.sale;
    return { link, sale };
  });
  const stats = await linkStats(db, [result.link.link_id]);
  const { sale } = result;
  return {
    link: toLinkWire(result.link, input.baseUrl, stats.get(result.link.link_id) ?? { clicks: 0, sales: 0 }),
    sale: {
      sale_id: sale.id,
      link_id: sale.link_id,
      domain: sale.domain,
      amount_cents: sale.price_cents,
      commission_cents: sale.commission_cents,
      currency: sale.currency,
      status: sale.status,
      created_at: sale.created_at.toISOString(),
    },
    events: [] as WireEvent[],
  };
}

/** The fixtures router (mounted inside the admin router, after its token guard and JSON parser). */
export function fixturesAdminRouter(options: {
  db: SandboxDb;
  clock: Clock;
  logger: Logger;
  demoKeyId: string;
  publicUrl: (req: Request) => string;
}): Router {
  const { db, clock, logger, demoKeyId } = options;
  const router = express.Router();
  const body = (req: Request): unknown => req.body ?? {};

  router.post('/fixtures/orders', async (req, res) => {
    const input = parseOrThrow(orderFixtureSchema, body(req), 'order fixture');
    const result = await createOrderFixture(db, { ...input, keyId: input.key_id ?? demoKeyId, now: new Date(clock()) });
    logger.info({ order: result.order.public_id, status: result.order.status }, 'fixture order created');
    res.status(201).json(result);
  });

  router.post('/fixtures/brokerage-cases', async (req, res) => {
    const input = parseOrThrow(brokerageFixtureSchema, body(req), 'brokerage fixture');
    const result = await createBrokerageFixture(db, {
      ...input,
      keyId: input.key_id ?? demoKeyId,
      now: new Date(clock()),
      baseUrl: options.publicUrl(req),
    });
    logger.info({ case: result.case.case_id, status: result.case.status }, 'fixture brokerage case created');
    res.status(201).json(result);
  });

  router.post('/fixtures/referral-sales', async (req, res) => {
    const input = parseOrThrow(referralSaleFixtureSchema, body(req), 'referral sale fixture');
    const result = await createReferralSaleFixture(db, {
      ...input,
      keyId: input.key_id ?? demoKeyId,
      now: new Date(clock()),
      baseUrl: options.publicUrl(req),
    });
    logger.info({ sale: result.sale.sale_id, status: result.sale.status }, 'fixture referral sale created');
    res.status(201).json(result);
  });

  return router;
}
