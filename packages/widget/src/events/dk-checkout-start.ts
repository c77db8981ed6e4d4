/** `dk-checkout-start`: a checkout session exists and the visitor is about to be sent to it. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkCheckoutStartEvent}. */
export interface DkCheckoutStartDetail {
  /** The domain being bought. */
  readonly domain: string;
  /** The marketplace's hosted checkout page for this session (absolute http(s) URL). */
  readonly checkoutUrl: string;
  /** The session's price in minor units of `currency`, when the BFF gave it (the search row shows it). */
  readonly priceCents?: number | undefined;
  /** ISO 4217 code of `priceCents`. */
  readonly currency?: string | undefined;
}

/**
 * Fired by `<dk-buy-button>` and `<dk-domain-search>` in checkout mode once `POST {api}/checkout` answered.
 * Its default action is the element's `navigate(checkoutUrl)`: `location.assign`, or `open(url, target,
 * 'noopener')` with a `target` attribute; call `preventDefault()` to take over (route in an SPA, record
 * analytics first...). Bubbles, composed, cancelable.
 */
export class DkCheckoutStartEvent extends DkEvent<DkCheckoutStartDetail> {
  static override readonly type = 'dk-checkout-start';
  static override readonly cancelable = true;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-checkout-start': DkCheckoutStartEvent;
  }
}
