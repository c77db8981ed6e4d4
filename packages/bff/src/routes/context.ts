/**
 * Helpers the route handlers share. Each route factory takes its own deps object (`…RouteDeps`, declared beside
 * it) holding only what it uses; the router builds them.
 */
import type { Domain, WidgetDomain } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import { BffHttpError } from '../errors.ts';

export { upstreamSaysGone } from '../upstream/domain-changes.ts';

/** A domain as the widget shows it: only what it needs, never upstream extras. */
export function toWidgetDomain(
  domain: Pick<Domain, 'domain' | 'available' | 'price_cents' | 'currency'>,
): WidgetDomain {
  return {
    domain: domain.domain,
    available: domain.available,
    price_cents: domain.price_cents,
    currency: domain.currency,
  };
}

export { noQuerySchema } from '../validate.ts';

/** 405 for a known path used with another method; names the right one in `Allow` and the message. */
export function methodNotAllowed(allow: string): RequestHandler {
  return function domainkitBffMethodNotAllowed(req, res, next) {
    res.setHeader('Allow', allow);
    next(new BffHttpError('method_not_allowed', `${req.method} is not supported here: use ${allow}.`));
  };
}
