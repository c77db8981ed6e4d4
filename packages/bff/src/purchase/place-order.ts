/**
 * The MoR order flow (Partner API spec 1, 2.1, 2.2, 4.1 "MoR"): a visitor pays for a quoted domain, the BFF records the order
 * upstream with an Idempotency-Key it stored before any payment step, and a paid order is recorded exactly once, by
 * the visitor's request or, after a crash or a transient upstream failure, by the recovery pass.
 *
 * Money moves last: the whole order is validated first (the route parses it with the same protocol schema the
 * marketplace uses). With a two-phase adapter the BFF authorizes, records the order upstream, then captures:
 *
 * - a permanent refusal upstream (any 4xx but 429, 408 and a 409 for a request still in flight) voids the
 *   authorization at once and the visitor is told that nothing was taken;
 * - a transient failure (network, 5xx, 429) leaves the intent to the recovery pass, which gives up
 *   {@link RECORD_DEADLINE_MS} after the payment: it voids (or refunds) and reports the intent;
 * - a capture refused after the order was recorded refunds the order upstream (`POST /refunds`) and voids.
 *
 * Every unwound payment is logged at error and reported to the `onOrderFailed` hook. The price is always the stored
 * quote's, never a figure from the browser.
 */
import { MarketplaceError } from '@domainkit/client';
import {
  ErrorCode,
  type Buyer,
  type CreateOrderRequest,
  type WidgetMoney,
  type WidgetOrderResponse,
} from '@domainkit/protocol';
import type { Logger } from 'pino';
import { UpstreamBusyError, type BffUpstreamBudget } from '../upstream/budget.ts';
import { toCents, type BffDb } from '../db/tables.ts';
import { redactText } from '../logger.ts';
import type { LearnedPrice } from '../upstream/domain-changes.ts';
import { BffHttpError } from '../errors.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import {
  isTwoPhase,
  PaymentCaptureError,
  type PaymentAdapter,
  type PaymentReference,
  type PaymentResult,
} from './payments.ts';
import { quoteIsPayable } from './quote.ts';
import { findQuote } from './quote-store.ts';
import {
  createIntent,
  findIntentByPurchaseKey,
  findLiveIntentForPurchase,
  findLiveIntentForQuote,
  findOrder,
  hashToken,
  markCaptured,
  markClosed,
  markPaid,
  markRecorded,
  addViewToken,
  ENDED_INTENT_STATES,
  newOrderToken,
  releaseForRetry,
  releasePurchaseKey,
  type Intent,
  type UpstreamOrder,
} from './order-store.ts';

/** Timings of the MoR order flow and its recovery pass (ms). */
export interface OrderTimings {
  /** How long one process may work on an intent before recovery may take it over; option `background.leaseSeconds`, default 60 s. */
  readonly leaseMs: number;
  /** A quote must have at least this long left to be paid for (the record must reach upstream in time); default 30 s. */
  readonly quoteMarginMs: number;
  /** Longest wait for the upstream write token reserved before charging the buyer; `upstreamBudget.maxWaitMs` when longer, else 3 s. */
  readonly reserveWaitMs: number;
  /** Longest budget wait of the record sent during the visitor's request; default 5 s. */
  readonly recordWaitMs: number;
  /** Longest budget wait of a record sent by the recovery pass; default 10 s. */
  readonly recoveryRecordWaitMs: number;
  /** Longest budget wait of the price lookup after a `price_mismatch` refusal; default 2 s. */
  readonly priceLookupWaitMs: number;
  /** First back-off of a record that failed (then doubled per attempt); default 5 s. */
  readonly retryBaseMs: number;
  /** Longest back-off of a record that failed; default 10 minutes. */
  readonly retryMaxMs: number;
  /** A `created` intent whose payment outcome stays unknown this long is abandoned; default 1 hour. */
  readonly abandonAfterMs: number;
  /** Most intents per recovery pass; default 25. */
  readonly recoveryBatch: number;
  /**
   * How long after its intent was created an order may still be recorded; past it the recovery pass gives up, voids
   * (or refunds) the payment and reports the intent; option `orderDeadlineSeconds`, default 30 s.
   */
  readonly recordDeadlineMs: number;
}

