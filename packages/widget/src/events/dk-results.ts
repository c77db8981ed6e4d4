/** `dk-results`: the answer to the newest search arrived (including an empty one). */
import type { WidgetDomain } from '../types.ts';
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkResultsEvent}. */
export interface DkResultsDetail {
  /** The query these results answer. */
  readonly query: string;
  /** The results as shown, best first (0 to 5); prices in minor units. */
  readonly results: readonly WidgetDomain[];
}

/**
 * Fired by `<dk-domain-search>` when results for the newest query are shown. Answers to older queries are
 * dropped and never fire it. Bubbles, composed, not cancelable.
 */
export class DkResultsEvent extends DkEvent<DkResultsDetail> {
  static override readonly type = 'dk-results';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-results': DkResultsEvent;
  }
}
