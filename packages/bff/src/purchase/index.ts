/**
 * The purchase feature (selling as Merchant of Record, Partner API spec 1: `POST /quotes`, `POST /orders`,
 * `GET /orders/:id`, the payment adapters and the order recovery pass). The entry every other module of the BFF
 * imports it through.
 */
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
