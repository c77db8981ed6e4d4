/**
 * The MoR order flow (spec 1, 2.1, 2.2, 4.1 "MoR"): a visitor pays for a quoted domain, the BFF records the order
 * upstream with an Idempotency-Key it stored before charging, and a paid order is recorded exactly once, by the
 * visitor's request or, after a crash or an upstream failure, by the recovery pass.
 *
 * The price is always the stored quote's, never a figure from the browser.
 */
import { MarketplaceError } from '@domainkit/client';
import type { Buyer, CreateOrderRequest } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { UpstreamBusyError, type BffUpstreamBudget } from '../budget.ts';
import { toCents, type BffDb } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import type { MarketplaceApi } from '../options.ts';
import type { PaymentAdapter, PaymentResult } from '../payments.ts';
import { quoteIsPayable } from '../quotes/quote.ts';
import { findQuote } from '../quotes/store.ts';
import type { ResolvedOrderTimings } from '../resolved-options.ts';
import {
  createIntent,
  findLiveIntentForQuote,
  markClosed,
  markPaid,
  markRecorded,
  newOrderToken,
  releaseForRetry,
  type Intent,
  type UpstreamOrder,
} from './store.ts';

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
  readonly timings: ResolvedOrderTimings;
  /** Told the domain of an order recorded, or refused as sold or unlisted, upstream (drops cached searches). */
  readonly domainChanged?: ((domain: string) => void) | undefined;
}

/** The visitor's `POST /orders` body, validated. */
export interface PlaceOrderInput {
  readonly quoteId: string;
  readonly buyer: Buyer;
  /** The provider payload, as returned by the adapter's `parsePayment`. */
  readonly payment: unknown;
}

/** The widget's order answer (DESIGN "Widget ↔ BFF API, MoR order mode"). */
export interface WidgetOrder {
  readonly order_id: string;
  readonly order_token: string;
  readonly status: string;
  readonly domain: string;
  readonly sale_price_cents: number;
  readonly currency: string;
  readonly created_at: string;
}

/** The status the widget sees while a paid order waits to be recorded upstream. */
export const PROCESSING_STATUS = 'PROCESSING';

/** How recording an intent ended. */
export type RecordOutcome =
  | { readonly kind: 'recorded'; readonly order: UpstreamOrder & { created_at?: string | undefined } }
  | { readonly kind: 'rejected'; readonly error: MarketplaceError; readonly refundState: string }
  | { readonly kind: 'pending'; readonly error: unknown };

/** Upstream answers that will not change on a retry: the marketplace refused this order. */
function isDefinitiveRefusal(error: unknown): error is MarketplaceError {
  return error instanceof MarketplaceError && error.status !== undefined && [400, 404, 409, 422].includes(error.status);
}