/** What the order flow and the recovery pass need. */
export interface OrderFlowDeps {
  readonly db: BffDb;
  /** The credential's key id: intents are recorded, and recovered, per credential. */
  readonly keyId: string;
  readonly client: MarketplaceApi;
  readonly payments: PaymentAdapter;
  readonly budget: BffUpstreamBudget;
  readonly logger: Logger;
  /** Clock, ms since the epoch. */
  readonly now: () => number;
  /** Leases, waits, back-off and the quote margin (ms). */
  readonly timings: OrderTimings;
  /** Told the domain of an order recorded, or refused as sold or unlisted, upstream (drops cached searches). */
  readonly domainChanged?: ((domain: string) => void) | undefined;
  /** Told the new price of an order refused with `price_mismatch` (corrects cached searches). */
  readonly priceLearned?: ((price: LearnedPrice) => void) | undefined;
  /** Told of every order whose payment was unwound (voided or refunded); see {@link FailedOrderReport}. */
  readonly onOrderFailed?: ((report: FailedOrderReport) => void | Promise<void>) | undefined;
}

/** Default of the record deadline (option `orderDeadlineSeconds`): 30 s after the intent was created. */
export const RECORD_DEADLINE_MS = 30_000;

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

/** What the visitor is told became of the money (the wire's `money`, Partner API spec 1 item 2) for an unwound payment. */
export function wireMoney(outcome: MoneyOutcome): WidgetMoney {
  switch (outcome) {
    case 'voided':
    case 'void_failed':
      return 'not_charged';
    case 'refunded':
      return 'refunded';
    default:
      return 'refund_pending';
  }
}

/**
 * What became of the money of an intent that ended without an order (`declined`, `rejected`, `abandoned`), from what
 * is stored: the authorization's phase first (released: nothing taken), then the refund's outcome; `undefined`
 * while the intent is live or recorded.
 */
export function intentMoney(intent: Pick<Intent, 'state' | 'payment_phase' | 'refund_state'>): WidgetMoney | undefined {
  if (intent.state === 'declined') return 'not_charged';
  if (intent.state !== 'rejected' && intent.state !== 'abandoned') return undefined;
  if (intent.payment_phase === 'voided' || intent.payment_phase === 'void_failed') return 'not_charged';
  switch (intent.refund_state) {
    case 'voided':
    case 'void_failed':
      return 'not_charged';
    case 'refunded':
    case 'order_refunded':
      return 'refunded';
    case null:
      // Abandoned before the payment's outcome was known.
      return 'unknown';
    default:
      return 'refund_pending';
  }
}

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

/** The visitor's `POST /orders` body, validated. */
export interface PlaceOrderInput {
  readonly quoteId: string;
  readonly buyer: Buyer;
  /** The provider payload, as returned by the adapter's `parsePayment`. */
  readonly payment: unknown;
  /**
   * The visitor's purchase key (the widget's `Idempotency-Key`, one per purchase attempt): a retry with the same key
   * is answered from the intent it started, never with a second payment step.
   */
  readonly purchaseKey?: string | undefined;
  /**
   * Told, once the intent is stored (before any payment step), the answer the visitor gets if the request's deadline
   * passes while the purchase is under way: 202 `PROCESSING` with the order id and view token.
   */
  readonly onStarted?: ((processing: WidgetOrderResponse) => void) | undefined;
}

