/**
 * The sandbox's admin API, under `/admin`, guarded by `Authorization: Bearer <admin_token>` (the token is in
 * `credentials.json`). Not part of the marketplace contract: it stands in for the marketplace's back office.
 *
 * - `POST /admin/credentials` `{scopes, environment, affiliate?, label?, display_name?}` → 201 `{key_id, secret,
 *   environment, scopes, approved, partner_id, affiliate_id, display_name}`. The secret is shown this once. LIVE
 *   credentials start unapproved.
 * - `POST /admin/credentials/{key_id}/approve` → 200 the credential without its secret.
 * - `PATCH /admin/credentials/{key_id}` `{display_name}` → 200 the credential: the shop's name (1–60 characters,
 *   `null` clears it) buyers see on the hosted checkout.
 * - `GET /admin/checkout-sessions/{id}` → 200 `{checkout_session, sale}`: a hosted checkout and the sale that paid
 *   it (with the buyer's e-mail the checkout collected), `sale` null while open; 404 for an unknown id.
 *
 * - Lifecycle triggers (review, transfer, settlement, refunds, brokerage, referral, faults, deliveries, reset): see
 *   lifecycle-router.ts.
 * - Fixtures (an order, a brokerage case or a referral sale in any state, in one call): fixtures.ts.
 * - Every credential's events and a webhook test ping: observe-router.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthFailureThrottle } from '../auth/failure-throttle.ts';
import type { WebhookSender } from '../events/webhook-target.ts';
import express, { type Request, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { environmentSchema, scopeSchema } from '../scopes.ts';
import { approveCredential, createCredential, nameShop } from '../credentials/store.ts';
import { findCheckoutSession, findSaleOfSession } from '../checkout/sessions.ts';
import type { CredentialRow, SandboxDb } from '../db/tables.ts';
import { ApiError, apiError, parseOrThrow } from '../http/api-error.ts';
import { jsonErrorHandler, notFoundHandler } from '../http/errors.ts';
import { fixturesAdminRouter } from './fixtures.ts';
import { lifecycleAdminRouter } from './lifecycle-router.ts';
import { observeAdminRouter } from './observe-router.ts';
import { refuseBodyOverLimit, rejectUnsafeText } from '../http/hardening.ts';

/** Body of `POST /admin/credentials`. */
export const createCredentialRequestSchema = z.strictObject({
  scopes: z.array(scopeSchema).max(7),
  environment: environmentSchema,
  affiliate: z.boolean().optional(),
  label: z.string().trim().min(1).max(100).optional(),
  display_name: z.string().trim().min(1).max(60).optional(),
});

/** Body of `PATCH /admin/credentials/{key_id}`: the shop's name on the hosted checkout (`null` clears it). */
export const updateCredentialRequestSchema = z.strictObject({
  display_name: z.string().trim().min(1).max(60).nullable(),
});

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Checks `Authorization: Bearer <token>` in constant time (both sides hashed to equal length first).
 * @throws {ApiError} 401 `unauthorized` with `WWW-Authenticate: Bearer` when absent or wrong.
 */
export function requireAdminToken(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return function checkAdminToken(req, _res, next) {
    const header = req.headers.authorization;
    const challenge = { 'WWW-Authenticate': 'Bearer realm="domainkit-sandbox-admin"' };
    if (header === undefined || !/^Bearer\s+\S+$/i.test(header)) {
      throw new ApiError(
        401,
        'unauthorized',
        'The admin API needs "Authorization: Bearer <admin_token>" (admin_token is in the data folder\'s credentials.json).',
        challenge,
      );
    }
    const given = digest(header.replace(/^Bearer\s+/i, ''));
    if (!timingSafeEqual(given, expected))
      throw new ApiError(401, 'unauthorized', 'The admin token is not valid for this sandbox.', challenge);
    next();
  };
}

