/**
 * The money steps of the MoR order flow (Partner API spec 1, 2.1, 2.2), shared by the visitor's request
 * (`flow.ts`) and the recovery pass (`recovery.ts`): record a paid intent upstream with its stored Idempotency-Key,
 * capture a recorded two-phase authorization, and unwind (void or refund) the payment of an intent that will not
 * become an order, reporting it to the `onOrderFailed` hook.
 */
import { MarketplaceError } from '@domainkit/client';
import type { Buyer, CreateOrderRequest } from '@domainkit/protocol';
import { toCents } from '../db/tables.ts';
import { UpstreamBusyError } from '../errors.ts';
import { redactText } from '../logger.ts';
import type { OrderFlowDeps, OrderTimings } from './deps.ts';
import {
  markCaptured,
  markClosed,
  markRecorded,
  releaseForRetry,
  type Intent,
  type UpstreamOrder,
} from './order-store.ts';
import { PaymentCaptureError, type PaymentReference } from './payments.ts';

/** What became of the buyer's money when an order could not be completed. */
export type MoneyOutcome =
  /** The authorization was released: nothing was taken. */
  | 'voided'
  /** The release failed; the provider lets the hold lapse by itself. Nothing was taken. */
  | 'void_failed'
  /** A one-phase charge was refunded. */
  | 'refunded'
  /** A one-phase charge could not be refunded: refund it by hand. */
  | 'refund_failed'
  /** A one-phase adapter without `refundPayment`: refund it by hand. */
  | 'no_refund_adapter';

/** The report of an order whose payment was unwound (the `onOrderFailed` hook; also logged at error). */
export interface FailedOrderReport {
  readonly intentId: string;
  /** The intent's Idempotency-Key of `POST /orders`, to reconcile with the marketplace. */
  readonly idempotencyKey: string;
  readonly domain: string;
  /** Amount in minor units (cents). */
  readonly amountCents: number;
  readonly currency: string;
  /** `refused` (a permanent refusal upstream), `gave_up` (transient failures until the deadline), `capture_failed`. */
  readonly reason: 'refused' | 'gave_up' | 'capture_failed';
  /** The last error, for the log (upstream code, status and message). */
  readonly detail: string;
  readonly money: MoneyOutcome;
  /** The marketplace order, when one was recorded and then refunded upstream (`capture_failed`). */
  readonly orderId?: string | undefined;
  /** Outcome of `POST /refunds` for that order. */
  readonly orderRefund?: 'refunded' | 'refund_failed' | undefined;
}

/** How recording an intent ended. */
export type RecordOutcome =
  | { readonly kind: 'recorded'; readonly order: UpstreamOrder & { created_at?: string | undefined } }
  | { readonly kind: 'rejected'; readonly error: MarketplaceError; readonly money: MoneyOutcome }
  | { readonly kind: 'pending'; readonly error: unknown };

/** A 409 for a request with the same key still being processed (retry later), not a refusal. */
function isInFlightConflict(error: MarketplaceError): boolean {
  return error.retryAfter !== undefined || /in (?:progress|flight)|being processed|concurrent/i.test(error.message);
}

/**
 * Upstream answers that will not change on a retry: the marketplace refused this order for good. Any 4xx except
 * 408, 429 and a 409 for a request in flight; network errors, 5xx and answers that break the schema are transient.
 */
export function isPermanentRefusal(error: unknown): error is MarketplaceError {
  if (!(error instanceof MarketplaceError) || error.status === undefined) return false;
  if (error.status < 400 || error.status >= 500 || error.status === 408 || error.status === 429) return false;
  return !(error.status === 409 && isInFlightConflict(error));
}

