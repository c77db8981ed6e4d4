/** `dk-error`: a call to the BFF failed and the element shows an error. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkErrorEvent}. */
export interface DkErrorDetail {
  /**
   * The message shown to the visitor: the element's string for `code` (see `errorMessage` in `strings.ts`), in the
   * page's language when `strings` are set; never the BFF's English `error.message`.
   */
  readonly message: string;
  /**
   * The BFF's `error.code` (protocol's `WIDGET_ERROR_CODES`: `query_too_long`, `validation_error`, `not_found`,
   * `conflict`, `busy`, `upstream_error`, `upstream_timeout`, `quote_expired`, `price_mismatch`,
   * `payment_declined`...), or a local one: `network_error`, `offline`, `upstream_timeout` (the widget's own
   * deadline), `invalid_response`, `bff_unreachable`, `bff_misconfigured`, `http_<status>`.
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