function describe(error: unknown): string {
  if (error instanceof MarketplaceError) return `${error.code} (${error.status ?? 'no answer'}): ${error.message}`;
  if (error instanceof UpstreamBusyError) return `budget busy: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Back-off of the recovery pass for one intent: `timings.retryBaseMs` (5 s), doubled per attempt, capped at
 * `timings.retryMaxMs` (10 minutes).
 */
export function retryDelayMs(
  attempts: number,
  timings: Pick<ResolvedOrderTimings, 'retryBaseMs' | 'retryMaxMs'>,
): number {
  return Math.min(timings.retryMaxMs, timings.retryBaseMs * 2 ** Math.min(attempts, 10));
}

/** Builds the exact upstream body of `POST /orders` for a paid intent (both field sets of spec 2.1). */
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
    if (isDefinitiveRefusal(error)) {
      if (error.status === 404 || error.status === 409) deps.domainChanged?.(intent.domain);
      const refundState = await refund(deps, intent);
      await markClosed(deps.db, intent.intent_id, 'rejected', { error: describe(error), refundState, now: now() });
      deps.logger.error(
        { intent: intent.intent_id, domain: intent.domain, upstream: error.toJSON(), refund: refundState },
        'the marketplace refused a paid order',
      );
      return { kind: 'rejected', error, refundState };
    }
    await releaseForRetry(deps.db, intent.intent_id, {
      error: describe(error),
      retryAt: new Date(deps.now() + retryDelayMs(intent.attempts, deps.timings)),
      now: now(),
    });
    deps.logger.warn(
      { intent: intent.intent_id, domain: intent.domain, attempt: intent.attempts + 1, reason: describe(error) },
      'order not recorded yet; the recovery pass will retry with the same key',
    );
    return { kind: 'pending', error };
  }
}

async function refund(deps: OrderFlowDeps, intent: Intent): Promise<string> {
  if (deps.payments.refundPayment === undefined || intent.payment_reference === null) return 'no_refund_adapter';
  try {
    await deps.payments.refundPayment({
      intentId: intent.intent_id,
      reference: intent.payment_reference,
      amountCents: toCents(intent.price_cents),
      currency: intent.currency,
    });
    return 'refunded';
  } catch (error) {
    deps.logger.error(
      { intent: intent.intent_id, error: describe(error) },
      'refund failed: refund this payment by hand',
    );
    return 'refund_failed';
  }
}

/**
 * The whole `POST /orders` flow.
 * @returns 201 with the recorded order, or 202 with status `PROCESSING` when the payment went through but the
 *   record is still pending upstream (never reported as a recorded order).
 * @throws {BffHttpError} `not_found` (unknown quote), `quote_expired`, `conflict` (the quote already has an order
 *   in progress), `busy`, `payment_declined`, `payment_error`, `price_mismatch` (with `price_cents`), or the
 *   mapped upstream refusal.
 */
export async function placeOrder(
  deps: OrderFlowDeps,
  input: PlaceOrderInput,
): Promise<{ status: 201 | 202; body: WidgetOrder }> {
  const { db } = deps;
  const now = () => new Date(deps.now());
  const quote = await findQuote(db, input.quoteId);
  if (quote === undefined) throw new BffHttpError('not_found', 'Unknown quote_id: ask for a new quote (POST /quotes).');
  if (!quoteIsPayable(quote, deps.now(), deps.timings.quoteMarginMs)) {
    throw new BffHttpError('quote_expired', 'This price quote has expired: ask for a new quote (POST /quotes).');
  }
  if (await findLiveIntentForQuote(db, quote.quote_id)) {
    throw new BffHttpError(
      'conflict',
      'An order for this quote is already in progress or done: ask for a new quote to buy again.',
    );
  }
  // Reserve the upstream write before charging: a buyer is never charged for an order the BFF cannot send now.
  await deps.budget.reserve('write', deps.timings.reserveWaitMs);

  const { token, hash } = newOrderToken();
  const intent = await createIntent(db, {
    keyId: deps.keyId,
    quote,
    buyer: input.buyer,
    tokenHash: hash,
    leaseUntil: new Date(deps.now() + deps.timings.leaseMs),
    now: now(),
  });
  if (intent === undefined) {
    throw new BffHttpError(
      'conflict',
      'An order for this quote is already in progress or done: ask for a new quote to buy again.',
    );
  }

  let payment: PaymentResult;
  try {
    payment = await deps.payments.confirmPayment({
      intentId: intent.intent_id,
      amountCents: toCents(quote.price_cents),
      currency: quote.currency,
      payment: input.payment,
      domain: quote.domain,
      buyer: input.buyer,
    });
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
    );
  }
  if (payment.status === 'declined') {
    await markClosed(db, intent.intent_id, 'declined', { error: payment.declineReason ?? 'declined', now: now() });
    throw new BffHttpError(
      'payment_declined',
      `Your payment was declined${payment.declineReason ? ` (${payment.declineReason})` : ''}; you have not been charged. Try another payment method.`,
    );
  }

  const paid = await markPaid(db, intent.intent_id, {
    reference: payment.reference,
    requestBody: JSON.stringify(orderRequestBody(intent, input.buyer, payment.reference)),
    leaseUntil: new Date(deps.now() + deps.timings.leaseMs),
    now: now(),
  });
  deps.logger.debug(
    { intent: intent.intent_id, domain: intent.domain },
    'payment confirmed; recording the order upstream',
  );
  const outcome = await recordIntent(deps, paid, { budgetAcquired: true, maxWaitMs: deps.timings.recordWaitMs });
  const created = intent.created_at.toISOString();
  if (outcome.kind === 'recorded') {
    const o = outcome.order;
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
  throw await refusalAnswer(deps, outcome.error, outcome.refundState, intent.domain);
}

/** The visitor's answer when the marketplace refused a paid order (its payment refunded). */
async function refusalAnswer(
  deps: OrderFlowDeps,
  error: MarketplaceError,
  refundState: string,
  domain: string,
): Promise<BffHttpError> {
  const money = refundState === 'refunded' ? 'Your payment was refunded.' : 'Your payment will be refunded.';
  if (error.code === 'price_mismatch') {
    const given = error.details?.price_cents;
    if (typeof given === 'number' && Number.isInteger(given) && given >= 0) {
      return new BffHttpError(
        'price_mismatch',
        `The price of ${domain} has changed. ${money} Review the new price and confirm again.`,
        { extra: { price_cents: given } },
      );
    }
    try {
      const current = await deps.client.getDomain(domain, { context: { maxWaitMs: deps.timings.priceLookupWaitMs } });
      return new BffHttpError(
        'price_mismatch',
        `The price of ${domain} has changed. ${money} Review the new price and confirm again.`,
        { extra: { price_cents: current.price_cents } },
      );
    } catch {
      // Without the new price the widget cannot show it: ask for a fresh quote instead.
      return new BffHttpError('quote_expired', `The price of ${domain} has changed. ${money} Ask for a new quote.`);
    }
  }
  if (error.code === 'quote_expired')
    return new BffHttpError(
      'quote_expired',
      `This price quote expired before the order was recorded. ${money} Ask for a new quote.`,
    );
  if (error.code === 'conflict' || error.code === 'not_found')
    return new BffHttpError('conflict', `${domain} has just been sold or withdrawn. ${money}`);
  return new BffHttpError('upstream_error', `The marketplace could not take this order. ${money}`);
}
