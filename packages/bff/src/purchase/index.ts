/**
 * The purchase feature (selling as Merchant of Record, Partner API spec 1: `POST /quotes`, `POST /orders`,
 * `GET /orders/:id`, the payment adapters and the order recovery pass). The entry every other module of the BFF
 * imports it through.
 */
import type { MarketplaceEvent } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { RouteSpec } from '../http/index.ts';
import { orderStatusRoute, placeOrderRoute, type OrderStatusRouteDeps } from './order-routes.ts';
import { orderStepHandler, type OrderEventHook } from './order-steps.ts';
import { OrderWatch, orderTrackRoute } from './order-tracking.ts';
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
export { MAX_TRACK_WAIT_SECONDS, TRACK_RECHECK_MS, OrderWatch, orderTrackRoute } from './order-tracking.ts';
export type { OrderStep, OrderEventHook } from './order-steps.ts';
export { PURCHASE_KEY_HEADER } from './purchase-key.ts';

/** What the purchase feature's routes use. */
export type PurchaseFeatureDeps = QuoteRouteDeps &
  OrderStatusRouteDeps & {
    /** The visitor deadline (ms): an order tracking wait ends before it. */
    readonly deadlineMs: number;
    /** Option `onOrderEvent`: told once per step of each order. */
    readonly onOrderEvent: OrderEventHook | undefined;
    readonly logger: Logger;
    /** How often a waiting `GET /orders/:id/status` reads the order again (ms); default 2 s. For tests. */
    readonly trackRecheckMs?: number | undefined;
  };

/** What the handler composes of the purchase feature (served only when the BFF sells as Merchant of Record). */
export interface PurchaseFeature {
  /**
   * `POST /quotes` and `POST /orders` (writes: cross-site requests refused, counted as writes; the purchase key in
   * `Idempotency-Key`), `GET /orders/:id` (with `X-Order-Token`; counted as a search); all answered within the
   * visitor deadline, `POST /orders` then with 202 `PROCESSING` once a payment step may have run.
   * `GET /orders/:id/status?after=&wait=` (with `X-Order-Token`; counted as a search) follows the order by long poll.
   */
  readonly routes: readonly RouteSpec[];
  /**
   * The inbox handler (`*`) that wakes the buyers following an order when one of its events is applied, and calls
   * `onOrderEvent` once per step.
   */
  readonly onEvent: (
    event: MarketplaceEvent,
    context: Parameters<ReturnType<typeof orderStepHandler>>[1],
  ) => Promise<void>;
}

/** The purchase feature's routes, made once per BFF. */
export function purchaseFeature(deps: PurchaseFeatureDeps): PurchaseFeature {
  const watch = new OrderWatch();
  const track = orderTrackRoute({ db: deps.db, watch, deadlineMs: deps.deadlineMs, recheckMs: deps.trackRecheckMs });
  return {
    onEvent: orderStepHandler({
      ...{ db: deps.db, now: deps.now, logger: deps.logger, hook: deps.onOrderEvent },
      moved: (orderId) => watch.notify(orderId),
    }),
    routes: [
      { path: '/quotes', POST: quoteRoute(deps), limit: 'write', sameSiteWrite: true },
      { path: '/orders', POST: placeOrderRoute(deps), limit: 'write', sameSiteWrite: true },
      { path: '/orders/:id', GET: orderStatusRoute(deps), limit: 'search' },
      { path: '/orders/:id/status', GET: track, limit: 'search' },
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
