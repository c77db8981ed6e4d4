/** `dk-checkout-start`: a checkout session exists and the visitor is about to be sent to it. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkCheckoutStartEvent}. */
export interface DkCheckoutStartDetail {
  /** The domain being bought. */
  readonly domain: string;
  /** The marketplace's hosted checkout page for this session (absolute http(s) URL). */
  readonly checkoutUrl: string;
}

/**
 * Fired by `<dk-buy-button>` (also from inside `<dk-domain-search>`) once `POST {api}/checkout` answered.
 * Its default action is navigating to `checkoutUrl` with `location.assign`; call `preventDefault()` to take
 * over (open it in a new tab, route in an SPA, record analytics first...). Bubbles, composed, cancelable.
 */
export class DkCheckoutStartEvent extends DkEvent<DkCheckoutStartDetail> {
  static readonly type = 'dk-checkout-start';

  constructor(detail: DkCheckoutStartDetail) {
    super('dk-checkout-start', detail, true);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-checkout-start': DkCheckoutStartEvent;
  }
}
