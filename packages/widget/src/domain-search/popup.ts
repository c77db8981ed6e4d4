/**
 * How the popup of `<dk-domain-search>` opens and closes, loaded with the result rows (`results.ts`, so the search
 * box's first load carries none of it):
 *
 * - on a wide screen the results (and the messages standing in for them) open over the page under the box; a press
 *   outside the element, or focus moving out of it, closes them;
 * - on a phone (at most {@link PHONE}) the search opens as a full-screen panel (a modal dialog): the field on top,
 *   the results under it, a Close button; Escape and Close close it, Tab stays inside, the page under it neither
 *   scrolls nor moves (the element keeps its height), and focus is in the field again after it closes; it does not
 *   open over an order panel when the page narrows to phone width (the order panel stays in view);
 * - focusing the empty box lists the visitor's recent searches (the queries whose results they saw), kept in their
 *   `localStorage` ({@link STORAGE_KEY}, {@link MAX_RECENT} at most, newest first); each can be searched again or
 *   removed, and Clear removes them all. Without storage (refused, private mode) nothing is kept or shown.
 */
import type { TemplateResult } from 'lit';
import type { LitKit } from '../purchase/purchase-controller.ts';
import type { DkRecentStringKey, DkStrings } from '../strings.ts';

/** The English defaults of the popup's strings (see `DkStrings`). */
export const popupStrings: Pick<DkStrings, DkRecentStringKey> = {
  closeSearch: 'Close',
  recentSearches: 'Recent searches',
  clearRecent: 'Clear',
  removeRecent: (query) => `Remove “${query}” from recent searches`,
  recentCount: (count) =>
    `${count} recent search${count === 1 ? '' : 'es'}. Press Tab to choose ${count === 1 ? 'it' : 'one'}.`,
  recentRemoved: (query) => `“${query}” removed from recent searches.`,
  recentCleared: 'Recent searches cleared.',
};

/** The widest viewport (CSS px) on which the search opens as a full-screen panel. */
export const PHONE = 480;
/** The `localStorage` key of the recent searches (a JSON array of strings, newest first). */
export const STORAGE_KEY = 'dk-recent-searches';
/** How many recent searches are kept. */
export const MAX_RECENT = 5;

/** What the popup needs of its search box (`DkDomainSearch`). */
export interface PopupHost extends HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The `label` attribute (the panel's accessible name; `strings.searchLabel` when empty). */
  readonly label: string;
  readonly status: string;
  readonly texts: DkStrings;
  readonly updateComplete: Promise<boolean>;
  search(query: string): void;
  requestUpdate(): void;
}

