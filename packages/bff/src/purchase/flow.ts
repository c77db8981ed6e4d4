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
import { named } from '../http/widget.ts';
import type { Buyer, WidgetOrderResponse } from '@domainkit/protocol';
import { toCents } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import { captureRefused, paymentDeclined, paymentUnconfirmed, purchaseKeyReused, refusalAnswer } from './answers.ts';
import type { OrderFlowDeps } from './deps.ts';
import {
  createIntent,
  ENDED_INTENT_STATES,
  findIntentByPurchaseKey,
  findLiveIntentForQuote,
  hashToken,
  markClosed,
  markPaid,
  newOrderToken,
  releaseForRetry,
  releasePurchaseKey,
} from './order-store.ts';
import { isTwoPhase, type PaymentResult } from './payments.ts';
import { quoteIsPayable } from './quote.ts';
import { findQuote } from './quote-store.ts';
import { captureIntent, describe, orderRequestBody, recordIntent } from './settle.ts';
import { inFlight, PROCESSING_STATUS, purchaseAnswer } from './views.ts';

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
    ...named(intent.domain),
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
    throw paymentUnconfirmed();
  }
  if (payment.status === 'declined') {
    await markClosed(db, intent.intent_id, 'declined', { error: payment.declineReason ?? 'declined', now: now() });
    throw paymentDeclined(payment.declineReason);
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
      if (captured.kind === 'failed') throw captureRefused(intent.domain, captured.money);
    }
    return {
      status: 201,
      body: {
        order_id: o.public_id,
        order_token: token,
        status: o.status,
        ...named(o.domain),
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
        ...named(intent.domain),
        sale_price_cents: toCents(intent.price_cents),
        currency: intent.currency,
        created_at: created,
      },
    };
  }
  throw await refusalAnswer(deps, outcome.error, outcome.money, intent.domain, intent.currency);
}
