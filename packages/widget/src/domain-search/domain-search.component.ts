import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { DkElement, spinner } from '../element.ts';
import type { DkMode } from '../purchase/purchase-controller.ts';
import type { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import type { DkQuoteEvent } from '../events/dk-quote.ts';
import { isolate } from '../format.ts';
import { canRetry, errorMessage } from '../strings.ts';
import type { WidgetDomain } from '../types.ts';
import { prefetch } from '../lazy.ts';
import {
  loadResultsModule,
  loadSiblingsModule,
  SearchController,
  tooShort,
  type SearchStatus,
} from './search-controller.ts';
import { styles } from './domain-search.styles.ts';

export type { DkMode };

const toNumber = (value: number, fallback: number, min: number): number =>
  Number.isFinite(value) ? Math.max(min, value) : fallback;

/**
 * A domain search box that searches as the visitor types and buys the chosen result.
 *
 * It follows the WAI-ARIA combobox pattern with a grid popup: the input keeps focus, ArrowDown/ArrowUp move
 * the active result (`aria-activedescendant`), Home/End jump to the first/last one while a result is active,
 * Enter chooses it (fires `dk-select`, then buys it when available), Escape closes the results, then clears
 * the box. A click on a result (or its Buy button) chooses it too. A polite live region announces result
 * counts, errors and the purchase's progress.
 *
 * The results (and the messages standing in for them) open as a popup over the page, under the box, so nothing on
 * the page moves; a press outside the element or focus leaving it closes the popup. On a phone (a viewport of at
 * most 480 CSS px) the search opens as a full-screen panel instead, a modal dialog: the box on top, the results
 * under it, a Close button; Escape or Close closes it and focus is back in the box, Tab stays inside it and the page
 * under it does not scroll. Focusing the empty box lists the visitor's recent searches (the queries whose results
 * they saw, five at most, kept in their `localStorage` under `dk-recent-searches`; nothing is kept without storage):
 * each can be searched again or removed, and Clear removes them all. These come with the result rows' module.
 *
 * Its search state is reflected as `data-state`: `initial`, `loading`, `results`, `empty`, `error`, `busy`
 * (the BFF asked to wait; the search repeats by itself after the countdown) or `offline` (no network; it
 * repeats when the browser is back online). The purchase phase is reflected as `data-purchase`.
 *
 * With the `siblings` attribute, once results (or none) arrive it also asks the BFF for the query's word under
 * other TLDs (`GET {api}/siblings?q=`) and lists those not among the results under them, "Also available", as
 * a plain list outside the grid: a marketplace listing with its Buy, a name nobody registered with where it can be
 * had instead (no price: the shop sells listed names only). The results never wait for it; its failure shows nothing.
 *
 * When the visitor typed a whole domain (`live-site.com`), that name gets its own verdict above the results (it asks
 * `GET {api}/siblings?q=` for the name's standing even without the attribute): for sale here (its row first), taken
 * (with "Who holds it?", `GET {api}/whois?domain=`), nobody registered it, or not listed here; with the `offer` slot
 * for a name that cannot be bought here.
 *
 * Order mode (`mode="order"`): choosing a result locks its price and shows the order panel with the
 * `payment` slot; the partner's form calls {@link placeOrder} (or dispatches a bubbling `dk-place-order`
 * `CustomEvent` with `detail: { buyer, payment }`).
 *
 * @summary A domain search box for a partner page: searches the partner's BFF as the visitor types and lists
 * matching domains with availability, price and a Buy button, then runs the purchase (hosted checkout, or the
 * MoR order flow with the partner's payment form).
 *
 * @slot label - The search box's label (rich content); default: the `label` attribute or `strings.searchLabel`.
 * @slot payment - Order mode: the partner's payment form, shown while a quote is locked.
 * @slot offer - The partner's offer for a whole domain typed that cannot be bought here (taken, not registered, not
 *   listed), inside the verdict, before `<dk-broker-button>` (rendered there when the page defined that element).
 *
 * @attr return-path - Checkout mode: where the hosted checkout sends the buyer after paying: a path on this site
 *   (`/thanks`) or an absolute URL on it. Unset: the BFF's `returnUrl`. The BFF refuses other origins.
 * @attr cancel-path - Checkout mode: where the hosted checkout sends the buyer after cancelling (as `return-path`).
 *
 * @event dk-search - {@link DkSearchEvent} A search starts; `detail.query`.
 * @event dk-results - {@link DkResultsEvent} Results of the newest query are shown; `detail.query`, `detail.results`.
 * @event dk-select - {@link DkSelectEvent} The visitor chose a result; cancel it to stop the purchase.
 * @event dk-checkout-start - {@link DkCheckoutStartEvent} Checkout mode: cancelable, default navigates.
 * @event dk-quote - {@link DkQuoteEvent} Order mode: a price is locked; collect payment.
 * @event dk-order-created - {@link DkOrderCreatedEvent} Order mode: the order was paid and recorded.
 * @event dk-error - {@link DkErrorEvent} A search or purchase call failed; `detail.code`, `detail.message`.
 *
 * @csspart base - The wrapper of everything.
 * @csspart label - The search box's `<label>`.
 * @csspart input - The search `<input>` (role `combobox`).
 * @csspart spinner - A busy indicator (in the search box while loading, in a busy button).
 * @csspart results - The results (role `grid`, one row per result).
 * @csspart option - One result row (role `row`), with `data-domain` and `aria-selected` when active.
 * @csspart name - The domain name of a row.
 * @csspart match - The part of a name matching the query (`<mark>`).
 * @csspart availability - The availability badge of a row; also `available`, `unavailable` or `reserved` (another
 *   buyer's price lock holds it: the row has no Buy button then).
 * @csspart price - The formatted price of a row.
 * @csspart buy-button - The Buy `<button>` of an available row.
 * @csspart buy-error - Why buying a row failed.
 * @csspart message - The loading and empty messages.
 * @csspart verdict - The verdict on a whole domain typed (`live-site.com`), above the results, with `data-domain` and
 *   `data-verdict`: `listed` (its row is first, with its Buy), `for-sale` (a Buy of its own), `taken`, `unregistered`
 *   or `unlisted`.
 * @csspart verdict-text - The verdict's sentence (a polite live region).
 * @csspart verdict-buy - The verdict's Buy button (`for-sale`); also `buy-button`.
 * @csspart whois-button - "Who holds it?" on a taken name: asks the BFF's `GET {api}/whois?domain=`.
 * @csspart whois - Its answer (the registrar and the registration date); focus moves to it.
 * @csspart whois-error - Why the lookup failed (the button stays, to try again).
 * @csspart offer - The wrapper of the `offer` slot and of `<dk-broker-button>` (part `broker`) on a name not for sale.
 * @csspart verdict-alternatives - "These names can be bought now:" (or "Names like it:" when some cannot), above the
 *   results, under a name not for sale.
 * @csspart close-button - On a phone: the button closing the full-screen search panel (`strings.closeSearch`).
 * @csspart recent - The visitor's recent searches (a title, a list and a Clear button), when the empty box has focus.
 * @csspart recent-title - Their title (`strings.recentSearches`), which names the list.
 * @csspart recent-search - One recent search (`<li>`): its `recent-query` and `recent-remove` buttons.
 * @csspart recent-query - The button searching a recent query again.
 * @csspart recent-remove - The button removing one recent search (named by `strings.removeRecent`).
 * @csspart recent-clear - The button removing every recent search (`strings.clearRecent`).
 * @csspart recent-status - The visually hidden live region announcing the recent searches and their removal.
 * @csspart siblings - With `siblings`: the "Also available" section under the results (a title and a list).
 * @csspart siblings-title - Its title (`strings.siblingsTitle`), which names the list.
 * @csspart sibling - One alternate-TLD name (`<li>`), with `data-domain` and `data-kind` (`registration` or `listing`).
 * @csspart sibling-name - Its domain name.
 * @csspart sibling-status - How it can be had: `strings.siblingListing` (bought here) or `strings.siblingRegistration`
 *   (nobody registered it: at any registrar).
 * @csspart sibling-price - A listing's formatted price (absent when hidden or unknown, and for a name nobody registered:
 *   this shop cannot sell it at that price).
 * @csspart sibling-buy - A listing's Buy button; also `buy-button`.
 * @csspart error - The error, busy and offline box; contains `error-message` and `retry-button`.
 * @csspart error-message - The error text.
 * @csspart retry-button - The button repeating the failed search (only when repeating it can help: not for a query the BFF refused).
 * @csspart status - The visually hidden live region announcing counts and errors.
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
 * @cssproperty --dk-color-surface - Background of the input, results and panel. Default: `#fff` (dark: `#161b22`).
 * @cssproperty --dk-color-border - Borders. Default: `#c4cad3` (dark: `#3d4653`).
 * @cssproperty --dk-color-accent - Buttons, spinner. Default: `#1d4ed8`.
 * @cssproperty --dk-color-accent-text - Text on the accent. Default: `#fff`.
 * @cssproperty --dk-color-success - "Available". Default: `#15703d` (dark: `#5fd38d`).
 * @cssproperty --dk-color-danger - Error text; the error background is 10 % of it over the surface. Default: `#b42318` (dark: `#ffa198`).
 * @cssproperty --dk-color-background - Dark theme only: the background the host paints behind itself, so light text never lands on a light page. Default: `#0d1117`.
 * @cssproperty --dk-padding - Dark theme only: the padding inside that background. Default: `0.75em`.
 * @cssproperty --dk-color-focus - Focus ring and active-row marker. Default: `#3a75f0` (3.6:1 or more on the light and the dark surfaces, the active row included).
 * @cssproperty --dk-color-active - Background of the active row. Default: `#e8effd` (dark: `#1f2b3e`).
 * @cssproperty --dk-color-mark - Background of the matched text. Default: `#fde68a` (dark: `#7a5a00`).
 * @cssproperty --dk-focus-ring-width - Focus ring width. Default: `3px`.
 * @cssproperty --dk-radius - Corner radius. Default: `0.5rem`.
 * @cssproperty --dk-spacing - Gap between the pieces. Default: `0.5rem`.
 */
export class DkDomainSearch extends DkElement {
  static override styles = styles;

  static override properties = {
    label: {},
    placeholder: {},
    debounce: { type: Number },
    minLength: { type: Number, attribute: 'min-length' },
    siblings: { type: Boolean },
    _active: { state: true },
    _open: { state: true },
    _short: { state: true },
  };

  /** Visible label of the search box. Default: `strings.searchLabel`. The `label` slot overrides it. */
  declare label: string;
  /** Placeholder of the search box. Default: `strings.searchPlaceholder`. */
  declare placeholder: string;
  /**
   * Milliseconds of typing pause before a search is sent, at least. Default 250. The pause grows with the
   * visitor's own rhythm (1.5 times their usual gap between keys, at most 1 s), so a slow typist is not
   * searched on every key. Enter searches at once.
   */
  declare debounce: number;
  /**
   * Fewest characters (after trimming; grapheme clusters, one fewer for Chinese, Japanese or Korean) that start a
   * search; shorter text returns to `initial` and, once typing pauses (the debounce), shows a hint naming the
   * minimum (`strings.tooShort`). Default 3 (one or two letters match too many names to be worth the shared search
   * budget).
   */
  declare minLength: number;
  /** Also list the query's word under other TLDs, from the BFF's `GET /siblings` (under the results). Default off. */
  declare siblings: boolean;
  declare private _active: number;
  declare private _open: boolean;
  /** Whether the box holds text too short to search (the hint naming the minimum shows). */
  declare private _short: boolean;

  readonly #search = new SearchController(this);

  constructor() {
    super();
    this.label = '';
    this.placeholder = '';
    this.debounce = 250;
    this.minLength = 3;
    this.siblings = false;
    this._active = -1;
    this._open = true;
    // A sale changes availability: later searches must ask the BFF again.
    this.addEventListener('dk-order-created', () => this.#search.clearCache());
    // The price a quote or a checkout session gives is the current one: its row shows it.
    const reprice = ({ detail: d }: DkQuoteEvent | DkCheckoutStartEvent) =>
      this.#search.reprice(d.domain, d.priceCents, d.currency);
    this.addEventListener('dk-quote', reprice);
    this.addEventListener('dk-checkout-start', reprice);
    // New results open the grid, with no result active yet.
    this.addEventListener('dk-results', this.#reopen);
  }

  /** Where the search stands (also the host's `data-state` attribute). */
  get status(): SearchStatus {
    return this.#search.status;
  }

  /** Searches `query` at once, without the debounce, and puts it in the search box. */
  search(query: string): void {
    const input = this.#input;
    if (input) input.value = query;
    const trimmed = query.trim().normalize();
    this._short = !!trimmed && tooShort(trimmed, this.#minLength);
    if (this._short || !trimmed) this.#search.reset();
    else void this.#search.run(trimmed);
  }

  /** Repeats the last search (what the Retry button does). */
  retry(): void {
    this.#search.retry();
  }

  get #minLength(): number {
    return toNumber(this.minLength, 3, 1);
  }

  get #input(): HTMLInputElement | null {
    return this.renderRoot?.querySelector('input');
  }

  readonly #reopen = (): void => {
    this._active = -1;
    this._open = true;
  };

  /** Clock time of the last keystroke, and the visitor's usual gap between keystrokes (ms; 0: not known yet). */
  #lastKey = 0;
  #gap = 0;

  /** Searches the box's text after the debounce, stretched to the visitor's typing rhythm (typing; IME composition end). */
  readonly #schedule = (): void => {
    const now = this.clock.now();
    const gap = now - this.#lastKey;
    this.#lastKey = now;
    // A pause over 1.5 s is the visitor reading or thinking, not their typing pace.
    if (gap < 1500) this.#gap = this.#gap ? (2 * this.#gap + gap) / 3 : gap;
    this.#reopen();
    const text = this.#input!.value.trim().normalize();
    const delay = Math.max(toNumber(this.debounce, 250, 0), Math.min(1000, 1.5 * this.#gap));
    this.#search.schedule(this.#input!.value, delay, this.#minLength);
    // The hint shows once typing pauses (no flash on each of the first keys of a longer query); it goes at once.
    if (text && tooShort(text, this.#minLength)) this.#search.wait(() => (this._short = true), delay);
    else this._short = false;
  };

  /** The combobox keys (WAI-ARIA APG combobox pattern, grid popup); everything else types into the box. */
  #onKeyDown(event: KeyboardEvent): void {
    const { status, results } = this.#search;
    const input = this.#input!;
    const key = event.key;
    const open = this.#expanded;
    const n = status === 'results' ? results.length : 0;
    const active = open ? this._active : -1;
    if (event.isComposing) return;
    if (key === 'Enter') {
      if (active < 0) this.search(input.value);
      else this.#choose(results[active]!, active);
    } else if (key === 'Escape') {
      // First close the results, then clear the box.
      if (open) this._open = false;
      else if (input.value) this.search('');
      else return;
      this._active = -1;
    } else {
      // Results are shown only once their module is loaded: it knows the grid's keys.
      const next = n ? this.#search.rows!.nextRow(key, active, n) : -1;
      if (next < 0) return;
      this._open = true;
      this._active = next;
    }
    event.preventDefault();
  }

  /** Fires `dk-select` for a result and, unless cancelled, buys it when available (see `results.ts`). */
  #choose(result: WidgetDomain, index: number): void {
    this._active = index;
    this.#search.rows?.choose(this, this.purchase, result);
  }

  /** Whether the results grid is shown: results (also the previous ones while a refinement loads), open, no order panel. */
  get #expanded(): boolean {
    const { status, results } = this.#search;
    return (status === 'results' || (status === 'loading' && results.length > 0)) && this._open && !this.purchase.quote;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Once loaded, the rows' module also runs the popup (recent searches, the full-screen panel on a phone).
    if (!this.hasUpdated)
      prefetch(() =>
        loadResultsModule().then((rows) => {
          this.#search.rows = rows;
          this.requestUpdate();
        }),
      );
    if (changed.has('siblings') && this.siblings) prefetch(loadSiblingsModule);
    this.dataset.state = this.#search.status;
  }

  override home(): HTMLElement | null {
    return this.#input;
  }

  override render(): TemplateResult {
    const s = this.texts;
    const { status, query, results, error } = this.#search;
    const expanded = this.#expanded;
    const active = expanded ? this._active : -1;
    const p = this.purchase;
    const purchaseError = p.error && !p.quote ? errorMessage(p.error, s) : '';
    const busy = status === 'busy';
    const problem = busy
      ? s.busy(Math.max(0, Math.ceil((this.#search.retryAt - this.clock.now()) / 1000)))
      : error
        ? errorMessage(error, s)
        : '';
    // While a refinement loads, the previous results stay (dimmed, `aria-busy`): no message pushes them around.
    const message =
      status === 'loading'
        ? expanded
          ? ''
          : s.searching
        : status === 'empty'
          ? s.noResults(isolate(query))
          : status === 'initial' && this._short
            ? s.tooShort(this.#minLength)
            : '';
    const extras = expanded || (status === 'empty' && !p.quote) ? this.#search.extras : null;
    // The live region never repeats the busy countdown each second: it announces the wait once.
    const announcement =
      purchaseError ||
      (status === 'results' ? s.resultCount(results.length) : busy ? errorMessage(error!, s) : message || problem);
    return html`
      <div part="base" class="base">
        <label part="label" for="input"><slot name="label">${this.label || s.searchLabel}</slot></label>
        <div class="sheet">
          <div class="field">
            <input
              id="input"
              part="input"
              type="search"
              role="combobox"
              autocomplete="off"
              spellcheck="false"
              aria-autocomplete="list"
              aria-haspopup="grid"
              aria-expanded=${expanded}
              aria-controls="results"
              aria-activedescendant=${active < 0 ? nothing : `cell-${active}`}
              placeholder=${this.placeholder || s.searchPlaceholder}
              @input=${(event: InputEvent) => event.isComposing || this.#schedule()}
              @compositionend=${this.#schedule}
              @keydown=${this.#onKeyDown}
            />
            ${status === 'loading' ? spinner : nothing}
          </div>
          <div class="pop">
            ${this.#search.rows?.renderPopup(this.purchase.lit, this)}
            ${extras?.renderVerdict(this as never, this.#search)}
            <div id="results" part="results" class="grid" role="grid" aria-label=${s.resultsLabel} aria-busy=${status === 'loading'} ?hidden=${!expanded} @mousedown=${(e: Event) => e.preventDefault()}>
              ${expanded && this.#search.rows ? this.#search.rows.renderRows(this.purchase.lit, { results, active, query: this.#search.query, strings: s, purchase: p, purchaseError, locale: this.priceLocale, choose: (result, i) => this.#choose(result, i) }) : nothing}
            </div>
            <p part="message" class="box mute" ?hidden=${!message}>${message}</p>
            ${extras?.renderSiblings(this as never, this.#search)}
            <div part="error" class="box alert row" ?hidden=${!problem}>
              <p part="error-message">${problem}</p>
              <button part="retry-button" class="quiet" type="button" ?hidden=${busy || !error || !canRetry(error)} @click=${() => this.retry()}>${s.retry}</button>
            </div>
          </div>
        </div>
        ${this.renderOrderPanel()}
        <div part="status" class="vh" role="status" aria-live="polite" aria-atomic="true">${announcement}</div>
      </div>
    `;
  }
}
