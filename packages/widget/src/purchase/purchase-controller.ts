/**
 * The two buying flows, shared by `<dk-buy-button>` and `<dk-domain-search>`:
 *
 * - `checkout` (non-MoR, Partner API spec 2.3): `POST {api}/checkout`, the cancelable `dk-checkout-start`, then the host
 *   navigates to `checkout_url`.
 * - `order` (MoR, Partner API spec 2.1 through the BFF's order-mode routes): `POST {api}/quotes` locks the price for 10
 *   minutes (`dk-quote`, a live countdown, the partner's `payment` slot), the partner calls `placeOrder()`,
 *   `POST {api}/orders` records the paid order (`dk-order-created`), then `GET {api}/orders/:id` is polled a
 *   few times. An expired quote offers a fresh one; a changed price is shown and bought only once the
 *   visitor confirms it; a declined payment can be retried.
 *
 * The flows themselves live in modules loaded on demand, so that the first load is only what the search box
 * needs: `checkout-flow.ts` (prefetched once the browser is idle) and `order-flow.ts` (calls, countdown,
 * panel; loaded on first use of order mode and prefetched when an element has `mode="order"`, so pages that
 * only use the hosted checkout never download it). In the script-tag build they are files beside
 * `domainkit.min.js`.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { DkController, type DkHost } from '../controller.ts';
import { lazy } from '../lazy.ts';
import type { DkOrderCreatedDetail } from '../events/dk-order-created.ts';
import type { WidgetOrderResponse, OrderDetails, WidgetOrderStatus, WidgetQuoteResponse } from '../types.ts';
import type { DkStrings } from '../strings.ts';
import type { orderFlow } from './order-flow.ts';

/** Buying flow: `checkout` (hosted checkout, non-MoR) or `order` (the partner is Merchant of Record). */
export type DkMode = 'checkout' | 'order';

/**
 * Where a purchase stands; reflected on the host as `data-purchase`.
 * `idle` → `pending` (session or quote being created) → `quoted` → `ordering` → `ordered`;
 * from `quoted`/`ordering` also `expired` (lock ran out), `mismatch` (price changed, awaiting confirmation) and
 * `failed` (the order was refused for good, e.g. the domain was sold meanwhile: nothing to retry).
 */
export type PurchasePhase = 'idle' | 'pending' | 'quoted' | 'ordering' | 'expired' | 'mismatch' | 'failed' | 'ordered';

/** What {@link PurchaseController} reads from its host element. */
export interface PurchaseHost extends DkHost {
  readonly mode: DkMode;
  /** Where checkout pages open: `_self` (default) or a browsing context name such as `_blank`. */
  readonly target: string;
  /** Sends the visitor to `url` (checkout mode); unset: the checkout flow's default (same tab or `target`). */
  readonly navigate: ((url: string) => void) | undefined;
  /** Resolves once the host rendered its latest state (Lit's `updateComplete`). */
  readonly updateComplete: Promise<boolean>;
  /** Whether focus is inside the host (CSS `:focus-within`). */
  matches(selector: string): boolean;
  /** Where focus returns when the order panel closes. */
  home(): HTMLElement | null;
  /** The host's shadow root (or itself), where the order panel renders. */
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** Lit's `nothing` (renders nothing). */
export type Nothing = typeof nothing;

/** What the order-flow module (MoR, loaded on demand) gives the elements once a quote was asked for. */
export type OrderFlow = typeof orderFlow;

/** Loads the checkout flow once (see {@link lazy}); elements prefetch it when the browser is idle. */
export const loadCheckoutFlow = lazy(() => import('./checkout-flow.ts'));

/** Loads the order flow once (see {@link lazy}). */
export const loadOrderFlow = lazy(() => import('./order-flow.ts'));

/** The Lit values the elements render with, handed to the modules loaded on demand (which bundle no Lit). */
export interface LitKit {
  readonly html: typeof html;
  readonly nothing: Nothing;
  readonly spinner: TemplateResult;
}

/** A spinner for busy buttons and the search box (decorative). */
export const spinner = html`<span part="spinner" class="spin" aria-hidden="true"></span>`;

/** Runs one purchase at a time for its host and holds its state for rendering (`status` is its phase). */
export class PurchaseController extends DkController<PurchasePhase> {
  /** The Lit the elements render with, for the order flow's panel (which never bundles a Lit of its own). */
  readonly lit: LitKit = { html, nothing, spinner };
  /** The domain being bought. */
  domain = '';
  /** The current quote (order mode), kept while the order panel is shown. */
  declare quote: WidgetQuoteResponse | undefined;
  /** The placed order (order mode): the answer of `POST /orders`, then the latest `GET /orders/:id`. */
  declare order: WidgetOrderResponse | WidgetOrderStatus | undefined;
  /** With `mismatch`: the new price in minor units of the quote's currency. */
  newPrice = 0;
  /** Order mode: the order flow, once a quote was asked for (it renders the order panel). */
  declare flow: OrderFlow | undefined;
  /** The English defaults of the strings of the flow in use, once it is loaded (the host's `texts` include them). */
  declare words: Partial<DkStrings> | undefined;
  /**
   * The names as a person reads them (`display_name` of the BFF's answers: an internationalised name in Unicode), by
   * the ASCII name requests use; filled by the rows a visitor buys from, read wherever a message names the domain.
   */
  declare names: Record<string, string> | undefined;
  /** Order mode: the placed order's token (`X-Order-Token`), never shown. */
  orderToken = '';
  /** Order mode: the buyer and payment of the last `placeOrder`, kept to confirm a changed price with. */
  declare details: OrderDetails | undefined;

  declare readonly host: PurchaseHost;

  constructor(host: PurchaseHost) {
    super(host, 'idle');
  }

  /** Whether a request is under way (the Buy button is disabled meanwhile). */
  get busy(): boolean {
    return this.status === 'pending' || this.status === 'ordering';
  }

  /**
   * Buys `domain` in the host's mode: a checkout session and navigation, or a quote. Ignored while busy.
   * Never rejects: failures are shown and fired as `dk-error`.
   */
  async buy(domain: string): Promise<void> {
    if (this.busy || !domain) return;
    this.cancel();
    this.domain = domain;
    const signal = this.start('pending');
    try {
      const flow = await (this.host.mode === 'order' ? loadOrderFlow() : loadCheckoutFlow());
      if (!signal.aborted) await flow.buy(this, signal);
    } catch (error) {
      this.fail(error, 'idle');
    }
  }

  /**
   * Order mode: places the order for the current quote with the partner's buyer and payment payload.
   * Ignored (resolves `null`) unless a quote is shown and no order is being placed.
   *
   * @returns the recorded order, or `null` when it was not placed: `quote_expired` (the element offers a fresh
   *   quote), `price_mismatch` (it shows the new price and waits for the visitor's confirmation),
   *   `payment_declined` and other failures (it shows the message; the visitor may try again).
   */
  placeOrder(details: OrderDetails): Promise<DkOrderCreatedDetail | null> {
    return this.flow?.placeOrder(this, details) ?? Promise.resolve(null);
  }

  /** Abandons the purchase (quote, pending request, polling) and returns to `idle`. */
  cancel(): void {
    this.stop();
    this.quote = this.order = this.error = this.details = undefined;
    this.newPrice = 0;
    this.set('idle');
  }

  override hostDisconnected(): void {
    // The element is gone: never navigate or update for it later.
    super.hostDisconnected();
    if (this.busy) this.set(this.quote ? 'quoted' : 'idle');
  }
}
