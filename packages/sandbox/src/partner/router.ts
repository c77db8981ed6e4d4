/**
 * The Partner API (Partner API spec 4.1), mounted at `/api/partner`: the raw body is kept for the signature, injected faults
 * apply first (faults/faults.ts), then every request is authenticated ({@link authenticate}: Partner API spec 5.1, 7), then
 * each route checks its scope and counts against its rate-limit class (`authorize`). Routes live under `/v1` except
 * the unversioned `PUT /webhooks` (Partner API spec 9.1). An unknown route answers 404 `not_found` (after authentication, so an
 * unsigned request learns nothing about which routes exist).
 *
 * Areas: discovery, checkout sessions, MoR quotes/orders/refunds, events, settlement and history, brokerage,
 * referral and reporting, and webhook registration.
 */
import type { KeyObject } from 'node:crypto';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { authenticate } from '../auth/authenticate.ts';
import type { AuthFailureThrottle } from '../auth/failure-throttle.ts';
import type { NonceStore } from '../auth/nonces.ts';
import { brokerageRouter } from '../brokerage/routes.ts';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { eventsRouter, webhookRegistrationRouter } from '../events/routes.ts';
import type { OwnPorts } from '../events/webhook-target.ts';
import { injectFaults } from '../faults/faults.ts';
import { MAX_BODY_BYTES } from '../http/body.ts';
import { jsonErrorHandler, notFoundHandler, sendError } from '../http/errors.ts';
import { declaredBodyLimit, refuseBodyOverLimit, rejectUnsafeText } from '../http/hardening.ts';
import { requestState } from '../http/request-context.ts';
import { hitRateLimit, sweepRateLimits } from '../limits/partner.ts';
import { sweepIdempotencyKeys } from '../mor/idempotency.ts';
import { morRouter } from '../mor/routes.ts';
import { referralRouter } from '../referral/routes.ts';
import { settlementRouter } from '../settlement/routes.ts';
import { checkoutSessionRouter, type CheckoutSessionRouteOptions } from './checkout-session.ts';
import { discoveryRouter } from './discovery.ts';

/** What the Partner API needs. */
export interface PartnerApiOptions extends CheckoutSessionRouteOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly nonces: NonceStore;
  readonly headerPrefix: string;
  /** Signs and verifies `quote_id`s. */
  readonly quoteKey: KeyObject;
  /** The sandbox's listening ports: refused as webhook targets on loopback. */
  readonly ownPorts: OwnPorts;
  /** Failed-authentication throttling, shared with the admin API's reset (default: a fresh one). */
  readonly failureThrottle?: AuthFailureThrottle;
}

/** Builds the Partner API router (mount it at `/api/partner`). */
export function partnerApiRouter(options: PartnerApiOptions): Router {
  const { db, clock, logger } = options;
  const router = express.Router();
  // Keep the body as the exact bytes received: the signature covers their SHA-256 (Partner API spec 5.1 line 6).
  router.use(
    declaredBodyLimit(MAX_BODY_BYTES, (_req, res) =>
      sendError(res, 413, 'validation_error', `The request body is too large: at most ${MAX_BODY_BYTES} bytes.`),
    ),
  );
  router.use(
    refuseBodyOverLimit(express.raw({ type: () => true, limit: MAX_BODY_BYTES, inflate: false }), MAX_BODY_BYTES),
  );
  let lastSweep = Number.NEGATIVE_INFINITY;
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    requestState(res).rateLimiter = async (keyId, rateClass) => {
      const now = clock();
      if (now - lastSweep > 60_000) {
        // Housekeeping, at most once a minute of the sandbox clock: rows that are past use either way (an ended
        // window is reset on next use; an expired idempotency key is claimed afresh).
        lastSweep = now;
        sweepRateLimits(db, now).catch((err: unknown) => logger.warn({ err }, 'sweeping rate-limit windows failed'));
        sweepIdempotencyKeys(db, new Date(now)).catch((err: unknown) =>
          logger.warn({ err }, 'sweeping expired idempotency keys failed'),
        );
      }
      return hitRateLimit(db, keyId, rateClass, now);
    };
    next();
  });
  router.use(injectFaults({ db }));
  router.use(authenticate(options));
  router.use(rejectUnsafeText('path', 'query'));

  router.use(webhookRegistrationRouter(options));
  const v1 = express.Router();
  v1.use(discoveryRouter(options));
  v1.use(checkoutSessionRouter(options));
  v1.use(morRouter(options));
  v1.use(eventsRouter(options));
  v1.use(settlementRouter(options));
  v1.use(brokerageRouter(options));
  v1.use(referralRouter(options));
  router.use('/v1', v1);

  router.use(notFoundHandler());
  router.use(jsonErrorHandler(options.logger));
  return router;
}
