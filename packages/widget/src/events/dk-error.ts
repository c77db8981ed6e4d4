/** `dk-error`: a call to the BFF failed and the element shows an error. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkErrorEvent}. */
export interface DkErrorDetail {
  /** The message shown to the visitor (the BFF's `error.message`, or a local one). */
  readonly message: string;
  /**
   * The BFF's `error.code` (`validation_error`, `not_found`, `conflict`, `busy`, `upstream_error`,
   * `quote_expired`, `price_mismatch`, `payment_declined`...), or a local one:
   * `network_error`, `invalid_response`, `http_<status>`.
   */
  readonly code: string;
}

/**
 * Fired when a call to the BFF fails: a search (also `busy` and offline), a checkout session, a quote, an
 * order (`quote_expired`, `price_mismatch`, `payment_declined`...). Bubbles, composed, not cancelable.
 */
export class DkErrorEvent extends DkEvent<DkErrorDetail> {
  static override readonly type = 'dk-error';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-error': DkErrorEvent;
  }
}
