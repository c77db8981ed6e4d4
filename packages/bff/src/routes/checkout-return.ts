/**
 * `GET /checkout/return?checkout_session_id=…&status=paid&domain=…&price_cents=…&currency=…&ts=…&sig=…` → 200
 * `{"checkout_session_id", "status": "paid", "domain", "price_cents", "currency"}`: the buyer is back from the hosted
 * checkout (Partner API spec 2.3) and the page asks whether the sale happened. The BFF verifies the lander's signed result with
 * this credential's API secret (docs/spec-decisions.md, "Hosted checkout: the return journey"), so a URL a visitor
 * edited or made up is never confirmed: 400 `validation_error`. A verified sale is reported once per session to the
 * `onCheckoutCompleted` hook. A verified sale also drops every cached search and siblings answer listing the domain
 * (`domainChanged`, on every replica sharing the database), so no visitor is offered the domain just bought.
 */
import { verifyCheckoutReturn, type CheckoutReturn } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { BffHttpError } from '../errors.ts';

/** What the route uses. */
export interface CheckoutReturnDeps {
  /** The partner's API secret (option `marketplace.secret`); without it nothing can be verified. */
  readonly secret: string | undefined;
  readonly now: () => number;
  readonly onCheckoutCompleted: ((sale: CheckoutReturn) => void | Promise<void>) | undefined;
  readonly logger: Logger;
  /** Told the domain of each verified sale (drops the cached answers listing it; domain-changes.ts). */
  readonly domainChanged: (domain: string) => void;
}

/** The handler; remembers (in memory, last 1000) which sessions the hook was told about. */
export function checkoutReturnRoute(deps: CheckoutReturnDeps): RequestHandler {
  const reported = new Set<string>();
  return async function domainkitBffCheckoutReturn(req, res) {
    const sale = deps.secret
      ? verifyCheckoutReturn(deps.secret, req.query as Record<string, unknown>, Math.floor(deps.now() / 1000))
      : undefined;
    if (!sale) {
      throw new BffHttpError(
        'validation_error',
        'This checkout result is not one the marketplace signed for this shop: nothing is confirmed.',
      );
    }
    // Sold: the cached searches listing it must stop offering it (only after the signature is verified).
    deps.domainChanged(sale.domain);
    if (deps.onCheckoutCompleted && !reported.has(sale.checkout_session_id)) {
      reported.add(sale.checkout_session_id);
      if (reported.size > 1000) reported.delete(reported.values().next().value!);
      try {
        await deps.onCheckoutCompleted(sale);
      } catch (error) {
        deps.logger.error({ err: error, checkout_session_id: sale.checkout_session_id }, 'onCheckoutCompleted failed');
      }
    }
    const { checkout_session_id, domain, price_cents, currency } = sale;
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ checkout_session_id, status: 'paid', domain, price_cents, currency });
  };
}
