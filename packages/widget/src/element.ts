/**
 * What `<dk-domain-search>` and `<dk-buy-button>` share: the attributes every element takes (BFF address,
 * buying flow, theme, size, locale, strings, clock), the purchase flow and its public methods, and the
 * `dk-place-order` request event. Not an element itself; it defines nothing.
 */
import { LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { systemClock, type DkClock } from './clock.ts';
import type { DkOrderCreatedDetail } from './events/dk-order-created.ts';
import {
  loadCheckoutFlow,
  loadOrderFlow,
  PurchaseController,
  spinner,
  type DkMode,
  type PurchaseHost,
} from './purchase/purchase-controller.ts';
import { prefetch } from './lazy.ts';
import { baseStrings, type DkStrings } from './strings.ts';
import type { OrderDetails } from './types.ts';

export { spinner };

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
   * Sends the visitor to the checkout page; runs when `dk-checkout-start` was not cancelled. Unset (default):
   * `location.assign(url)`, or `open(url, target, 'noopener')` when `target` is not `_self`.
   */
  declare navigate: ((url: string) => void) | undefined;

  /** The purchase in progress (for rendering). */
  protected readonly purchase = new PurchaseController(this);

  constructor() {
    super();
    this.api = '/dk';
    this.mode = 'checkout';
    this.target = '_self';
    this.locale = '';
    this.size = 'medium';
    this.strings = {};
    this.clock = systemClock;
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

  /**
   * On the first connection the shadow root and the first render wait for a task of their own (a `setTimeout` of
   * 0 ms): the script that defines the elements stays a short task on the host page (Total Blocking Time counts each
   * task over 50 ms), and so does each element's first render. Until then the element shows what it showed
   * undefined, and `domainkit.css` keeps its box (its rules hold until the first render sets `data-state` or
   * `data-purchase`). Connected again within that task, it connects twice: Lit's connection work may repeat.
   */
  override connectedCallback(): void {
    globalThis.addEventListener('pageshow', this.#onShow);
    if (this.renderRoot) super.connectedCallback();
    else setTimeout(() => this.isConnected && super.connectedCallback());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    globalThis.removeEventListener('pageshow', this.#onShow);
  }

  /**
   * Back from the checkout page (the back/forward cache restored the page): the purchase that navigated away is
   * over, so every Buy is usable again. (A checkout opened in another tab leaves the purchase idle at once.)
   */
  readonly #onShow = (): void => {
    if (this.purchase.status === 'pending') this.purchase.cancel();
  };

  /**
   * The strings in use: the defaults with {@link strings} over them (a buying flow's defaults join once the flow is
   * loaded, which is before any of them is shown).
   */
  get texts(): DkStrings {
    return { ...baseStrings, ...this.purchase.words, ...this.strings } as DkStrings;
  }

  /** The locale of prices. */
  protected get priceLocale(): string | undefined {
    return this.locale || this.closest('[lang]')?.getAttribute('lang') || undefined;
  }

  /** Where focus returns when the order panel closes. */
  home(): HTMLElement | null {
    return this.renderRoot?.querySelector('button');
  }

  /** Order mode: the order panel (quote, countdown, payment slot, order status), or nothing without a quote. */
  protected renderOrderPanel(): TemplateResult | typeof nothing {
    const flow = this.purchase.flow;
    return flow ? flow.renderOrderPanel(this.purchase, this.texts, this.priceLocale) : nothing;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Order mode will need the order flow: fetch it while the browser is idle, before the first Buy.
    if (changed.has('mode')) prefetch(this.mode === 'order' ? loadOrderFlow : loadCheckoutFlow);
    this.dataset.purchase = this.purchase.status;
  }
}
