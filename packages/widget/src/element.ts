/**
 * What `<dk-domain-search>` and `<dk-buy-button>` share: the attributes every element takes (BFF address,
 * buying flow, theme, size, locale, strings, clock), the purchase flow and its public methods, and the
 * `dk-place-order` request event. Not an element itself; it defines nothing.
 */
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { systemClock, type DkClock } from './clock.ts';
import type { DkOrderCreatedDetail } from './events/dk-order-created.ts';
import { PurchaseController, type DkMode, type PurchaseHost } from './purchase/purchase-controller.ts';
import { defaultStrings, type DkStrings } from './strings.ts';
import type { OrderDetails } from './types.ts';

/** Base class of the widget's elements. */
export class DkElement extends LitElement implements PurchaseHost {
  static override properties: PropertyDeclarations = {
    api: {},
    mode: { reflect: true },
    target: {},
    locale: {},
    size: { reflect: true },
    theme: { reflect: true },
    strings: { attribute: false },
    clock: { attribute: false },
  };

  /** Base URL of the partner's BFF (where its router is mounted), e.g. `/dk` or `https://shop.example/dk`. Default `/dk`. */
  declare api: string;
  /** Buying flow: `checkout` (default: the marketplace's hosted checkout) or `order` (MoR: quote, the partner's payment, order). */
  declare mode: DkMode;
  /** Checkout mode: where the checkout page opens: `_self` (default) or e.g. `_blank` (a new tab, `noopener`). */
  declare target: string;
  /** BCP 47 locale of prices. Default: the nearest `lang` attribute, else the browser's locale. */
  declare locale: string;
  /** `small`, `medium` (default) or `large`. */
  declare size: 'small' | 'medium' | 'large';
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined;
  /** Replacement strings (partial); the rest keep their English defaults. */
  declare strings: Partial<DkStrings>;
  /** The time source of debounce, countdowns and polling. Default: the system clock. Replace it in tests. */
  declare clock: DkClock;

  /**
   * Sends the visitor to the checkout page; runs when `dk-checkout-start` was not cancelled.
   * Default: `location.assign(url)`, or `open(url, target, 'noopener')` when `target` is not `_self`.
   */
  navigate: (url: string) => void = (url) => {
    if (this.target === '_self') location.assign(url);
    else open(url, this.target, 'noopener');
  };

  /** The purchase in progress (for rendering). */
  protected readonly purchase = new PurchaseController(this);

  #hadQuote = false;

  constructor() {
    super();
    this.api = '/dk';
    this.mode = 'checkout';
    this.target = '_self';
    this.locale = '';
    this.size = 'medium';
    this.strings = {};
    this.clock = systemClock;
    // The documented alternative to placeOrder(): the partner's form dispatches a bubbling `dk-place-order`
    // CustomEvent with `detail: { buyer, payment }`.
    this.addEventListener('dk-place-order', (event) => {
      event.stopPropagation();
      const detail = (event as CustomEvent<OrderDetails | undefined>).detail;
      if (detail) void this.placeOrder(detail);
    });
  }

  /**
   * Order mode: places the order for the locked price with the partner's `buyer` and `payment` payload
   * (`POST {api}/orders`). Resolves with the order (also fired as `dk-order-created`), or `null` when it was
   * not placed: no quote is locked, or the call failed (the element shows why, and fires `dk-error`).
   */
  placeOrder(details: OrderDetails): Promise<DkOrderCreatedDetail | null> {
    return this.purchase.placeOrder(details);
  }

  /** Abandons the current purchase (quote, pending request, order panel). */
  cancel(): void {
    this.purchase.cancel();
  }

  /** The strings in use: the defaults with {@link strings} over them. */
  get texts(): DkStrings {
    return { ...defaultStrings, ...this.strings };
  }

  /** The locale of prices. */
  protected get priceLocale(): string | undefined {
    return this.locale || this.closest('[lang]')?.getAttribute('lang') || undefined;
  }

  /** Where focus returns when the order panel closes. */
  protected home(): HTMLElement | null {
    return this.renderRoot.querySelector('button');
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.dataset.purchase = this.purchase.status;
  }

  protected override updated(): void {
    // Focus follows the order panel: into it when a quote appears (the payment form comes next), back after.
    const hasQuote = !!this.purchase.quote;
    if (hasQuote !== this.#hadQuote && this.matches(':focus-within')) {
      (hasQuote ? this.renderRoot.querySelector<HTMLElement>('[part~="order"]') : this.home())?.focus();
    }
    this.#hadQuote = hasQuote;
  }
}
