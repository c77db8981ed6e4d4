/**
 * The result rows of `<dk-domain-search>` (one grid row per domain: its name with the matched part marked, in
 * Unicode for an internationalised name the BFF names so (`display_name`; its ASCII form as the row's title and
 * value), its availability, price and Buy button) and what choosing one does. Loaded on demand: the search box works
 * (typing, its states) before it arrives, and it is fetched when the browser is idle, so it is there before
 * the first answer. In the script-tag build it is `domainkit-results.min.js`, beside `domainkit.min.js`;
 * like the other files loaded on demand it bundles no Lit: it gets its host's.
 */
import type { TemplateResult } from 'lit';
import { DkSelectEvent } from '../events/dk-select.ts';
import { formatPrice } from '../format.ts';
import { highlight } from '../highlight.ts';
import type { LitKit, PurchaseController } from '../purchase/purchase-controller.ts';
import type { DkStrings } from '../strings.ts';
import type { WidgetDomain } from '../types.ts';
import { adoptStyle, type PopupHost, renderPopup as popup } from './popup.ts';

/** What the rows are rendered from. */
export interface RowsView {
  readonly results: readonly WidgetDomain[];
  /** Index of the active row (`aria-activedescendant`), -1 for none. */
  readonly active: number;
  /** The query the names are matched against. */
  readonly query: string;
  readonly strings: DkStrings;
  readonly purchase: PurchaseController;
  /** Why buying the purchase's domain failed, shown under its row; `''` for nothing. */
  readonly purchaseError: string;
  /** BCP 47 locale of prices. */
  readonly locale: string | undefined;
  /** A click on row `i` (the host makes it active, then {@link choose}). */
  choose(result: WidgetDomain, i: number): void;
}

/**
 * The rows' own style (and the siblings list's), adopted by the search box's shadow root with the popup (see
 * `popup.ts`, a constructed sheet, so a page's `style-src 'self'` allows it): the rows, the active row, the matched
 * text; on a touch screen (`pointer: coarse`) each Buy button is a 44 × 44 CSS px target at least, the size most
 * touch guidelines ask for; on a right-to-left page a name (left to right itself) stands at the row's start, the right.
 * It comes with this module, so the search box's first load carries none of it.
 */
const ROW_CSS = `
[role=row]{cursor:pointer;border-inline-start:4px solid transparent}
[role=row]+[role=row]{border-top:1px solid var(--_line)}
[aria-selected=true]{background:var(--_active);border-inline-start-color:var(--_focus)}
.cell{padding:.7em .9em}
.name{flex:1 1 12em;overflow-wrap:anywhere}
.row:dir(rtl)>.name{text-align:right}
mark{color:inherit;background:var(--_mark);border-radius:.2em}
.badge{font-size:.85em}
.ok{color:var(--_ok)}
.deal{display:flex;align-items:center;gap:1em}
.buy-error{flex-basis:100%}
ul{margin:0;padding:0;list-style:none}
li{padding-block:.3em}
@media (pointer:coarse){[part=buy-button]{min-height:44px;min-width:44px;justify-content:center}}
`;

/**
 * The popup's own pieces for the search box `host` (the phone's Close button, the recent searches), see `popup.ts`;
 * sets the popup up, and adopts the rows' and the popup's style, on first call.
 */
export function renderPopup(lit: LitKit, host: PopupHost): TemplateResult {
  if (!warming) {
    warming = true;
    host.addEventListener('dk-search', () => warmPrices(host), { once: true });
  }
  return popup(lit, host, ROW_CSS);
}

/** Whether a search box of the page listens for its first search to warm the price format (one does). */
let warming = false;

/**
 * Makes the page's first price format (see `formatPrice`) while the first search is in flight, in a task of its own
 * after the next paint: the first `Intl.NumberFormat` of a page loads ICU's number data (100 ms and more at 4x CPU
 * slowdown; later ones, of any locale or currency, take a few ms), which would otherwise lengthen the first results'
 * render, and a keystroke made meanwhile would wait for both. In the page's locale, in USD (the rows' currency is not
 * known before the answer; which one is warmed hardly matters). Not at page load: most page views never search.
 */
function warmPrices(host: PopupHost): void {
  const locale = (host as { locale?: string }).locale || host.closest('[lang]')?.getAttribute('lang') || undefined;
  requestAnimationFrame(() => setTimeout(() => formatPrice(0, 'USD', locale)));
}

/**
 * The rows last rendered for each search box (by its purchase), what they were rendered from, and which of the two
 * wrappers of {@link renderRows} holds them.
 */
const rendered = new WeakMap<PurchaseController, { from: readonly unknown[]; rows: TemplateResult[]; odd: boolean }>();

