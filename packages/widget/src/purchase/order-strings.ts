/**
 * The English defaults of the MoR order flow's strings (see `DkStrings`); they load with the order flow. A failed
 * order is said in two parts, what happened and then what became of the money (one `money*` string), so the
 * money is said exactly once.
 */
import type { DkOrderStringKey, DkStrings } from '../strings.ts';

export const orderStrings: Pick<DkStrings, DkOrderStringKey> = {
  quoteTitle: (domain, price) => `${domain} for ${price}`,
  lockedFor: (time) => `Price locked for ${time}`,
  lockEnding: 'Less than a minute left to pay at this price.',
  quoteExpired: 'The price lock has expired.',
  newQuote: 'Get a new price',
  priceChanged: (price) => `The price is now ${price}.`,
  confirmPrice: (price) => `Buy for ${price}`,
  paymentDeclined: 'Payment declined. Check the details or try another card.',
  paymentUnconfirmed: 'We could not confirm your payment.',
  orderInterrupted: 'The connection was lost while placing your order. Submitting it again is safe.',
  orderSold: (domain) => `${domain} was sold to someone else in the meantime.`,
  orderRefused: 'The marketplace could not take this order.',
  moneyNotCharged: 'Nothing was charged.',
  moneyRefunded: 'Your payment was refunded.',
  moneyRefundPending: 'Your payment will be refunded.',
  moneyUnknown: 'If you were charged, the order will be completed or your payment refunded automatically.',
  placingOrder: 'Placing your order…',
  orderThanks: 'Thank you for your order!',
  orderPaid: (domain, price) => `You paid ${price} for ${domain}.`,
  orderProcessing: (domain, price) =>
    `We are completing your order of ${domain} for ${price}. If it cannot be completed, your payment will be refunded automatically.`,
  orderNext: (status, domain) =>
    status === 'HELD_FOR_REVIEW'
      ? `Your order of ${domain} is in review with the marketplace. The transfer starts once it is cleared.`
      : status === 'TRANSFER_IN_PROGRESS'
        ? `The transfer of ${domain} to you has started. Watch your email for the steps.`
        : status === 'TRANSFER_COMPLETED' || status === 'SETTLED'
          ? `${domain} has been transferred to you.`
          : `What happens now: the marketplace transfers ${domain} to you. Watch your email for the transfer instructions.`,
  orderReference: (orderId) => `Order reference: ${orderId}`,
  orderFailed: 'Your order could not be completed.',
  cancel: 'Cancel',
  done: 'Done',
};
