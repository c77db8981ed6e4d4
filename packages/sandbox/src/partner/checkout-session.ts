/**
 * `POST /checkout-session` (Partner API spec 2.3, 4.1 "Non-MoR", scope `embed`): opens a checkout session on the hosted
 * lander for a listed domain and answers 201 `{checkout_url, domain, price_cents, currency, expires_at}`, where
 * `checkout_url` is `{publicUrl}/checkout?pt=<signed token>`, valid 7 days. Unlisted → 404 `not_found`; sold, or
 * reserved by another credential's quote → 409 `conflict`.
 */
import type { KeyObject } from 'node:crypto';
import { checkoutSessionRequestSchema } from '@domainkit/protocol';
import express, { type Request, type Router } from 'express';
import type { Logger } from 'pino';
import { authorize, credentialOf } from '../auth/authorize.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import { createCheckoutSession } from '../checkout/sessions.ts';
import { signCheckoutToken } from '../checkout/token.ts';
import type { SandboxDb } from '../db/tables.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { readJsonBody } from '../http/body.ts';
import { requestState } from '../http/request-context.ts';
import { findDomain } from '../inventory/catalog.ts';
import { reservationConflict } from '../quotes/reservations.ts';
import { scenarioDelay } from '../scenarios/scenarios.ts';

/** What the checkout-session route needs. */
export interface CheckoutSessionRouteOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tokenKey: KeyObject;
  /** The sandbox's public base URL (no trailing slash) for a request; the lander is at `{base}/checkout`. */
  readonly publicUrl: (req: Request) => string;
}

/** Builds the checkout-session router (mounted under `/api/partner/v1`). */
export function checkoutSessionRouter(options: CheckoutSessionRouteOptions): Router {
  const { db, clock, logger, tokenKey } = options;
  const router = express.Router();

  router.post('/checkout-session', authorize({ scope: 'embed', rateClass: 'write' }), async (req, res) => {
    const input = parseOrThrow(checkoutSessionRequestSchema, readJsonBody(req), 'checkout session request');
    const credential = credentialOf(res);
    await scenarioDelay(credential.environment, input.domain);
    const domain = await findDomain(db, credential.environment, input.domain);
    if (domain === undefined) throw apiError('not_found', `${input.domain} is not listed on the marketplace.`);
    if (domain.status !== 'listed')
      throw apiError('conflict', `${input.domain} is already sold: it cannot be checked out.`);
    const reserved = await reservationConflict(db, domain, credential.key_id, new Date(clock()));
    if (reserved !== undefined) throw apiError('conflict', reserved);
    const session = await createCheckoutSession(db, {
      credential,
      domain,
      returnUrl: input.return_url,
      cancelUrl: input.cancel_url,
      locale: input.locale,
      now: new Date(clock()),
    });
    const token = signCheckoutToken(tokenKey, session.id, unixSeconds(session.expires_at.getTime()));
    logger.info(
      {
        req_id: requestState(res).requestId,
        key_id: credential.key_id,
        checkout_session: session.id,
        domain: session.domain,
      },
      'checkout session created',
    );
    res.status(201).json({
      checkout_url: `${options.publicUrl(req)}/checkout?pt=${token}`,
      domain: session.domain,
      price_cents: session.price_cents,
      currency: session.currency,
      expires_at: session.expires_at.toISOString(),
    });
  });

  return router;
}