/**
 * Renders one grid row per result (with their style, see {@link ROW_CSS}). The search box renders on every
 * keystroke while the previous results stay shown: rows rendered from the same results, active row, query, purchase
 * and words are the ones rendered last time (no name matched, no price formatted again for each row).
 *
 * New results (another answer, a price learned) or a new query marked in them (a refinement being searched) get new
 * rows, not the old rows rewritten: in a reused row a longer name or price pushes the badge and the price sideways,
 * and a longer match moves the text after it, each a layout shift (counted as CLS when it comes more than 500 ms
 * after the last keystroke: a late answer, a search started after a long pause), while rows put in anew move
 * nothing. The rows alternate between two wrapper templates, told apart by an empty part (Lit replaces the DOM of a
 * part whose template changes; identical ones would be merged by the minifier); one item, the wrapper.
 */
export function renderRows(lit: LitKit, v: RowsView): TemplateResult[] {
  const { strings: s, purchase: p } = v;
  adoptStyle(p.host.renderRoot, ROW_CSS);
  const from: unknown[] = [v.results, v.active, v.query, v.purchaseError, v.locale, p.busy, p.domain, p.error];
  for (const key of ['available', 'reserved', 'unavailable', 'buy', 'buyDomain'] as const) from.push(s[key]);
  const last = rendered.get(p);
  if (last?.from.length === from.length && last.from.every((value, i) => value === from[i])) return last.rows;
  const odd = last ? last.odd !== (last.from[0] !== v.results || last.from[2] !== v.query) : false;
  const templates = rowTemplates(lit, v);
  const rows = [odd ? lit.html`${templates}${lit.nothing}` : lit.html`${templates}`];
  rendered.set(p, { from, rows, odd });
  return rows;
}

/** The rows of {@link renderRows}, rendered anew. */
function rowTemplates({ html, nothing, spinner }: LitKit, v: RowsView): TemplateResult[] {
  const { strings: s, purchase: p } = v;
  return v.results.map((result, i) => {
    const { domain, price_cents: cents, currency } = result;
    // The name as the visitor reads it (an IDN in Unicode, when the BFF says so); `domain` stays the value used.
    const name = result.display_name || domain;
    const mine = p.domain === domain;
    // Refused just now: sold (the marketplace says so) or held by another buyer's price lock; never "Available · Buy"
    // beside the reason.
    const refused = mine && p.error ? p.error.code : '';
    const reserved = refused === 'domain_reserved';
    const available = result.available && !reserved && refused !== 'conflict';
    // A price is shown only beside its Buy: a sold or reserved name's price is one nobody can pay ("Taken $2,000").
    return html`
      <div part="option" role="row" data-domain=${domain} aria-selected=${i === v.active} @click=${() => p.busy || v.choose(result, i)}>
        <div id=${`cell-${i}`} role="gridcell" class="cell row">
          <bdi part="name" class="name" title=${name === domain ? nothing : domain}>${highlight(name, v.query).map(([text, m]) => (m ? html`<mark part="match">${text}</mark>` : text))}</bdi>
          <span part=${available ? 'availability available' : reserved ? 'availability reserved' : 'availability unavailable'} class=${available ? 'badge ok' : 'badge mute'}>${available ? s.available : reserved ? s.reserved : s.unavailable}</span>
          ${
            // The price and its Buy wrap as one: on a narrow row both start the second line, never Buy alone there.
            available
              ? html`<span class="deal">${cents !== null && currency !== null ? html`<bdi part="price" class="price">${formatPrice(cents, currency, v.locale)}</bdi>` : nothing}<button part="buy-button" type="button" tabindex="-1" aria-label=${s.buyDomain(name)} aria-disabled=${p.busy}>
                ${p.busy && mine ? spinner : nothing}${s.buy}
              </button></span>`
              : nothing
          }
          ${mine && v.purchaseError ? html`<span part="buy-error" class="alert buy-error">${v.purchaseError}</span>` : nothing}
        </div>
      </div>
    `;
  });
}

/**
 * The row a key makes active among `n` rows (WAI-ARIA APG combobox with a grid popup), `active` being the active
 * row (-1 for none): ArrowDown and ArrowUp move, wrapping; Home and End jump to the first and last row once one is
 * active (until then they move the caret in the box). -1 for any other key (the box handles it).
 */
export function nextRow(key: string, active: number, n: number): number {
  return key === 'ArrowDown'
    ? (active + 1) % n
    : key === 'ArrowUp'
      ? (active < 1 ? n : active) - 1
      : active < 0
        ? -1
        : key === 'Home'
          ? 0
          : key === 'End'
            ? n - 1
            : -1;
}

/** Fires `dk-select` for `result` on `host` and, unless cancelled, buys it when available. */
export function choose(host: EventTarget, purchase: PurchaseController, result: WidgetDomain): void {
  if (result.display_name) purchase.names = { ...purchase.names, [result.domain]: result.display_name };
  if (host.dispatchEvent(new DkSelectEvent({ domain: result.domain, result })) && result.available) {
    void purchase.buy(result.domain);
  }
}