/** The status the widget sees while a paid order waits to be recorded upstream. */
export const PROCESSING_STATUS = 'PROCESSING';

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
function describe(error: unknown): string {
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

/**
 * The whole `POST /orders` flow.
 * @returns 201 with the recorded order, or 202 with status `PROCESSING` when the payment went through but the
 *   record is still pending upstream (never reported as a recorded order).
 * @throws {BffHttpError} `not_found` (unknown quote), `quote_expired`, `order_in_progress` (the quote already has
 *   an order in progress), `busy`, `payment_declined`, `payment_error`, `price_mismatch` (with `price_cents`), or the
 *   mapped upstream refusal.
 */
export async function placeOrder(
  deps: OrderFlowDeps,
  input: PlaceOrderInput,
): Promise<{ status: 201 | 202; body: WidgetOrderResponse }> {
  const { db } = deps;
  const now = () => new Date(deps.now());
  const keyHash = input.purchaseKey === undefined ? undefined : hashToken(input.purchaseKey);
  if (keyHash !== undefined) {
    const started = await findIntentByPurchaseKey(db, deps.keyId, keyHash);
    if (started !== undefined) {
      if (started.quote_id === input.quoteId) return purchaseAnswer(deps, started);
      // The key with another quote: a new attempt once the key's attempt ended, else refused (nothing revealed).
      if (!(ENDED_INTENT_STATES.includes(started.state) && (await releasePurchaseKey(db, started.intent_id, now()))))
        throw purchaseKeyReused();
    }
  }
  const quote = await findQuote(db, input.quoteId);
  if (quote === undefined) throw new BffHttpError('not_found', 'Unknown quote_id: ask for a new quote (POST /quotes).');
  if (!quoteIsPayable(quote, deps.now(), deps.timings.quoteMarginMs)) {
    throw new BffHttpError('quote_expired', 'This price quote has expired: ask for a new quote (POST /quotes).');
  }
  const live = await findLiveIntentForQuote(db, quote.quote_id);
  if (live !== undefined) throw inFlight(live);
  // Reserve the upstream write before charging: a buyer is never charged for an order the BFF cannot send now.
  await deps.budget.reserve('write', deps.timings.reserveWaitMs);

  const { token, hash } = newOrderToken();
  const intent = await createIntent(db, {
    keyId: deps.keyId,
    quote,
    buyer: input.buyer,
    tokenHash: hash,
    purchaseKeyHash: keyHash,
    leaseUntil: new Date(deps.now() + deps.timings.leaseMs),
    now: now(),
  });
  if (intent === undefined) {
    // A concurrent request won: the same purchase (a retry) is answered from its intent; another one must wait.
    const started = keyHash === undefined ? undefined : await findIntentByPurchaseKey(db, deps.keyId, keyHash);
    if (started !== undefined) {
      if (started.quote_id !== quote.quote_id) throw purchaseKeyReused();
      return purchaseAnswer(deps, started);
    }
    const other = await findLiveIntentForQuote(db, quote.quote_id);
    throw other === undefined
      ? new BffHttpError(
          'order_in_progress',
          'An order for this quote is already in progress: wait a moment and try again.',
        )
      : inFlight(other);
  }

  input.onStarted?.({
    order_id: intent.intent_id,
    order_token: token,
    status: PROCESSING_STATUS,
    domain: intent.domain,
    sale_price_cents: toCents(intent.price_cents),
    currency: intent.currency,
    created_at: intent.created_at.toISOString(),
  });
  const twoPhase = isTwoPhase(deps.payments);
  const request = {
    intentId: intent.intent_id,
    amountCents: toCents(quote.price_cents),
    currency: quote.currency,
    payment: input.payment,
    domain: quote.domain,
    buyer: input.buyer,
  };
  let payment: PaymentResult;
  try {
    payment = twoPhase ? await deps.payments.authorizePayment!(request) : await deps.payments.confirmPayment!(request);
  } catch (error) {
    // The outcome is unknown: the intent stays `created`; recovery asks the provider (retrievePayment) later.
    await releaseForRetry(db, intent.intent_id, {
      error: `payment: ${describe(error)}`,
      retryAt: new Date(deps.now() + deps.timings.leaseMs),
      now: now(),
    });
    deps.logger.error(
      { intent: intent.intent_id, adapter: deps.payments.name, error: describe(error) },
      'payment confirmation failed',
    );
    throw new BffHttpError(
      'payment_error',
      'We could not confirm your payment. If you were charged, the order will be completed or refunded automatically.',
      { extra: { money: 'unknown' } },
    );
  }
  if (payment.status === 'declined') {
    await markClosed(db, intent.intent_id, 'declined', { error: payment.declineReason ?? 'declined', now: now() });
    throw new BffHttpError(
      'payment_declined',
      `Your payment was declined${payment.declineReason ? ` (${payment.declineReason})` : ''}; you have not been charged. Try another payment method.`,
      { extra: { money: 'not_charged' } },
    );
  }

  const paid = await markPaid(db, intent.intent_id, {
    reference: payment.reference,
    requestBody: JSON.stringify(orderRequestBody(intent, input.buyer, payment.reference)),
    leaseUntil: new Date(deps.now() + deps.timings.leaseMs),
    now: now(),
    phase: twoPhase ? 'authorized' : undefined,
  });
  deps.logger.debug(
    { intent: intent.intent_id, domain: intent.domain, phase: twoPhase ? 'authorized' : 'captured' },
    'payment secured; recording the order upstream',
  );
  const outcome = await recordIntent(deps, paid, { budgetAcquired: true, maxWaitMs: deps.timings.recordWaitMs });
  const created = intent.created_at.toISOString();
  if (outcome.kind === 'recorded') {
    const o = outcome.order;
    if (twoPhase) {
      const captured = await captureIntent(deps, paid, o.public_id);
      if (captured.kind === 'failed') {
        throw new BffHttpError(
          'payment_declined',
          `Your payment could not be completed, so the order for ${intent.domain} was cancelled. ${moneyMessage(wireMoney(captured.money))} Try another payment method.`,
          { extra: { money: wireMoney(captured.money) } },
        );
      }
    }
    return {
      status: 201,
      body: {
        order_id: o.public_id,
        order_token: token,
        status: o.status,
        domain: o.domain,
        sale_price_cents: o.sale_price_cents,
        currency: o.currency,
        created_at: o.created_at ?? created,
      },
    };
  }
  if (outcome.kind === 'pending') {
    return {
      status: 202,
      body: {
        order_id: intent.intent_id,
        order_token: token,
        status: PROCESSING_STATUS,
        domain: intent.domain,
        sale_price_cents: toCents(intent.price_cents),
        currency: intent.currency,
        created_at: created,
      },
    };
  }
  throw await refusalAnswer(deps, outcome.error, outcome.money, intent.domain, intent.currency);
}

/** The status a visitor sees for an intent without a recorded order. */
export function intentStatus(intent: Intent): string {
  switch (intent.state) {
    case 'created':
    case 'paid':
      return PROCESSING_STATUS;
    case 'rejected':
      return intent.refund_state === 'refunded' ? 'REFUNDED' : 'FAILED';
    default:
      return 'FAILED';
  }
}

/**
 * The answer to a request whose order for the same quote is in flight or done without this visitor's purchase key
 * (409 `order_in_progress` with the order's `order_id` and `status`): wait for it, never pay again.
 */
function inFlight(intent: Intent): BffHttpError {
  const done = intent.state === 'recorded';
  return new BffHttpError(
    'order_in_progress',
    done
      ? 'An order for this quote has already been placed: you will not be charged again.'
      : 'An order for this quote is already being processed: wait for its status; you will not be charged again.',
    { extra: { order_id: intent.order_id ?? intent.intent_id, status: done ? 'RECORDED' : intentStatus(intent) } },
  );
}

/**
 * The answer to a purchase key presented with a quote other than the one its live attempt was started with (409
 * `conflict`, like an upstream Idempotency-Key reused with another body, Partner API spec 4.1): nothing of that
 * attempt is revealed, no token is given, nothing is charged.
 */
function purchaseKeyReused(): BffHttpError {
  return new BffHttpError(
    'conflict',
    'This purchase key (Idempotency-Key) belongs to a purchase of another quote: nothing was charged by this request. Start a new purchase with a new key.',
    { extra: { money: 'not_charged' } },
  );
}

/**
 * The answer to a retry with a purchase key that already started an intent, presented with that intent's quote
 * (the caller checks it), from what is stored: never a second payment step. A live intent gets one more
 * order-view token (the visitor lost theirs with the lost answer; every earlier one keeps working) and its
 * status: 201 with the order once recorded, 202 `PROCESSING` while the payment or the record is under way. An
 * attempt that ended without an order answers as it ended: `payment_declined`, or `conflict` (refused upstream,
 * payment voided or refunded) or `payment_error` (outcome unknown).
 */
export async function purchaseAnswer(
  deps: OrderFlowDeps,
  intent: Intent,
): Promise<{ status: 201 | 202; body: WidgetOrderResponse }> {
  const money = intentMoney(intent);
  if (intent.state === 'declined')
    throw new BffHttpError(
      'payment_declined',
      'The payment of this purchase was declined; you have not been charged. Try another payment method.',
      { extra: { money: 'not_charged' } },
    );
  if (intent.state === 'rejected') {
    throw new BffHttpError('conflict', `The marketplace could not take this order. ${moneyMessage(money!)}`, {
      extra: { order_id: intent.intent_id, status: intentStatus(intent), money: money! },
    });
  }
  if (intent.state === 'abandoned')
    throw new BffHttpError('payment_error', `We could not complete this purchase. ${moneyMessage(money!)}`, {
      extra: { money: money! },
    });
  const { token, hash } = newOrderToken();
  await addViewToken(deps.db, intent.intent_id, hash, new Date(deps.now()));
  const order = intent.order_id === null ? undefined : await findOrder(deps.db, intent.order_id);
  deps.logger.info(
    { intent: intent.intent_id, state: intent.state },
    'purchase retried with its key: answered from the stored intent',
  );
  return {
    status: intent.state === 'recorded' ? 201 : 202,
    body: {
      order_id: intent.order_id ?? intent.intent_id,
      order_token: token,
      status: order?.status ?? PROCESSING_STATUS,
      domain: order?.domain ?? intent.domain,
      sale_price_cents: toCents(order?.sale_price_cents ?? intent.price_cents),
      currency: order?.currency ?? intent.currency,
      created_at: intent.created_at.toISOString(),
    },
  };
}

/** Order statuses after which the domain may be for sale again (Partner API spec 3). */
const ENDED_ORDER_STATUSES: ReadonlySet<string> = new Set(['REFUNDED', 'CANCELLED']);

/**
 * The purchase a visitor's re-quote finds under way: the live intent (`created`, `paid` or `recorded`) that
 * `purchase.key` (the widget's key of its current attempt to buy `domain`) started with `purchase.quoteId` (the
 * quote of that attempt), answered as a retry with that key and quote is ({@link purchaseAnswer}: its status and
 * one more order-view token), so the visitor follows that order instead of paying for a new quote. The key without
 * its quote, or with another one, finds nothing. An order refunded or cancelled since (the domain may be for sale
 * again) is not under way: undefined, and the visitor gets a new quote.
 * @returns the order answer, or undefined when the key and quote started no live purchase of `domain`.
 */
export async function purchaseInFlight(
  deps: OrderFlowDeps,
  purchase: { readonly key: string; readonly quoteId: string | undefined; readonly domain: string },
): Promise<WidgetOrderResponse | undefined> {
  if (purchase.quoteId === undefined) return undefined;
  const intent = await findLiveIntentForPurchase(deps.db, deps.keyId, {
    keyHash: hashToken(purchase.key),
    quoteId: purchase.quoteId,
    domain: purchase.domain.toLowerCase(),
  });
  if (intent === undefined) return undefined;
  if (intent.order_id !== null) {
    const order = await findOrder(deps.db, intent.order_id);
    if (order !== undefined && ENDED_ORDER_STATUSES.has(order.status)) return undefined;
  }
  return (await purchaseAnswer(deps, intent)).body;
}

/** What the visitor is told about their money when an order could not be recorded (one sentence). */
export function moneyMessage(money: WidgetMoney): string {
  switch (money) {
    case 'not_charged':
      return 'Nothing was taken from your card.';
    case 'refunded':
      return 'Your payment was refunded.';
    case 'refund_pending':
      return 'Your payment will be refunded.';
    default:
      return 'If you were charged, the payment will be refunded automatically.';
  }
}

/** The visitor's answer when the marketplace refused an order for good (its payment voided or refunded). */
async function refusalAnswer(
  deps: OrderFlowDeps,
  error: MarketplaceError,
  outcome: MoneyOutcome,
  domain: string,
  currency: string,
): Promise<BffHttpError> {
  const fate = wireMoney(outcome);
  const money = moneyMessage(fate);
  if (error.code === ErrorCode.PriceMismatch) {
    const given = error.details?.price_cents;
    if (typeof given === 'number' && Number.isInteger(given) && given >= 0) {
      // The marketplace's current price (in the quote's currency): every cached answer listing the domain shows it.
      deps.priceLearned?.({ domain, available: true, price_cents: given, currency });
      return new BffHttpError(
        'price_mismatch',
        `The price of ${domain} has changed. ${money} Review the new price and confirm again.`,
        { extra: { price_cents: given, money: fate } },
      );
    }
    try {
      const current = await deps.client.getDomain(domain, { context: { maxWaitMs: deps.timings.priceLookupWaitMs } });
      if (current.available) deps.priceLearned?.(current);
      else deps.domainChanged?.(domain);
      return new BffHttpError(
        'price_mismatch',
        `The price of ${domain} has changed. ${money} Review the new price and confirm again.`,
        { extra: { price_cents: current.price_cents, money: fate } },
      );
    } catch {
      // Without the new price the widget cannot show it: ask for a fresh quote instead.
      return new BffHttpError('quote_expired', `The price of ${domain} has changed. ${money} Ask for a new quote.`, {
        extra: { money: fate },
      });
    }
  }
  if (error.code === ErrorCode.QuoteExpired)
    return new BffHttpError(
      'quote_expired',
      `This price quote expired before the order was recorded. ${money} Ask for a new quote.`,
      { extra: { money: fate } },
    );
  if (error.code === ErrorCode.Conflict || error.code === ErrorCode.NotFound)
    return new BffHttpError('conflict', `${domain} has just been sold or withdrawn. ${money}`, {
      extra: { money: fate },
    });
  return new BffHttpError('upstream_error', `The marketplace could not take this order. ${money}`, {
    extra: { money: fate },
  });
}
