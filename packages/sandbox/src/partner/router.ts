/**
 * The Partner API (spec 4.1), mounted at `/api/partner`: the raw body is kept for the signature, every request is
 * authenticated ({@link authenticate}: spec 5.1, 7), then each area's router checks its route's scope. Routes
 * live under `/v1` except the unversioned `/webhooks` (spec 9.1). An unknown route answers 404 `not_found` (after
 * authentication, so an unsigned request learns nothing about which routes exist).
 *
 * Areas so far: discovery, checkout sessions. The remaining areas (quotes and orders, refunds and settlement,
 * brokerage, referral and reporting, events, `PUT /webhooks`) each join as their own router here.
 */
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { authenticate } from '../auth/authenticate.ts';
import type { NonceStore } from '../auth/nonces.ts';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { MAX_BODY_BYTES } from '../http/body.ts';
import { jsonErrorHandler, notFoundHandler } from '../http/errors.ts';
import { checkoutSessionRouter, type CheckoutSessionRouteOptions } from './checkout-session.ts';
import { discoveryRouter } from './discovery.ts';

/** What the Partner API needs. */
export interface PartnerApiOptions extends CheckoutSessionRouteOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly nonces: NonceStore;
  readonly headerPrefix: string;
}

/** Builds the Partner API router (mount it at `/api/partner`). */
export function partnerApiRouter(options: PartnerApiOptions): Router {
  const router = express.Router();
  // Keep the body as the exact bytes received: the signature covers their SHA-256 (spec 5.1 line 6).
  router.use(express.raw({ type: () => true, limit: MAX_BODY_BYTES, inflate: false }));
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(authenticate(options));

  const v1 = express.Router();
  v1.use(discoveryRouter(options));
  v1.use(checkoutSessionRouter(options));
  router.use('/v1', v1);

  router.use(notFoundHandler());
  router.use(jsonErrorHandler(options.logger));
  return router;
}