/** The recent searches in storage, newest first; none when storage is unavailable or holds something else. */
export function readRecent(): string[] {
  try {
    const list: unknown = JSON.parse(globalThis.localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((q): q is string => typeof q === 'string').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/** Stores `list` (none: removes the key); does nothing when storage is unavailable. */
function writeRecent(list: readonly string[]): void {
  try {
    const storage = globalThis.localStorage;
    if (list.length) storage.setItem(STORAGE_KEY, JSON.stringify(list.slice(0, MAX_RECENT)));
    else storage.removeItem(STORAGE_KEY);
  } catch {
    // No storage: nothing is kept.
  }
}

/** The popup's state for one search box. */
class Popup {
  /** Whether the popup is open (on a phone: the full-screen panel). */
  open = false;
  /** Whether it is the full-screen panel now (open, on a phone). */
  #full = false;
  /** The recent searches listed (read when the popup opens). */
  recent: string[] = [];
  /** What the popup's live region says. */
  said = '';
  /** Focus is being put back in the field: that focus does not open the popup again. */
  #returning = false;
  /** The page root's `overflow` before the panel locked it. */
  #overflow = '';
  /**
   * The element's box height (CSS px) while in the page's flow, kept by a `ResizeObserver` as layout settles: the
   * panel opens without measuring it then (a forced style and layout in the focus handler, before the visitor's
   * first key). Undefined until first observed.
   */
  #baseHeight: number | undefined;
  /** Whether the field was empty at the last sync (the recent searches show only then). */
  #empty = true;
  readonly #phone = globalThis.matchMedia(`(max-width: ${PHONE}px)`);

  readonly host: PopupHost;

  constructor(host: PopupHost) {
    this.host = host;
    const root = host.renderRoot;
    root.addEventListener('keydown', (e) => this.#onKey(e as KeyboardEvent), true);
    root.addEventListener('focusin', (e) => e.target === this.input && !this.#returning && this.show());
    root.addEventListener('focusout', (e) => {
      const to = (e as FocusEvent).relatedTarget as Node | null;
      // Focus left the element (Tab past it): close. (`null` is a press on the page, handled by `#onPress`.)
      if (to && !root.contains(to) && !host.contains(to)) this.close();
    });
    root.addEventListener('click', (e) => e.target === this.input && this.show());
    // Typing in the search field only: a form slotted in the element (the payment form of an order) types too.
    root.addEventListener('input', (e) => e.target === this.input && this.show());
    // A search, new results or a failure open the popup on a wide screen; on a phone only the visitor opens it.
    const opened = () => (this.#phone.matches ? this.open || this.#closeResults() : this.show());
    host.addEventListener('dk-search', opened);
    host.addEventListener('dk-results', opened);
    host.addEventListener('dk-error', opened);
    // On a phone the order panel (a locked price) is under the full-screen panel: make way for it. (On a wide screen
    // the element hides the results itself while the order panel shows, and shows them again after.)
    host.addEventListener('dk-quote', () => this.#full && this.close());
    host.addEventListener('dk-select', () => this.#remember());
    // Narrowed to phone width while a price is locked: the order panel stays in view, no search panel over it.
    this.#phone.addEventListener('change', () =>
      this.#phone.matches && root.querySelector('[part=order]') ? this.close() : this.#sync(),
    );
    // Set up while the element renders: once it has, open for a box already in use.
    void host.updateComplete.then(() => {
      const base = this.#sheet?.parentElement;
      if (base && globalThis.ResizeObserver) {
        new ResizeObserver(([entry]) => {
          if (!this.#full && entry?.borderBoxSize[0]) this.#baseHeight = entry.borderBoxSize[0].blockSize;
        }).observe(base);
      }
      if (root instanceof ShadowRoot && root.activeElement === this.input) this.show();
      else if (!this.#phone.matches && host.status !== 'initial') this.show();
    });
    // The first `localStorage` read of a page opens its storage (a synchronous wait on the browser): done now, at
    // idle, rather than in the focus that lists the recent searches.
    (globalThis.requestIdleCallback ?? globalThis.setTimeout)(() => readRecent());
  }

  /** The strings in use: the popup's defaults under the element's. */
  get #s(): DkStrings {
    return { ...popupStrings, ...this.host.texts };
  }

  get input(): HTMLInputElement | null {
    return this.host.renderRoot.querySelector('input');
  }

  get #sheet(): HTMLElement | null {
    return this.host.renderRoot.querySelector('.sheet');
  }

  /**
   * Opens the popup (on a phone, the full-screen panel); the recent searches are read again. Already open, it
   * re-renders only when the field turned empty or not (a keystroke otherwise costs no render of the popup's own).
   */
  show(): void {
    const input = this.input;
    if (!this.open) {
      this.open = true;
      this.said = '';
      globalThis.document.addEventListener('pointerdown', this.#onPress, true);
      // Results closed meanwhile (Escape, a press outside): open them again.
      if (input?.value.trim() && this.host.status === 'results' && input.ariaExpanded !== 'true') {
        this.host.search(input.value);
      }
    } else if (this.#full === this.#phone.matches && this.#empty === !input?.value) return;
    this.#sync();
  }

  /** Closes the popup (remembering the query whose results were shown); from the panel, focus goes to the field. */
  close(): void {
    if (!this.open) return;
    this.#remember();
    this.open = false;
    this.said = '';
    globalThis.document.removeEventListener('pointerdown', this.#onPress, true);
    this.#closeResults();
    const wasFull = this.#full;
    this.#sync();
    if (wasFull) this.#focusField();
  }

  /** Whether the recent searches are listed: open, an empty box, and some kept (read from storage again). */
  #recentShown(): boolean {
    this.recent = this.open && !this.input?.value ? readRecent() : [];
    return this.recent.length > 0;
  }

  /** Applies the state to the element: `open` on the sheet, and the panel's dialog role, scroll lock and focus trap. */
  #sync(): void {
    const sheet = this.#sheet;
    const full = this.open && this.#phone.matches;
    // The element's box (the label, the field), measured before the panel leaves the page's flow: it keeps that
    // height while the panel is open, so the page under the panel does not move.
    const base = sheet?.parentElement;
    const height = full && !this.#full ? (this.#baseHeight ?? base?.getBoundingClientRect().height) : 0;
    this.#empty = !this.input?.value;
    sheet?.classList.toggle('open', this.open);
    if (full !== this.#full && sheet) {
      this.#full = full;
      const page = globalThis.document.documentElement;
      if (full) {
        this.#overflow = page.style.overflow;
        page.style.overflow = 'hidden';
        base!.style.minBlockSize = `${height}px`;
        sheet.setAttribute('role', 'dialog');
        sheet.setAttribute('aria-modal', 'true');
        sheet.setAttribute('aria-label', this.host.label || this.#s.searchLabel);
      } else {
        page.style.overflow = this.#overflow;
        base!.style.minBlockSize = '';
        for (const name of ['role', 'aria-modal', 'aria-label']) sheet.removeAttribute(name);
      }
    }
    this.host.requestUpdate();
  }

  /** Closes the results grid the way Escape does (the element's own state), when it is open. */
  #closeResults(): void {
    const input = this.input;
    if (input?.ariaExpanded === 'true') input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
  }

  /** Puts focus back in the field without opening the popup again. */
  #focusField(): void {
    this.#returning = true;
    this.input?.focus();
    this.#returning = false;
  }

  /** Keeps the query whose results the visitor saw, first in the recent searches. */
  #remember(): void {
    const query = this.input?.value.trim().normalize();
    if (!query || this.host.status !== 'results') return;
    writeRecent([query, ...readRecent().filter((q) => q !== query)]);
  }

  #say(text: string): void {
    if (this.said !== text) {
      this.said = text;
      this.host.requestUpdate();
    }
  }

  /** A press outside the element closes the wide screen's popup. */
  readonly #onPress = (e: Event): void => {
    if (!this.#full && !e.composedPath().includes(this.host)) this.close();
  };

  /** Escape closes the panel; Tab and Shift+Tab go round inside it. Escape over shown results remembers the query. */
  #onKey(e: KeyboardEvent): void {
    if (!e.isTrusted) return;
    if (e.key === 'Escape') {
      if (this.input?.ariaExpanded === 'true') this.#remember();
      if (!this.#full) return;
      this.close();
    } else if (e.key === 'Tab' && this.#full) {
      const stops = [...this.#sheet!.querySelectorAll<HTMLElement>('input, button')].filter(
        (el) => el.tabIndex >= 0 && el.getClientRects().length > 0,
      );
      const at = stops.indexOf((this.host.renderRoot as ShadowRoot).activeElement as HTMLElement);
      const next = e.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : at === stops.length - 1 ? 0 : at + 1;
      stops[next]?.focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /** Searches a recent query again (the field gets focus back). */
  choose(query: string): void {
    this.host.search(query);
    this.#focusField();
    this.#sync();
  }

  /** Removes one recent search; focus goes to the next one (or the field when none is left). */
  async remove(query: string, index: number): Promise<void> {
    this.recent = this.recent.filter((q) => q !== query);
    writeRecent(this.recent);
    this.#say(this.#s.recentRemoved(query));
    await this.host.updateComplete;
    const left = this.host.renderRoot.querySelectorAll<HTMLElement>('[part="recent-query"]');
    const next = left[Math.min(index, left.length - 1)];
    if (next) next.focus();
    else this.#focusField();
  }

  /** Removes every recent search; focus goes to the field. */
  clear(): void {
    this.recent = [];
    writeRecent([]);
    this.#say(this.#s.recentCleared);
    this.#focusField();
  }

  /** Whether the recent searches were listed at the last render (their count is announced when they appear). */
  #listed = false;

  render({ html, nothing }: LitKit): TemplateResult {
    const s = this.#s;
    const listed = this.#recentShown();
    if (listed && !this.#listed) this.said = s.recentCount(this.recent.length);
    this.#listed = listed;
    return html`
      <button part="close-button" class="quiet close" type="button" @click=${() => this.close()}>${s.closeSearch}</button>
      ${
        listed
          ? html`<div part="recent" class="box recent">
              <p part="recent-title" id="recent" class="mute">${s.recentSearches}</p>
              <ul aria-labelledby="recent">
                ${this.recent.map(
                  (query, i) => html`<li part="recent-search" class="row">
                    <button part="recent-query" class="link" type="button" @click=${() => this.choose(query)}><bdi>${query}</bdi></button>
                    <button part="recent-remove" class="quiet" type="button" aria-label=${s.removeRecent(query)} @click=${() => this.remove(query, i)}>×</button>
                  </li>`,
                )}
              </ul>
              <button part="recent-clear" class="quiet" type="button" aria-describedby="recent" @click=${() => this.clear()}>${s.clearRecent}</button>
            </div>`
          : nothing
      }
      <p part="recent-status" class="vh" role="status" aria-live="polite">${this.said}</p>
    `;
  }
}

/**
 * The popup's style (see {@link adoptStyle}): on a wide screen the popup's cards float on one panel with a shadow
 * (the page never shows between them) and a closed popup is hidden; under a verdict on the name typed, the "No domains
 * match" line is not shown (the verdict says what there is to say of it); on a phone an open popup is the full-screen
 * panel, the Close button beside the field; the Close, recent and remove buttons are 44 px targets on a touch screen.
 */
const POPUP_CSS = `
.sheet:not(.open) .pop,.close{display:none}
.sheet.open .pop:has(>:not([hidden],.close,.vh)){background:var(--_bg);border-radius:var(--_r);box-shadow:0 .5em 1.5em #0003}
[part=verdict]~[part=message]{display:none}
.pop>[part=verdict-alternatives]{padding:.5em .9em;background:var(--_bg);border-radius:var(--_r)}
.recent li{display:flex;gap:var(--_gap)}
.recent>button{justify-self:start}
.link{flex:1;padding:.5em .25em;color:inherit;background:none;border:0;font-weight:normal;justify-content:flex-start}
@media (max-width:${PHONE}px){
.open{position:fixed;inset:0;z-index:2147483647;display:grid;grid-template-columns:1fr auto;grid-auto-rows:max-content;align-content:start;gap:var(--_gap);padding:var(--_gap);overflow:auto;overscroll-behavior:contain;background:var(--_bg)}
.open .pop{display:contents}
.open .pop>*{grid-column:1/-1}
.open .field{grid-area:1/1}
.open .close{display:inline-flex;grid-area:1/2;min-height:44px}
}
@media (pointer:coarse){.recent button{min-height:44px;min-width:44px}.recent .quiet{justify-content:center}}
`;

/** The popups of the search boxes on the page. */
const popups = new WeakMap<PopupHost, Popup>();

/**
 * Renders the popup's own pieces for `host` (the Close button, the recent searches, their live region), setting it up
 * on first call: its listeners on the element, its style (with the rows').
 */
export function renderPopup(lit: LitKit, host: PopupHost, css: string): TemplateResult {
  let popup = popups.get(host);
  if (!popup) {
    adoptStyle(host.renderRoot, css + POPUP_CSS);
    popup = new Popup(host);
    popups.set(host, popup);
  }
  return popup.render(lit);
}

let sheet: CSSStyleSheet | undefined;

/**
 * Adopts the given style text into `root` (the search box's shadow root) once, as a constructed sheet, not an inline `<style>`, so
 * a page's `style-src 'self'` allows it.
 */
export function adoptStyle(root: HTMLElement | DocumentFragment, css: string): void {
  if (!(root instanceof ShadowRoot)) return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
