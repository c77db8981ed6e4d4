/**
 * The purchase feature (selling as Merchant of Record, Partner API spec 1: `POST /quotes`, `POST /orders`,
 * `GET /orders/:id`, the payment adapters and the order recovery pass). The entry every other module of the BFF
 * imports it through.
 */
import type { RouteSpec } from '../http/index.ts';
import { orderStatusRoute, placeOrderRoute, type OrderStatusRouteDeps } from './order-routes.ts';
import { quoteRoute, type QuoteRouteDeps } from './quote-route.ts';

export {
  testCardPayments,
  testPaymentsRefusal,
  isTwoPhase,
  PaymentInputError,
  PaymentCaptureError,
  TEST_CARD_NUMBERS,
  type PaymentAdapter,
  type PaymentReference,
  type PaymentRequest,
  type PaymentResult,
  type TestCardCharge,
  type TestCardPayment,
} from './payments.ts';
export { RECORD_DEADLINE_MS, type OrderFlowDeps, type OrderTimings } from './deps.ts';
export type { FailedOrderReport, MoneyOutcome } from './settle.ts';
export { PROCESSING_STATUS } from './views.ts';
export { ORDER_STATUS_RANK, FINAL_ORDER_STATUSES, movesForward } from './status.ts';
export { applyOrderEvent, findOrder, countIntentsByState, type EventOrder, type StoredOrder } from './order-store.ts';
export type { RecoveryReport } from './recovery.ts';
export { OrderRecovery } from './order-recovery.ts';
export { ORDER_TOKEN_HEADER, orderStatusRoute, placeOrderRoute } from './order-routes.ts';
export { quoteRoute } from './quote-route.ts';
export { PURCHASE_KEY_HEADER } from './purchase-key.ts';

/** What the purchase feature's routes use. */
export type PurchaseFeatureDeps = QuoteRouteDeps & OrderStatusRouteDeps;

/** What the handler composes of the purchase feature (served only when the BFF sells as Merchant of Record). */
export interface PurchaseFeature {
  /**
   * `POST /quotes` and `POST /orders` (writes: cross-site requests refused, counted as writes; the purchase key in
   * `Idempotency-Key`), `GET /orders/:id` (with `X-Order-Token`; counted as a search); all answered within the
   * visitor deadline, `POST /orders` then with 202 `PROCESSING` once a payment step may have run.
   */
  readonly routes: readonly RouteSpec[];
}

/** The purchase feature's routes, made once per BFF. */
export function purchaseFeature(deps: PurchaseFeatureDeps): PurchaseFeature {
  return {
    routes: [
      { path: '/quotes', POST: quoteRoute(deps), limit: 'write', sameSiteWrite: true },
      { path: '/orders', POST: placeOrderRoute(deps), limit: 'write', sameSiteWrite: true },
      { path: '/orders/:id', GET: orderStatusRoute(deps), limit: 'search' },
    ],
  };
}
export {
  purchaseOptionsShape,
  clientForPurchaseProblem,
  testPaymentsProblem,
  resolveOrderTimings,
  PURCHASE_ENV_VARIABLES,
  readPurchaseEnv,
} from './options.ts';
