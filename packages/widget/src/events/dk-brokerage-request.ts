/** `dk-brokerage-request`: a visitor asked the shop's brokers to acquire a name, and the case is open. */
import { DkEvent } from './dk-event.ts';

/** Detail of {@link DkBrokerageRequestEvent}. */
export interface DkBrokerageRequestDetail {
  /** The wanted domain, e.g. `acme-rockets.com`. */
  readonly domain: string;
  /** The marketplace's case id. */
  readonly caseId: string;
  /** The buyer's no-login page that follows the case (the marketplace's). */
  readonly progressUrl: string;
  /** The buyer's budget in minor units (cents) of `currency`. */
  readonly budgetCents: number;
  /** ISO 4217 code of the budget (the marketplace's, `USD`). */
  readonly currency: string;
  /** The tier the case was opened with (`managed` or `self_serve`, the partner's). */
  readonly tier: string;
}

/**
 * Fired by `<dk-broker-button>` once the BFF opened the brokerage case (Partner API spec 2.6): for the partner's own
 * records or analytics (the buyer's e-mail address is not in it). Bubbles, composed; not cancelable.
 */
export class DkBrokerageRequestEvent extends DkEvent<DkBrokerageRequestDetail> {
  static override readonly type = 'dk-brokerage-request';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'dk-brokerage-request': DkBrokerageRequestEvent;
  }
}
