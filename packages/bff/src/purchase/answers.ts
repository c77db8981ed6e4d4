/**
 * What the visitor is told when a purchase does not end in a recorded order: the wire's `money` (Partner API spec 1
 * item 2) and its sentence, and the error answers of the order flow (402 `payment_declined`, 502 `payment_error`,
 * 409 `conflict`, 422 `price_mismatch` / `quote_expired`).
 */
import type { MarketplaceError } from '@domainkit/client';
import { ErrorCode, type WidgetMoney } from '@domainkit/protocol';
import { BffHttpError } from '../errors.ts';
import type { OrderFlowDeps } from './deps.ts';
import type { MoneyOutcome } from './settle.ts';

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

/**
 * 502 `payment_error`: the payment provider's answer was lost, so whether the buyer was charged is unknown
 * (`money: "unknown"`); the recovery pass settles it.
 */
export function paymentUnconfirmed(): BffHttpError {
  return new BffHttpError(
    'payment_error',
    'We could not confirm your payment. If you were charged, the order will be completed or refunded automatically.',
    { extra: { money: 'unknown' } },
  );
}

/** 402 `payment_declined`: the provider declined the payment (`reason`, when it gave one); nothing was charged. */
export function paymentDeclined(reason: string | undefined): BffHttpError {
  return new BffHttpError(
    'payment_declined',
    `Your payment was declined${reason ? ` (${reason})` : ''}; you have not been charged. Try another payment method.`,
    { extra: { money: 'not_charged' } },
  );
}

/**
 * 402 `payment_declined` after the order was recorded: the capture was refused for good, so the order was refunded
 * upstream and the payment unwound (`money` says how).
 */
export function captureRefused(domain: string, money: MoneyOutcome): BffHttpError {
  return new BffHttpError(
    'payment_declined',
    `Your payment could not be completed, so the order for ${domain} was cancelled. ${moneyMessage(wireMoney(money))} Try another payment method.`,
    { extra: { money: wireMoney(money) } },
  );
}

/**
 * The answer to a purchase key presented with a quote other than the one its live attempt was started with (409
 * `conflict`, like an upstream Idempotency-Key reused with another body, Partner API spec 4.1): nothing of that
 * attempt is revealed, no token is given, nothing is charged.
 */
export function purchaseKeyReused(): BffHttpError {
  return new BffHttpError(
    'conflict',
    'This purchase key (Idempotency-Key) belongs to a purchase of another quote: nothing was charged by this request. Start a new purchase with a new key.',
    { extra: { money: 'not_charged' } },
  );
}

/** The visitor's answer when the marketplace refused an order for good (its payment voided or refunded). */
export async function refusalAnswer(
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
