/**
 * The sandbox's admin API, under `/admin`, guarded by `Authorization: Bearer <admin_token>` (the token is in
 * `credentials.json`). Not part of the marketplace contract: it stands in for the marketplace's back office.
 *
 * - `POST /admin/credentials` `{scopes, environment, affiliate?, label?}` → 201 `{key_id, secret, environment,
 *   scopes, approved, partner_id, affiliate_id}`. The secret is shown this once. LIVE credentials start unapproved.
 * - `POST /admin/credentials/{key_id}/approve` → 200 the credential without its secret.
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
import { approveCredential, createCredential } from '../credentials/store.ts';
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
      },
      new Date(clock()),
    );
    logger.info({ key_id: row.key_id, environment: row.environment, scopes: row.scopes }, 'credential created');
    const { key_id, ...rest } = publicView(row);
    res.status(201).json({ key_id, secret: row.secret, ...rest });
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
