/** `dk-order-created` (MoR order mode): the order was paid and recorded. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkOrderCreatedEvent}: the order of `POST {api}/orders` (without its order token). */
export interface DkOrderCreatedDetail {
  readonly orderId: string;
  /** The order's status, e.g. `EXTERNALLY_PAID` (Partner API spec section 3). */
  readonly status: string;
  readonly domain: string;
  /** What the buyer paid, in minor units of `currency`. */
  readonly salePriceCents: number;
  readonly currency: string;
}

/**
 * Fired by an element in order mode once `POST {api}/orders` succeeded. The element then shows the order's
 * status and refreshes it a few times. Bubbles, composed, not cancelable.
 */
export class DkOrderCreatedEvent extends DkEvent<DkOrderCreatedDetail> {
  static override readonly type = 'dk-order-created';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-order-created': DkOrderCreatedEvent;
  }
}
