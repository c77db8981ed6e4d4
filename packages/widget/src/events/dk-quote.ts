/** `dk-quote` (MoR order mode): a price is locked for the visitor; time to collect payment. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkQuoteEvent}: the quote of `POST {api}/quotes`. */
export interface DkQuoteDetail {
  /** Identifier of the quote (the widget sends it with the order). */
  readonly quoteId: string;
  readonly domain: string;
  /** The locked price in minor units of `currency` (cents for USD). */
  readonly priceCents: number;
  /** ISO 4217 code, e.g. `USD`. */
  readonly currency: string;
  /** ISO 8601 UTC time when the lock ends (10 minutes after the quote). */
  readonly expiresAt: string;
}

/**
 * Fired by `<dk-buy-button mode="order">` and `<dk-domain-search mode="order">` when a quote arrives. The
 * element now shows the locked price with its countdown and the partner's `payment` slot; the partner
 * collects payment (for `priceCents` in `currency`) and calls `element.placeOrder({ buyer, payment })`.
 * Bubbles, composed, not cancelable.
 */
export class DkQuoteEvent extends DkEvent<DkQuoteDetail> {
  static override readonly type = 'dk-quote';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-quote': DkQuoteEvent;
  }
}
