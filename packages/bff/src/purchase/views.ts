/**
 * What a visitor sees of a stored purchase: the status and money of an intent without a recorded order, the answer
 * to a retry with the widget's purchase key (Partner API spec 4.1 Idempotency-Key semantics, applied to the
 * visitor's attempt) and the order a re-quote finds under way.
 */
import { named } from '../http/widget.ts';
import { BffHttpError } from '../errors.ts';
import { toCents } from '../db/tables.ts';
import type { WidgetMoney, WidgetOrderResponse } from '@domainkit/protocol';
import { moneyMessage } from './answers.ts';
import type { OrderFlowDeps } from './deps.ts';
import {
  addViewToken,
  findLiveIntentForPurchase,
  findOrder,
  hashToken,
  newOrderToken,
  type Intent,
} from './order-store.ts';

/** The status the widget sees while a paid order waits to be recorded upstream. */
export const PROCESSING_STATUS = 'PROCESSING';

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

/**
 * The answer to a request whose order for the same quote is in flight or done without this visitor's purchase key
 * (409 `order_in_progress` with the order's `order_id` and `status`): wait for it, never pay again.
 */
export function inFlight(intent: Intent): BffHttpError {
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
      ...named(order?.domain ?? intent.domain),
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
