import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { isAbortError, toApiError, trackOrder } from '../api.ts';
import { defaultStrings } from '../default-strings.ts';
import { formatPrice } from '../format.ts';
import { ar } from '../locales/ar.ts';
import { fr } from '../locales/fr.ts';
import { FOLLOW_WAIT_SECONDS, isNewer } from '../purchase/order-flow.ts';
import { orderStrings } from '../purchase/order-strings.ts';
import type { DkStrings } from '../strings.ts';
import { shared } from '../styles.ts';
import type { WidgetOrderStatus } from '../types.ts';

/** The words of `<dk-order-status>` that the order flow does not have (English, French, Arabic). */
export interface DkOrderStatusStrings {
  /** Heading while the order's status is asked for. */
  readonly checking: string;
  /** Unknown order, wrong token, or a link without them. */
  readonly notFound: string;
  /** What to do about it. */
  readonly notFoundHelp: string;
  /** The link to the shop's help (`contact`). */
  readonly contact: string;
  /** The status could not be asked for now. */
  readonly unreachable: string;
  /** Asks again. */
  readonly retry: string;
}

const en: DkOrderStatusStrings = {
  checking: 'Checking your order…',
  notFound: 'We could not find this order.',
  notFoundHelp: 'Open the link from your confirmation e-mail again, or contact the shop with your order reference.',
  contact: 'Contact the shop',
  unreachable: 'We could not check your order just now.',
  retry: 'Try again',
};
const frWords: DkOrderStatusStrings = {
  checking: 'Vérification de votre commande…',
  notFound: 'Nous ne trouvons pas cette commande.',
  notFoundHelp:
    'Ouvrez à nouveau le lien de votre e-mail de confirmation, ou contactez la boutique avec votre référence de commande.',
  contact: 'Contacter la boutique',
  unreachable: 'Nous ne pouvons pas vérifier votre commande pour le moment.',
  retry: 'Réessayer',
};
const arWords: DkOrderStatusStrings = {
  checking: 'جارٍ التحقق من طلبك…',
  notFound: 'لم نعثر على هذا الطلب.',
  notFoundHelp: 'افتح الرابط من رسالة التأكيد مرة أخرى، أو تواصل مع المتجر ومعك مرجع طلبك.',
  contact: 'تواصل مع المتجر',
  unreachable: 'تعذّر التحقق من طلبك الآن.',
  retry: 'أعد المحاولة',
};

/** Order statuses of a purchase that ended without an order. */
const ENDED = ['REFUNDED', 'FAILED', 'CANCELLED'];
/** Seconds before asking again after a failed call. */
const RETRY_MS = 5000;

/**
 * Follows one MoR order for its buyer on a page the partner links from its confirmation e-mail (Partner API spec 3,
 * 6): reads `order=<id>&token=<order token>` from the page URL's fragment (never sent to a server, so never in a
 * log), follows the order by long poll (`GET {api}/orders/:id/status` with `X-Order-Token`, the order flow's
 * never-back rule), and says each step in a live region. An unknown order or a wrong token says so, with a link to
 * the shop (`contact`) and a way to ask again.
 *
 * Strings follow the nearest `lang` (English, French, Arabic); RTL follows the page's direction.
 *
 * @summary Shows a placed order's progress to its buyer.
 *
 * @csspart base - The box around everything.
 * @csspart heading - What the element says first.
 * @csspart status - The order's step (a live region).
 * @csspart ascii-name - Under an internationalised name shown in Unicode: its ASCII form (`xn--…`).
 * @csspart reference - The order's reference.
 * @csspart contact-link - The shop's help (`contact`).
 * @csspart retry-button - Asks again.
 *
 * @cssproperty --dk-color-text - Text colour. Default: `#1b1f24` (dark: `#e6e9ef`).
 * @cssproperty --dk-color-surface - Panel background. Default: `#fff` (dark: `#161b22`).
 * @cssproperty --dk-color-accent - Button background. Default: `#1d4ed8`.
 */
export class DkOrderStatus extends LitElement {
  static override styles = [
    shared,
    css`
      :host {
        max-inline-size: 36rem;
      }
      a {
        color: var(--dk-color-link, inherit);
      }
    `,
  ];

  static override properties = {
    api: {},
    contact: {},
    locale: {},
    theme: { reflect: true },
    order: { state: true },
    problem: { state: true },
  };

