/**
 * Helpers the route handlers share. Each route factory takes its own deps object (`…RouteDeps`, declared beside
 * it) holding only what it uses; the router builds them.
 */
import type { Domain, WidgetDomain } from '@domainkit/protocol';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { BffHttpError } from '../errors.ts';
import { parseInput } from '../validate.ts';

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

/** A query that must be empty (routes that take no query parameters). */
export const noQuerySchema = z.strictObject({});

/** 405 for a known path used with another method; names the right one in `Allow` and the message. */
export function methodNotAllowed(allow: string): RequestHandler {
  return function domainkitBffMethodNotAllowed(req, res, next) {
    res.setHeader('Allow', allow);
    next(new BffHttpError('method_not_allowed', `${req.method} is not supported here: use ${allow}.`));
  };
}

/** The purchase-key header of `POST /quotes` and `POST /orders` (the IETF `Idempotency-Key` header's name). */
export const PURCHASE_KEY_HEADER = 'Idempotency-Key';
const purchaseKeySchema = z.object({
  key: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{16,128}$/,
      'must be 16 to 128 letters, digits, "-" or "_": a new random key (such as a UUID) per purchase attempt',
    )
    .optional(),
});

/**
 * The visitor's purchase key (the widget's one random key per purchase attempt, docs/spec-decisions.md "Purchase
 * keys and deadlines"), or undefined when the request carries none.
 * @throws {BffHttpError} 400 `validation_error` for a malformed key.
 */
export function purchaseKeyOf(req: Request): string | undefined {
  return parseInput(purchaseKeySchema, { key: req.get(PURCHASE_KEY_HEADER) }, 'header', {
    key: { label: `The ${PURCHASE_KEY_HEADER} header`, hint: 'the purchase key', example: '' },
  }).key;
}
