/**
 * `GET /checkout/return?checkout_session_id=…&status=paid&domain=…&price_cents=…&currency=…&ts=…&sig=…` → 200
 * `{"checkout_session_id", "status": "paid", "domain", "price_cents", "currency"}`: the buyer is back from the hosted
 * checkout (Partner API spec 2.3) and the page asks whether the sale happened. The BFF verifies the lander's signed result with
 * this credential's API secret (docs/spec-decisions.md, "Hosted checkout: the return journey"), so a URL a visitor
 * edited or made up is never confirmed: 400 `validation_error`. A verified sale is reported to the
 * `onCheckoutCompleted` hook once per checkout session: the session is recorded in the database
 * (checkout/completions.ts) before the hook runs, so a return replayed after a restart, on another replica, or
 * signed again later for the same session does not run it again. A verified sale also drops every cached search
 * and siblings answer listing the domain (`domainChanged`, on every replica sharing the database), so no visitor is
 * offered the domain just bought.
 */
import { named } from '../http/widget.ts';
import { verifyCheckoutReturn, type CheckoutReturn } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { claimCheckoutCompletion, recordCheckoutHookError } from './completions.ts';
import type { BffDb } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import { type BffRequest, json, type RouteHandler } from '../http/index.ts';
import { errorFields, redactText } from '../logger.ts';

/** What the route uses. */
export interface CheckoutReturnDeps {
  /** The partner's API secret (option `marketplace.secret`); without it nothing can be verified. */
  readonly secret: string | undefined;
  /** The credential's key id: completions are recorded per credential. */
  readonly keyId: string;
  /** The open database (configured whenever `onCheckoutCompleted` is). @throws {BffHttpError} 503 `unavailable`. */
  readonly db: () => Promise<BffDb>;
  readonly now: () => number;
  readonly onCheckoutCompleted: ((sale: CheckoutReturn) => void | Promise<void>) | undefined;
  readonly logger: Logger;
  /** Told the domain of each verified sale (drops the cached answers listing it; domain-changes.ts). */
  readonly domainChanged: (domain: string) => void;
}

/** The route (`GET /checkout/return`). */
export function checkoutReturnRoute(deps: CheckoutReturnDeps): RouteHandler {
  return async function domainkitBffCheckoutReturn(req: BffRequest): Promise<Response> {
    const sale = deps.secret
      ? await verifyCheckoutReturn(deps.secret, req.query, Math.floor(deps.now() / 1000))
      : undefined;
    if (!sale) {
      throw new BffHttpError(
        'validation_error',
        'This checkout result is not one the marketplace signed for this shop: nothing is confirmed.',
      );
    }
    // Sold: the cached searches listing it must stop offering it (only after the signature is verified).
    deps.domainChanged(sale.domain);
    if (deps.onCheckoutCompleted) await reportOnce(deps, deps.onCheckoutCompleted, sale);
    const { checkout_session_id, domain, price_cents, currency } = sale;
    return json({ checkout_session_id, status: 'paid', ...named(domain), price_cents, currency }, 200, {
      'Cache-Control': 'no-store',
    });
  };
}

/**
 * Runs the hook for `sale` unless its session was recorded before. The buyer's answer never depends on it: a
 * database that cannot record the session leaves the hook for a later return of the same session (logged at
 * error), and what the hook throws is logged and kept with the session.
 */
async function reportOnce(
  deps: CheckoutReturnDeps,
  hook: (sale: CheckoutReturn) => void | Promise<void>,
  sale: CheckoutReturn,
): Promise<void> {
  const session = { checkout_session_id: sale.checkout_session_id };
  let db: BffDb;
  try {
    db = await deps.db();
    if (!(await claimCheckoutCompletion(db, deps.keyId, sale, new Date(deps.now())))) return;
  } catch (error) {
    deps.logger.error(
      { ...session, ...errorFields(error) },
      'onCheckoutCompleted not run: the session could not be recorded; it runs on a later return of this session',
    );
    return;
  }
  try {
    await hook(sale);
  } catch (error) {
    deps.logger.error({ err: error, ...session }, 'onCheckoutCompleted failed');
    const message = redactText(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    await recordCheckoutHookError(db, deps.keyId, sale.checkout_session_id, message).catch(() => {});
  }
}
