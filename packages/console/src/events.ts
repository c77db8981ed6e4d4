/**
 * The console's typed events. Each bubbles and is composed (crosses shadow roots); listen on the element or above
 * it: `el.addEventListener('dk-refund', (e) => e.detail.orderId)`.
 */

/** Base of every console event: a typed `detail`. */
export class DkConsoleEvent<T> extends Event {
  /** What happened; see each event's detail interface. */
  declare readonly detail: T;
  constructor(type: string, detail: T) {
    super(type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/** Detail of {@link DkRefundEvent}. */
export interface DkRefundDetail {
  /** The order's `public_id`. */
  readonly orderId: string;
  /** The refund's id on the marketplace. */
  readonly refundId: string;
  /** Refunded amount in minor units of `currency`. */
  readonly amountCents: number;
  readonly currency: string;
}

/** `dk-refund`: the marketplace recorded a refund asked from the orders view. */
export class DkRefundEvent extends DkConsoleEvent<DkRefundDetail> {
  static readonly type = 'dk-refund';
  constructor(detail: DkRefundDetail) {
    super(DkRefundEvent.type, detail);
  }
}

/** Detail of {@link DkLinkCreatedEvent}. */
export interface DkLinkCreatedDetail {
  readonly linkId: string;
  /** The tracked URL to share. */
  readonly url: string;
  /** `generic`, `domain` or `product`. */
  readonly kind: string;
}

/** `dk-link-created`: a referral link was created from the links view. */
export class DkLinkCreatedEvent extends DkConsoleEvent<DkLinkCreatedDetail> {
  static readonly type = 'dk-link-created';
  constructor(detail: DkLinkCreatedDetail) {
    super(DkLinkCreatedEvent.type, detail);
  }
}

/** Detail of {@link DkConsoleErrorEvent}. */
export interface DkConsoleErrorDetail {
  /** The BFF's `error.code`, or a local one: `network_error`, `invalid_response`, `http_<status>`. */
  readonly code: string;
  /** HTTP status, 0 when the BFF was not reached. */
  readonly status: number;
  /** The message shown. */
  readonly message: string;
}

/**
 * `dk-console-error`: a call failed and the view shows why. `status` 401 means the console session was refused
 * (not signed in, or expired): a host may send the person to its sign-in page.
 */
export class DkConsoleErrorEvent extends DkConsoleEvent<DkConsoleErrorDetail> {
  static readonly type = 'dk-console-error';
  constructor(detail: DkConsoleErrorDetail) {
    super(DkConsoleErrorEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-refund': DkRefundEvent;
    'dk-link-created': DkLinkCreatedEvent;
    'dk-console-error': DkConsoleErrorEvent;
  }
}