  /** Base URL of the partner's BFF, e.g. `/dk`. Default `/dk`. */
  declare api: string;
  /** The shop's help page or `mailto:` link, offered when the order cannot be found. */
  declare contact: string;
  /** BCP 47 locale of amounts and strings. Default: the nearest `lang` attribute, else the browser's. */
  declare locale: string;
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined;
  /** The order's last status shown. */
  declare protected order: WidgetOrderStatus | undefined;
  /** `not_found`, `unreachable`, or ''. */
  declare protected problem: string;
  #abort: AbortController | undefined;
  #version: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Re-renders when the page's language changes (its words follow `lang`). */
  readonly #langWatch = new MutationObserver(() => this.requestUpdate());

  constructor() {
    super();
    this.api = '/dk';
    this.contact = '';
    this.locale = '';
    this.problem = '';
  }

  /** The page's language (`locale`, else the nearest `lang`). */
  get #lang(): string {
    return (this.locale || this.closest('[lang]')?.getAttribute('lang') || navigator.language || '').toLowerCase();
  }

  get #texts(): [DkStrings, DkOrderStatusStrings] {
    const primary = this.#lang.split('-')[0];
    return primary === 'fr'
      ? [fr, frWords]
      : primary === 'ar'
        ? [ar, arWords]
        : [{ ...defaultStrings, ...orderStrings }, en];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.#restart);
    this.#langWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    this.#restart();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('hashchange', this.#restart);
    this.#langWatch.disconnect();
    this.#abort?.abort();
    clearTimeout(this.#timer);
  }

  /** Starts following the order the fragment names (again). */
  readonly #restart = (): void => {
    this.#abort?.abort();
    clearTimeout(this.#timer);
    this.#version = undefined;
    this.order = undefined;
    this.problem = '';
    const fragment = new URLSearchParams(location.hash.slice(1));
    const id = fragment.get('order') ?? '';
    const token = fragment.get('token') ?? '';
    if (!id || !token) {
      this.problem = 'not_found';
      return;
    }
    this.#abort = new AbortController();
    void this.#follow(id, token, this.#abort.signal);
  };

  async #follow(id: string, token: string, signal: AbortSignal): Promise<void> {
    try {
      const after = this.#version;
      const track = await trackOrder(this.api, id, token, { after, waitSeconds: FOLLOW_WAIT_SECONDS }, { signal });
      this.problem = '';
      if (isNewer(after, track.version)) {
        this.#version = track.version;
        this.order = track;
      }
      if (!track.final) void this.#follow(id, token, signal);
    } catch (error) {
      if (isAbortError(error)) return;
      const { status } = toApiError(error);
      this.problem = status === 404 ? 'not_found' : 'unreachable';
      if (this.problem === 'unreachable')
        this.#timer = setTimeout(() => void this.#follow(id, token, signal), RETRY_MS);
    }
  }

  #step(s: DkStrings, order: WidgetOrderStatus): [string, string] {
    // The name as the buyer reads it (an internationalised name in Unicode, when the BFF says so).
    const domain = `\u2068${order.display_name || order.domain}\u2069`;
    const price = `\u2068${formatPrice(order.sale_price_cents, order.currency, this.#lang || undefined)}\u2069`;
    if (ENDED.includes(order.status)) {
      return [s.orderFailed, order.status === 'REFUNDED' ? s.moneyRefunded : s.moneyUnknown];
    }
    if (order.status === 'PROCESSING') return [s.orderThanks, s.orderProcessing(domain, price)];
    return [s.orderThanks, `${s.orderPaid(domain, price)} ${s.orderNext(order.status, domain)}`];
  }

  protected override render(): TemplateResult {
    const [s, w] = this.#texts;
    const order = this.order;
    this.dataset.state = order?.status ?? (this.problem || 'checking');
    let heading = w.checking;
    let said = '';
    let action: TemplateResult | typeof nothing = nothing;
    if (this.problem === 'not_found') {
      heading = w.notFound;
      said = w.notFoundHelp;
      action = html`${this.contact ? html`<a part="contact-link" href=${this.contact}>${w.contact}</a>` : nothing}
        <button part="retry-button" class="quiet" type="button" @click=${this.#restart}>${w.retry}</button>`;
    } else if (this.problem === 'unreachable' && !order) {
      heading = w.unreachable;
      action = html`<button part="retry-button" type="button" @click=${this.#restart}>${w.retry}</button>`;
    } else if (order) {
      [heading, said] = this.#step(s, order);
    }
    return html`<div part="base" class="box">
      <h2 part="heading">${heading}</h2>
      <p part="status" role="status">${said}</p>
      ${order?.display_name && order.display_name !== order.domain ? html`<p part="ascii-name" class="mute">${order.domain}</p>` : nothing}
      ${order ? html`<p part="reference" class="mute">${s.orderReference(`\u2068${order.order_id}\u2069`)}</p>` : nothing}
      <div class="row">${action}</div>
    </div>`;
  }
}
