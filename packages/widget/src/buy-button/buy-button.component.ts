import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { DkElement, spinner } from '../element.ts';
import type { DkMode } from '../purchase/purchase-controller.ts';
import { errorMessage } from '../strings.ts';
import { styles } from './buy-button.styles.ts';

/** Buying flows of `<dk-buy-button>`. */
export type DkBuyMode = DkMode;

/**
 * A Buy button for one domain, in either buying flow.
 *
 * Checkout mode: a click POSTs `{"domain"}` to `{api}/checkout`, fires the cancelable `dk-checkout-start` and,
 * unless cancelled, calls {@link navigate} (same tab, or the `target` browsing context).
 *
 * Order mode: a click POSTs to `{api}/quotes` and shows the locked price with a live countdown (mm:ss) and the
 * `payment` slot (`dk-quote` fires). The partner's form then calls {@link placeOrder} (or dispatches a bubbling
 * `dk-place-order` `CustomEvent` whose `detail` is `{ buyer, payment }`); the order's status is shown and
 * refreshed a few times. An expired lock offers a fresh quote; a changed price is shown and only bought once
 * the visitor confirms it; a declined payment shows a message and can be retried.
 *
 * While a request is pending the host has the `busy` attribute and the button is `aria-disabled`. The purchase
 * phase is reflected as `data-purchase` (`idle`, `pending`, `quoted`, `ordering`, `expired`, `mismatch`, `failed`, `ordered`).
 *
 * @summary A Buy button for one domain: sends the visitor to the marketplace's hosted checkout
 * (`mode="checkout"`), or, with the partner as Merchant of Record (`mode="order"`), locks the price, lets the
 * partner collect payment in the `payment` slot and records the order.
 *
 * @slot - The button's text. Default: `strings.buy` ("Buy").
 * @slot payment - Order mode: the partner's payment form, shown while a quote is locked.
 *
 * @attr return-path - Checkout mode: where the hosted checkout sends the buyer after paying: a path on this site
 *   (`/thanks`) or an absolute URL on it. Unset: the BFF's `returnUrl`. The BFF refuses other origins.
 * @attr cancel-path - Checkout mode: where the hosted checkout sends the buyer after cancelling (as `return-path`).
 *
 * @event dk-checkout-start - {@link DkCheckoutStartEvent} The session exists; cancel it to navigate yourself.
 * @event dk-quote - {@link DkQuoteEvent} Order mode: a price is locked; collect payment.
 * @event dk-order-created - {@link DkOrderCreatedEvent} Order mode: the order was paid and recorded.
 * @event dk-error - {@link DkErrorEvent} A call failed; `detail.code`, `detail.message`.
 *
 * @csspart buy-button - The `<button>`.
 * @csspart spinner - The busy indicator inside a button.
 * @csspart error - The error message under the button.
 * @csspart order - Order mode: the panel with the quote, the payment slot and the order status.
 * @csspart order-title - The domain and its locked price.
 * @csspart order-ascii - Under an internationalised name shown in Unicode (title, placed order): its ASCII form (`xn--…`).
 * @csspart countdown - The remaining time of the price lock; also `countdown-ending` in its last minute (shown as an alert).
 * @csspart lock-notice - The visually hidden status that says once, in the lock's last minute, that time is short.
 * @csspart order-message - What happens now (expired lock, changed price, placing the order).
 * @csspart order-heading - The placed order's heading ("Thank you for your order!"); focus moves to it.
 * @csspart order-status - The placed order: the domain and the amount paid (or what became of the money).
 * @csspart order-next - The placed order: what happens now (the transfer).
 * @csspart order-reference - The placed order's reference.
 * @csspart order-error - A failed order that may be paid again (declined payment...), with what became of the money.
 * @csspart payment - The wrapper of the `payment` slot.
 * @csspart order-button - The panel's main action (new quote, confirm the new price).
 * @csspart cancel-button - Abandons the quote, or closes the panel after the order.
 *
 * @cssproperty --dk-font-family - Font. Default: inherited.
 * @cssproperty --dk-font-size - Base font size. Default: `1rem` (`0.875rem` small, `1.125rem` large).
 * @cssproperty --dk-color-text - Text colour. Default: `#1b1f24` (dark: `#e6e9ef`).
 * @cssproperty --dk-color-muted - Secondary text. Default: `#586170` (dark: `#a3adbb`).
 * @cssproperty --dk-color-surface - Panel background. Default: `#fff` (dark: `#161b22`).
 * @cssproperty --dk-color-border - Borders. Default: `#c4cad3` (dark: `#3d4653`).
 * @cssproperty --dk-color-accent - Button background. Default: `#1d4ed8`.
 * @cssproperty --dk-color-accent-text - Button text. Default: `#fff`.
 * @cssproperty --dk-color-danger - Error text; the error background is 10 % of it over the surface. Default: `#b42318` (dark: `#ffa198`).
 * @cssproperty --dk-color-background - Dark theme only: the background the host paints behind itself, so light text never lands on a light page. Default: `#0d1117`.
 * @cssproperty --dk-padding - Dark theme only: the padding inside that background. Default: `0.75em`.
 * @cssproperty --dk-color-focus - Focus ring. Default: `#3a75f0` (3.6:1 or more on the light and the dark surfaces).
 * @cssproperty --dk-focus-ring-width - Focus ring width. Default: `3px`.
 * @cssproperty --dk-radius - Corner radius. Default: `0.5rem`.
 * @cssproperty --dk-spacing - Gap between the pieces. Default: `0.5rem`.
 */
export class DkBuyButton extends DkElement {
  static override styles = styles;

  static override properties = {
    domain: {},
    label: {},
    busy: { type: Boolean, reflect: true },
  };

  /** The domain to buy, e.g. `coffeehouse.com`. Without it the button is disabled. */
  declare domain: string;
  /** Accessible name of the button when its text is not enough (e.g. "Buy coffeehouse.com"). */
  declare label: string;
  /** True (and reflected) while a request is pending. Read-only for pages. */
  declare busy: boolean;

  constructor() {
    super();
    this.domain = '';
    this.label = '';
    this.busy = false;
  }

  /**
   * Buys {@link domain} in the current mode (what a click does). Does nothing while busy or without a domain.
   * Never rejects: failures are shown and fired as `dk-error`.
   */
  buy(): Promise<void> {
    return this.purchase.buy(this.domain);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Re-used for another domain (a list re-rendered): forget the old one's purchase.
    if (changed.get('domain')) this.purchase.cancel();
    this.busy = this.purchase.busy;
    super.willUpdate(changed);
  }

  override render(): TemplateResult {
    const s = this.texts;
    const p = this.purchase;
    const disabled = p.busy || !this.domain;
    const error = p.error && !p.quote ? errorMessage(p.error, s) : '';
    return html`
      <button
        part="buy-button"
        type="button"
        aria-disabled=${disabled}
        aria-busy=${p.busy}
        aria-label=${this.label || nothing}
        aria-describedby=${error ? 'error' : nothing}
        ?hidden=${!!p.quote}
        @click=${() => disabled || this.buy()}
      >
        ${p.busy ? spinner : nothing}<slot>${s.buy}</slot>
      </button>
      ${error ? html`<span id="error" part="error" class="alert" role="alert">${error}</span>` : nothing}
      ${this.renderOrderPanel()}
    `;
  }
}
