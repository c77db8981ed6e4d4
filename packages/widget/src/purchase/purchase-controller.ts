/**
 * The two buying flows, shared by `<dk-buy-button>` and `<dk-domain-search>`:
 *
 * - `checkout` (non-MoR, spec 2.3): `POST {api}/checkout`, the cancelable `dk-checkout-start`, then the host
 *   navigates to `checkout_url`.
 * - `order` (MoR, spec 2.1 through the BFF's order-mode routes): `POST {api}/quotes` locks the price for 10
 *   minutes (`dk-quote`, a live countdown, the partner's `payment` slot), the partner calls `placeOrder()`,
 *   `POST {api}/orders` records the paid order (`dk-order-created`), then `GET {api}/orders/:id` is polled a
 *   few times. An expired quote offers a fresh one; a changed price is shown and bought only once the
 *   visitor confirms it; a declined payment can be retried.
 */
import { createCheckoutSession, createOrder, createQuote, getOrder, toApiError } from '../api.ts';
import { DkController, type DkHost } from '../controller.ts';
import { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import { DkOrderCreatedEvent, type DkOrderCreatedDetail } from '../events/dk-order-created.ts';
import { DkQuoteEvent } from '../events/dk-quote.ts';
import type { OrderDetails, OrderStatus, Quote } from '../types.ts';

/** Buying flow: `checkout` (hosted checkout, non-MoR) or `order` (the partner is Merchant of Record). */
export type DkMode = 'checkout' | 'order';

/**
 * Where a purchase stands; reflected on the host as `data-purchase`.
 * `idle` → `pending` (session or quote being created) → `quoted` → `ordering` → `ordered`;
 * from `quoted`/`ordering` also `expired` (lock ran out) and `mismatch` (price changed, awaiting confirmation).
 */
export type PurchasePhase = 'idle' | 'pending' | 'quoted' | 'ordering' | 'expired' | 'mismatch' | 'ordered';

/** What {@link PurchaseController} reads from its host element. */
export interface PurchaseHost extends DkHost {
  readonly mode: DkMode;
  /** Where checkout pages open: `_self` (default) or a browsing context name such as `_blank`. */
  readonly target: string;
  /** Sends the visitor to `url` (checkout mode). */
  navigate(url: string): void;
}

/** How often and how many times the order status is refreshed after the order was placed. */
const POLL_MS = 5000;
const POLLS = 3;

/** Runs one purchase at a time for its host and holds its state for rendering (`status` is its phase). */
export class PurchaseController extends DkController<PurchasePhase> {
  /** The domain being bought. */
  domain = '';
  /** The current quote (order mode), kept while the order panel is shown. */
  quote: Quote | undefined;
  /** The placed order (order mode). */
  order: OrderStatus | undefined;
  /** With `mismatch`: the new price in minor units of the quote's currency. */
  newPrice = 0;

  declare protected readonly host: PurchaseHost;
  #token = '';
  #details: OrderDetails | undefined;

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
    const host = this.host;
    if (host.mode === 'order') return this.requestQuote();
    const signal = this.start('pending');
    try {
      const { checkout_url: checkoutUrl } = await createCheckoutSession(host.api, domain, { signal });
      const proceed = host.dispatchEvent(new DkCheckoutStartEvent({ domain, checkoutUrl }));
      if (proceed) host.navigate(checkoutUrl);
      // In the same tab, stay busy while the page unloads so a second click cannot start a second session.
      if (!proceed || host.target !== '_self') this.set('idle');
    } catch (error) {
      this.fail(error, 'idle');
    }
  }

  /** Order mode: locks the price of {@link domain} (again, after an expiry). Never rejects. */
  async requestQuote(): Promise<void> {
    const signal = this.start('pending');
    try {
      const quote = (this.quote = await createQuote(this.host.api, this.domain, { signal }));
      this.newPrice = 0;
      this.set('quoted');
      this.host.dispatchEvent(
        new DkQuoteEvent({
          quoteId: quote.quote_id,
          domain: quote.domain,
          priceCents: quote.price_cents,
          currency: quote.currency,
          expiresAt: quote.expires_at,
        }),
      );
      this.#tick();
    } catch (error) {
      this.fail(error, this.quote ? 'expired' : 'idle');
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
  async placeOrder(details: OrderDetails): Promise<DkOrderCreatedDetail | null> {
    const quote = this.quote;
    if (this.status !== 'quoted' || !quote) return null;
    this.#details = details;
    const signal = this.start('ordering');
    try {
      const order = (this.order = await createOrder(this.host.api, quote.quote_id, details, { signal }));
      this.#token = order.order_token;
      this.#details = undefined;
      this.set('ordered');
      const detail = {
        orderId: order.order_id,
        status: order.status,
        domain: order.domain,
        salePriceCents: order.sale_price_cents,
        currency: order.currency,
      };
      this.host.dispatchEvent(new DkOrderCreatedEvent(detail));
      this.#poll(POLLS);
      return detail;
    } catch (error) {
      const { code, priceCents } = toApiError(error);
      if (code === 'price_mismatch') this.newPrice = priceCents ?? quote.price_cents;
      if (this.fail(error, code === 'quote_expired' ? 'expired' : code === 'price_mismatch' ? 'mismatch' : 'quoted'))
        this.#tick();
      return null;
    }
  }

  /**
   * Order mode, after `price_mismatch`: the visitor accepted the new price. Gets a fresh quote and, when it
   * is at the price the visitor accepted, places the order with the same buyer and payment; otherwise shows
   * the newer price and asks again.
   */
  async confirmPrice(): Promise<void> {
    const accepted = this.newPrice;
    const details = this.#details;
    await this.requestQuote();
    if (this.status !== 'quoted' || !details) return;
    if (this.quote!.price_cents === accepted) {
      await this.placeOrder(details);
    } else {
      this.newPrice = this.quote!.price_cents;
      this.set('mismatch');
    }
  }

  /** Order mode: asks the BFF for the order's current status (`GET /orders/:id` with its order token). */
  async refresh(): Promise<void> {
    const order = this.order;
    if (this.status !== 'ordered' || !order) return;
    try {
      const { status } = await getOrder(this.host.api, order.order_id, this.#token, { signal: this.start('ordered') });
      this.order = { ...order, status };
      this.set('ordered');
    } catch (error) {
      this.fail(error, 'ordered');
    }
  }

  /** Abandons the purchase (quote, pending request, polling) and returns to `idle`. */
  cancel(): void {
    this.stop();
    this.quote = this.order = this.error = this.#details = undefined;
    this.newPrice = 0;
    this.set('idle');
  }

  override hostDisconnected(): void {
    // The element is gone: never navigate or update for it later.
    super.hostDisconnected();
    if (this.busy) this.set(this.quote ? 'quoted' : 'idle');
  }

  /** Milliseconds left on the current quote's price lock. */
  remaining(): number {
    return this.quote ? Date.parse(this.quote.expires_at) - this.host.clock.now() : 0;
  }

  /** While quoted: re-renders every second (the countdown) and expires the quote when its lock ends. */
  #tick(): void {
    if (this.status !== 'quoted') return;
    this.countdown(Date.parse(this.quote!.expires_at), () => {
      if (this.status !== 'quoted') return;
      this.error = undefined;
      this.set('expired');
    });
  }

  /** Refreshes the order status `times` more times, {@link POLL_MS} apart. */
  #poll(times: number): void {
    if (times > 0) this.wait(() => void this.refresh().then(() => this.#poll(times - 1)), POLL_MS);
  }
}
