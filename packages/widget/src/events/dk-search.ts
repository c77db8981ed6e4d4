/** `dk-search`: a search request starts (after the debounce, for a query of at least `min-length`). */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkSearchEvent}. */
export interface DkSearchDetail {
  /** The trimmed query sent to the BFF. */
  readonly query: string;
}

/** Fired by `<dk-domain-search>` when it sends a search to the BFF. Bubbles, composed, not cancelable. */
export class DkSearchEvent extends DkEvent<DkSearchDetail> {
  static override readonly type = 'dk-search';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-search': DkSearchEvent;
  }
}
