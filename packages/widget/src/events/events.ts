/** Every event class of the widget; one file per event. */
export { DkEvent } from './dk-event.ts';
export { DkCheckoutStartEvent, type DkCheckoutStartDetail } from './dk-checkout-start.ts';
export { DkErrorEvent, type DkErrorDetail } from './dk-error.ts';
export { DkOrderCreatedEvent, type DkOrderCreatedDetail } from './dk-order-created.ts';
export { DkQuoteEvent, type DkQuoteDetail } from './dk-quote.ts';
export { DkResultsEvent, type DkResultsDetail } from './dk-results.ts';
export { DkSearchEvent, type DkSearchDetail } from './dk-search.ts';
export { DkSelectEvent, type DkSelectDetail } from './dk-select.ts';
export { DkBrokerageRequestEvent, type DkBrokerageRequestDetail } from './dk-brokerage-request.ts';