/** An error as one line for logs and `last_error`, with signatures and secrets redacted (upstream text). */
export function describe(error: unknown): string {
  if (error instanceof MarketplaceError)
    return redactText(`${error.code} (${error.status ?? 'no answer'}): ${error.message}`);
  if (error instanceof UpstreamBusyError) return `budget busy: ${error.message}`;
  return redactText(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/**
 * Back-off of the recovery pass for one intent: `timings.retryBaseMs` (5 s), doubled per attempt, capped at
 * `timings.retryMaxMs` (10 minutes).
 */
export function retryDelayMs(attempts: number, timings: Pick<OrderTimings, 'retryBaseMs' | 'retryMaxMs'>): number {
  return Math.min(timings.retryMaxMs, timings.retryBaseMs * 2 ** Math.min(attempts, 10));
}

/** Builds the exact upstream body of `POST /orders` for a paid intent (both field sets of Partner API spec 2.1). */
export function orderRequestBody(intent: Intent, buyer: Buyer, reference: string): CreateOrderRequest {
  return {
    domain: intent.domain,
    quote_id: intent.quote_id,
    expected_price: toCents(intent.price_cents),
    currency: intent.currency,
    buyer,
    external_payment_ref: reference,
  };
}

/**
 * Records a paid intent upstream with its stored Idempotency-Key and body, then stores the outcome: `recorded`,
 * `rejected` (refunding the payment), or left `paid` for the recovery pass.
 */
export async function recordIntent(
  deps: OrderFlowDeps,
  intent: Intent,
  options: { budgetAcquired?: boolean; maxWaitMs: number },
): Promise<RecordOutcome> {
  const now = () => new Date(deps.now());
  const body = JSON.parse(intent.request_body!) as CreateOrderRequest;
  try {
    const order = await deps.client.orders.create(body, {
      idempotencyKey: intent.idempotency_key,
      budgetAcquired: options.budgetAcquired,
      context: { maxWaitMs: options.maxWaitMs },
    });
    await markRecorded(deps.db, intent.intent_id, order, now());
    deps.domainChanged?.(order.domain);
    deps.logger.info(
      { intent: intent.intent_id, order: order.public_id, domain: order.domain },
      'order recorded upstream',
    );
    return { kind: 'recorded', order };
  } catch (error) {
    if (isPermanentRefusal(error)) {
      if (error.status === 404 || error.status === 409) deps.domainChanged?.(intent.domain);
      const money = await unwindPayment(deps, intent);
      await markClosed(deps.db, intent.intent_id, 'rejected', {
        error: describe(error),
        refundState: money,
        phase: phaseAfter(money),
        now: now(),
      });
      await reportFailure(deps, intent, { reason: 'refused', detail: describe(error), money });
      return { kind: 'rejected', error, money };
    }
    const deadline = intent.created_at.getTime() + deps.timings.recordDeadlineMs;
    await releaseForRetry(deps.db, intent.intent_id, {
      error: describe(error),
      retryAt: new Date(
        Math.min(deps.now() + retryDelayMs(intent.attempts, deps.timings), Math.max(deadline, deps.now())),
      ),
      now: now(),
    });
    deps.logger.warn(
      { intent: intent.intent_id, domain: intent.domain, attempt: intent.attempts + 1, reason: describe(error) },
      'order not recorded yet; the recovery pass will retry with the same key',
    );
    return { kind: 'pending', error };
  }
}

function paymentReference(intent: Intent): PaymentReference {
  return {
    intentId: intent.intent_id,
    reference: intent.payment_reference ?? '',
    amountCents: toCents(intent.price_cents),
    currency: intent.currency,
  };
}

function phaseAfter(money: MoneyOutcome): 'voided' | 'void_failed' | undefined {
  return money === 'voided' || money === 'void_failed' ? money : undefined;
}

/**
 * Gives the buyer's money back for an intent that will not become an order: voids a two-phase authorization, or
 * refunds a one-phase charge. Never throws.
 */
export async function unwindPayment(deps: OrderFlowDeps, intent: Intent): Promise<MoneyOutcome> {
  const adapter = deps.payments;
  if (intent.payment_phase === 'authorized' && adapter.voidPayment !== undefined) {
    try {
      await adapter.voidPayment(paymentReference(intent));
      return 'voided';
    } catch (error) {
      deps.logger.error(
        { intent: intent.intent_id, adapter: adapter.name, error: describe(error) },
        'void failed: the authorization lapses by itself; release it by hand to free the buyer funds sooner',
      );
      return 'void_failed';
    }
  }
  if (adapter.refundPayment === undefined || intent.payment_reference === null) return 'no_refund_adapter';
  try {
    await adapter.refundPayment(paymentReference(intent));
    return 'refunded';
  } catch (error) {
    deps.logger.error(
      { intent: intent.intent_id, adapter: adapter.name, error: describe(error) },
      'refund failed: refund this payment by hand',
    );
    return 'refund_failed';
  }
}

/** Logs an unwound order at error and tells the `onOrderFailed` hook (whose own failure is logged, not raised). */
export async function reportFailure(
  deps: OrderFlowDeps,
  intent: Intent,
  outcome: Pick<FailedOrderReport, 'reason' | 'detail' | 'money' | 'orderId' | 'orderRefund'>,
): Promise<void> {
  const report: FailedOrderReport = {
    intentId: intent.intent_id,
    idempotencyKey: intent.idempotency_key,
    domain: intent.domain,
    amountCents: toCents(intent.price_cents),
    currency: intent.currency,
    ...outcome,
  };
  deps.logger.error(
    {
      intent: report.intentId,
      idempotency_key: report.idempotencyKey,
      domain: report.domain,
      reason: report.reason,
      detail: report.detail,
      money: report.money,
      order: report.orderId,
      order_refund: report.orderRefund,
    },
    report.reason === 'refused'
      ? 'the marketplace refused a paid order; the payment was unwound'
      : report.reason === 'capture_failed'
        ? 'the payment could not be captured; the order was refunded upstream and the authorization voided'
        : 'the order could not be recorded in time; gave up and unwound the payment',
  );
  try {
    await deps.onOrderFailed?.(report);
  } catch (error) {
    deps.logger.error({ intent: report.intentId, error: describe(error) }, 'the onOrderFailed hook failed');
  }
}

/** How capturing a recorded intent's authorization ended. */
export type CaptureOutcome =
  | { readonly kind: 'captured' }
  /** Refused for good: the order was refunded upstream and the authorization voided. */
  | { readonly kind: 'failed'; readonly orderRefund: 'refunded' | 'refund_failed'; readonly money: MoneyOutcome }
  /** Outcome unknown (the provider failed): left to the recovery pass. */
  | { readonly kind: 'pending' };

/**
 * Captures the authorization of a recorded two-phase intent. A refusal (PaymentCaptureError) refunds the order
 * upstream (`POST /refunds`, with an Idempotency-Key derived from the intent's) and voids the authorization; any
 * other failure leaves the intent to the recovery pass (or, past the deadline, is treated as a refusal).
 */
export async function captureIntent(
  deps: OrderFlowDeps,
  intent: Intent,
  orderId: string,
  options: { pastDeadline?: boolean } = {},
): Promise<CaptureOutcome> {
  const now = () => new Date(deps.now());
  try {
    await deps.payments.capturePayment!(paymentReference(intent));
    await markCaptured(deps.db, intent.intent_id, now());
    return { kind: 'captured' };
  } catch (error) {
    if (!(error instanceof PaymentCaptureError) && !options.pastDeadline) {
      await releaseForRetry(deps.db, intent.intent_id, {
        error: `capture: ${describe(error)}`,
        retryAt: new Date(deps.now() + retryDelayMs(intent.attempts, deps.timings)),
        now: now(),
      });
      deps.logger.warn(
        { intent: intent.intent_id, adapter: deps.payments.name, error: describe(error) },
        'capture failed; the recovery pass will retry it',
      );
      return { kind: 'pending' };
    }
    let orderRefund: 'refunded' | 'refund_failed' = 'refunded';
    try {
      await deps.client.refunds.create(
        { order_id: orderId, reason: 'The payment could not be captured.' },
        { idempotencyKey: `${intent.idempotency_key}:refund` },
      );
    } catch (refundError) {
      orderRefund = 'refund_failed';
      deps.logger.error(
        { intent: intent.intent_id, order: orderId, error: describe(refundError) },
        'refunding the order upstream failed: refund it by hand (POST /refunds)',
      );
    }
    const money = await unwindPayment(deps, intent);
    await markClosed(deps.db, intent.intent_id, 'rejected', {
      error: `capture: ${describe(error)}`,
      refundState: orderRefund === 'refunded' ? 'order_refunded' : 'order_refund_failed',
      phase: phaseAfter(money),
      now: now(),
    });
    await reportFailure(deps, intent, {
      reason: 'capture_failed',
      detail: describe(error),
      money,
      orderId,
      orderRefund,
    });
    return { kind: 'failed', orderRefund, money };
  }
}