function publicView(row: CredentialRow) {
  return {
    key_id: row.key_id,
    environment: row.environment,
    scopes: row.scopes,
    approved: row.approved,
    partner_id: row.partner_id,
    affiliate_id: row.affiliate_id,
    display_name: row.display_name,
    created_at: row.created_at.toISOString(),
  };
}

/** Builds the admin router. */
export function adminRouter(options: {
  db: SandboxDb;
  clock: Clock;
  adminToken: string;
  logger: Logger;
  /** The demo credential's key id: the fixtures' and the ping's default credential. */
  demoKeyId: string;
  headerPrefix: string;
  /** Sends the webhook ping. */
  webhookSender: WebhookSender;
  publicUrl?: (req: Request) => string;
  /** The Partner API's failed-authentication throttle, cleared by `POST /admin/reset`. */
  failureThrottle?: AuthFailureThrottle;
}): Router {
  const { db, clock, logger } = options;
  const router = express.Router();
  router.use(requireAdminToken(options.adminToken));
  router.use(
    refuseBodyOverLimit(express.json({ limit: 16 * 1024, type: () => true }), 16 * 1024),
    rejectUnsafeText('body'),
  );
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.post('/credentials', async (req, res) => {
    const input = parseOrThrow(createCredentialRequestSchema, req.body, 'credential request');
    const row = await createCredential(
      db,
      {
        environment: input.environment,
        scopes: input.scopes,
        affiliate: input.affiliate ?? false,
        label: input.label ?? null,
        displayName: input.display_name ?? null,
      },
      new Date(clock()),
    );
    logger.info({ key_id: row.key_id, environment: row.environment, scopes: row.scopes }, 'credential created');
    const { key_id, ...rest } = publicView(row);
    res.status(201).json({ key_id, secret: row.secret, ...rest });
  });

  router.patch('/credentials/:keyId', async (req, res) => {
    const input = parseOrThrow(updateCredentialRequestSchema, req.body, 'credential update');
    const row = await nameShop(db, req.params.keyId, input.display_name);
    if (row === undefined) throw apiError('not_found', 'No credential has this key id.');
    logger.info({ key_id: row.key_id }, 'credential shop name set');
    res.json(publicView(row));
  });

  router.get('/checkout-sessions/:id', async (req, res) => {
    const session = await findCheckoutSession(db, req.params.id);
    if (session === undefined) throw apiError('not_found', 'No checkout session has this id.');
    const sale = await findSaleOfSession(db, session.id);
    res.json({
      checkout_session: {
        id: session.id,
        key_id: session.key_id,
        domain: session.domain,
        price_cents: session.price_cents,
        currency: session.currency,
        status: session.status,
        created_at: session.created_at.toISOString(),
        expires_at: session.expires_at.toISOString(),
        paid_at: session.paid_at?.toISOString() ?? null,
      },
      sale: sale
        ? {
            sale_id: sale.id,
            domain: sale.domain,
            price_cents: sale.price_cents,
            currency: sale.currency,
            buyer_email: sale.buyer_email,
            status: sale.status,
            created_at: sale.created_at.toISOString(),
          }
        : null,
    });
  });

  router.post('/credentials/:keyId/approve', async (req, res) => {
    const row = await approveCredential(db, req.params.keyId);
    if (row === undefined) throw apiError('not_found', 'No credential has this key id.');
    logger.info({ key_id: row.key_id }, 'credential approved');
    res.json(publicView(row));
  });

  const publicUrl =
    options.publicUrl ?? ((req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}${req.app.path()}`);
  router.use(lifecycleAdminRouter({ db, clock, logger, publicUrl, failureThrottle: options.failureThrottle }));
  router.use(fixturesAdminRouter({ db, clock, logger, demoKeyId: options.demoKeyId, publicUrl }));
  router.use(
    observeAdminRouter({
      db,
      clock,
      logger,
      demoKeyId: options.demoKeyId,
      headerPrefix: options.headerPrefix,
      webhookSender: options.webhookSender,
    }),
  );

  router.use(notFoundHandler());
  router.use(jsonErrorHandler(logger));
  return router;
}
