/** The English defaults of the MoR order flow's strings (see `DkStrings`); they load with the order flow. */
import type { DkOrderStringKey, DkStrings } from '../strings.ts';

export const orderStrings: Pick<DkStrings, DkOrderStringKey> = {
  quoteTitle: (domain, price) => `${domain} for ${price}`,
  lockedFor: (time) => `Price locked for ${time}`,
  quoteExpired: 'The price lock has expired.',
  newQuote: 'Get a new price',
  priceChanged: (price) => `The price is now ${price}. Nothing was charged.`,
  confirmPrice: (price) => `Buy for ${price}`,
  paymentDeclined: 'Payment declined; nothing was charged. Check the details or try another card.',
  placingOrder: 'Placing your order…',
  orderPlaced: (orderId, domain, status) => `Order ${orderId} for ${domain}: ${status}`,
  orderStatus: (status) =>
    status === 'EXTERNALLY_PAID' ? 'Paid' : status[0] + status.slice(1).toLowerCase().replaceAll('_', ' '),
  refreshStatus: 'Refresh status',
  cancel: 'Cancel',
  done: 'Done',
};
