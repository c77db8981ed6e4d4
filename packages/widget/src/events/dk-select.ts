/** `dk-select`: the visitor chose a search result (Enter on the active row, or a click on a row). */
import type { WidgetDomain } from '../types.ts';
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkSelectEvent}. */
export interface DkSelectDetail {
  /** The chosen domain, e.g. `coffeehouse.com`. */
  readonly domain: string;
  /** The result as shown (availability, price in minor units). */
  readonly result: WidgetDomain;
}

/**
 * Fired by `<dk-domain-search>` when the visitor chooses a result. Its default action is buying it (checkout
 * or order, per `mode`) when it is available; call `preventDefault()` to do something else (e.g. open your own
 * details page). Bubbles, composed, cancelable.
 */
export class DkSelectEvent extends DkEvent<DkSelectDetail> {
  static override readonly type = 'dk-select';
  static override readonly cancelable = true;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-select': DkSelectEvent;
  }
}
