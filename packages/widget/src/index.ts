/**
 * `@domainkit/widget`: the web components a partner puts on its pages to sell marketplace domains.
 * Importing this module defines `<dk-domain-search>` and `<dk-buy-button>`; it has no other side effect and
 * touches no `window` or `document` at import. To define only one element, import
 * `@domainkit/widget/domain-search.js` or `@domainkit/widget/buy-button.js`.
 */
export { DkBuyButton, type DkBuyMode } from './buy-button/buy-button.ts';
export { DkCheckoutReturn } from './checkout-return/checkout-return.ts';
export { DkDomainSearch, type DkMode, type SearchStatus } from './domain-search/domain-search.ts';
export type { PurchasePhase } from './purchase/purchase-controller.ts';
export * from './events/events.ts';
export { DkApiError } from './api.ts';
export { systemClock, type DkClock } from './clock.ts';
export { formatPrice, minorUnitExponent } from './format.ts';
export { defaultStrings, type DkStrings } from './default-strings.ts';
export type {
  Buyer,
  CheckoutSession,
  WidgetDomain,
  WidgetOrderResponse,
  OrderDetails,
  WidgetOrderStatus,
  WidgetQuoteResponse,
  SearchResponse,
} from './types.ts';
