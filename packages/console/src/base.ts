/**
 * What every console view shares: the BFF address, theme, locale and strings, the date window, the shared console
 * session, one load at a time (stale answers dropped by a call counter), and the signed-out and error states, each
 * with its action. Not an element itself; it defines nothing.
 */
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { ConsoleApiError, consoleSession, type ConsoleSession } from './api.ts';
import { DkConsoleErrorEvent } from './events.ts';
import { formatCount, formatDate, formatDateTime, formatMoney } from './format.ts';
import { type DkConsoleStrings, withDefaults } from './strings.ts';
import { consoleStyles } from './styles.ts';

/** The states of a view's load, as `data-state` on the host (`as const`, shared by docs, tests and styles). */
export const VIEW_STATES = ['initial', 'pending', 'complete', 'error', 'signed-out'] as const;
/** One of {@link VIEW_STATES}. */
export type ViewState = (typeof VIEW_STATES)[number];

/** Base class of the console's views. */
export abstract class DkConsoleView extends LitElement {
  static override styles = [consoleStyles];
  static override properties: PropertyDeclarations = {
    api: {},
    theme: { reflect: true },
    locale: {},
    strings: { attribute: false },
    from: {},
    to: {},
    state: { attribute: 'data-state', reflect: true },
    error: { state: true },
  };

  /** Base URL of the partner's BFF (where its router is mounted), e.g. `/dk`. Default `/dk`. */
  declare api: string;
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined;
  /** BCP 47 locale of amounts and dates. Default: the nearest `lang`, else the browser's. */
  declare locale: string;
  /** Replacement strings (partial); the rest keep the English defaults (a table of labels by code, code by code). */
  declare strings: Partial<DkConsoleStrings>;
  /** Start of the date window (ISO 8601 date or timestamp), unset for no lower bound. */
  declare from: string | undefined;
  /** End of the date window (ISO 8601 date or timestamp, inclusive day), unset for none. */
  declare to: string | undefined;
  /** The load's state (reflected as `data-state`). */
  declare state: ViewState;
  declare protected error: ConsoleApiError | undefined;

  #calls = 0;
  /** Whether the load running asks the BFF for what the marketplace has now (a {@link refresh}). */
  #revalidate = false;
  #resolveComplete: (() => void) | undefined;
  #complete: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.api = '/dk';
    this.locale = '';
    this.strings = {};
    this.state = 'initial';
  }

  /** Resolves when the current load settles (complete, error or signed out). */
  get complete(): Promise<void> {
    return this.#complete;
  }

  /** The merged strings. */
  protected get t(): DkConsoleStrings {
    return withDefaults(this.strings);
  }

  /**
   * The locale used for amounts and dates: `locale`, else the nearest `lang`, looked for past shadow roots too (a
   * view inside `<dk-console>` speaks the page's language), else the browser's.
   */
  protected get numberLocale(): string {
    return this.locale || nearestLang(this);
  }

  /** The page's session for `api`; during a {@link refresh}, its twin that asks the BFF to read anew. */
  protected get session(): ConsoleSession {
    const session = consoleSession(this.api);
    return this.#revalidate ? session.revalidating() : session;
  }

  protected money(cents: number | null | undefined, currency = 'USD'): string {
    return cents === null || cents === undefined ? '' : formatMoney(cents, currency, this.numberLocale);
  }
  protected dateTime(iso: string | null | undefined): string {
    return formatDateTime(iso, this.numberLocale);
  }
  protected date(iso: string | null | undefined): string {
    return formatDate(iso, this.numberLocale);
  }
  protected count(value: number | null | undefined): string {
    return formatCount(value ?? 0, this.numberLocale);
  }

  /** The date window as the BFF's `from`/`to` query: a bare `to` date covers the whole day (UTC). */
  protected get window(): { from?: string; to?: string } {
    const day = /^\d{4}-\d{2}-\d{2}$/;
    const from = this.from ? (day.test(this.from) ? `${this.from}T00:00:00Z` : this.from) : undefined;
    const to = this.to ? (day.test(this.to) ? `${this.to}T23:59:59Z` : this.to) : undefined;
    return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  }

  /**
   * The first load starts with the first update, not on connection: a framework may set the element's properties
   * just after inserting it (React through `@lit/react` sets them in a layout effect, after `connectedCallback`), and
   * a load started on connection would ask the default `api` with no filter first.
   */
  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (this.state === 'initial' && this.isConnected) void this.reload();
  }

  protected override updated(_changed: PropertyValues<this>): void {
    labelColumns(this.renderRoot);
    // A new BFF address or date window loads again (once: the load in flight already used the current ones).
    if (this.state !== 'initial' && this.#loadedFor !== this.#loadKey()) void this.reload();
  }

  #loadedFor = '';
  #loadKey(): string {
    return `${this.api}|${this.from ?? ''}|${this.to ?? ''}`;
  }

  /**
   * Loads the view's figures anew, as the marketplace has them now (the Refresh button): the BFF is asked to read
   * again rather than answer its shared cached copy (`Cache-Control: no-cache`; within its reporting budget, past
   * which it answers the copy). Resolves when done; never rejects.
   */
  refresh(): Promise<void> {
    return this.#run(true);
  }

  /**
   * Loads the view's figures for its current query (first load, new window or filters), from the BFF's shared cache
   * while fresh. Resolves when done; never rejects.
   */
  protected reload(): Promise<void> {
    return this.#run(false);
  }

  async #run(revalidate: boolean): Promise<void> {
    const call = ++this.#calls;
    this.#revalidate = revalidate;
    this.#loadedFor = this.#loadKey();
    this.#complete = new Promise((ok) => {
      this.#resolveComplete = ok;
    });
    const done = this.#resolveComplete;
    this.state = 'pending';
    try {
      await this.load();
      if (call !== this.#calls) return;
      this.error = undefined;
      this.state = 'complete';
    } catch (error) {
      if (call !== this.#calls) return;
      this.fail(error);
    } finally {
      if (call === this.#calls) {
        this.#revalidate = false;
        done?.();
      }
    }
  }

  /** Fetches the view's data into its state. @throws ConsoleApiError */
  protected abstract load(): Promise<void>;

  /** Shows `error` and fires `dk-console-error`. */
  protected fail(error: unknown): void {
    const apiError =
      error instanceof ConsoleApiError ? error : new ConsoleApiError('invalid_response', 0, String(error));
    this.error = apiError;
    this.state = apiError.unauthorized ? 'signed-out' : 'error';
    this.dispatchEvent(
      new DkConsoleErrorEvent({ code: apiError.code, status: apiError.status, message: apiError.message }),
    );
  }

  /** The view's body when complete. */
  protected abstract renderBody(): TemplateResult;

  /** The view's heading. */
  protected abstract get heading(): string;

  /**
   * Whether the view has a filter form that shows {@link renderRefusal} next to it. Such a view keeps its body (and so
   * its form) on screen when the BFF refuses its query, instead of the error box. Default `false`.
   */
  protected hasFilterForm(): boolean {
    return false;
  }

  /**
   * The BFF's refusal of the query the view sent (400 or 422: a filter it does not accept), while the view shows it,
   * else `undefined`. Sending the same query again would be refused again, so there is no Try again: the person
   * changes the filter.
   */
  protected get refusal(): ConsoleApiError | undefined {
    const error = this.error;
    return this.state === 'error' && error && (error.status === 400 || error.status === 422) ? error : undefined;
  }

  /**
   * The box saying the BFF refused the filter, in its words (an alert), to place next to the filter form in
   * {@link renderBody}; nothing when there is no {@link refusal}.
   */
  protected renderRefusal(): TemplateResult | typeof nothing {
    const refusal = this.refusal;
    if (!refusal) return nothing;
    return html`<div class="notice bad" part="error refused" role="alert">
      <p>${this.t.filterRefused(refusal.message.replaceAll('`', ''))}</p>
    </div>`;
  }

  /** The status line, the signed-out and error boxes with their actions, else the body. */
  protected override render(): TemplateResult {
    const t = this.t;
    // A refused filter keeps the body, its form and the refusal next to it; any other error replaces the body.
    const refused = this.hasFilterForm() && this.refusal !== undefined;
    return html`<section part="view" aria-labelledby="h" aria-busy=${this.state === 'pending' ? 'true' : 'false'}>
      <div class="toolbar" part="toolbar">
        <h2 id="h" part="heading">${this.heading}</h2>
        <button part="refresh" @click=${() => this.refresh()} ?disabled=${this.state === 'pending'}>
          ${t.refresh}
        </button>
        <span role="status" class="muted">${this.state === 'pending' ? t.loading : ''}</span>
      </div>
      ${
        this.state === 'signed-out'
          ? html`<div class="notice bad" part="signed-out" role="alert">
            <p>${t.signedOut}</p>
            <p><button class="primary" @click=${() => location.reload()}>${t.reload}</button></p>
          </div>`
          : this.state === 'error' && !refused
            ? html`<div class="notice bad" part="error" role="alert">
              <p>${t.failed(this.error?.message ?? '')}</p>
              <p><button @click=${() => this.refresh()}>${t.retry}</button></p>
            </div>`
            : nothing
      }
      ${
        this.state === 'complete' || refused || (this.state === 'pending' && this.hasData())
          ? this.renderBody()
          : nothing
      }
    </section>`;
  }

  /** Whether a previous load left figures to keep on screen while refreshing. */
  protected abstract hasData(): boolean;
}

/**
 * Names each body cell of every wide table (4 columns or more) in `root` by its column's header, as `data-label`,
 * and marks the table `data-stack`, so on a phone its rows stack with each value named (styles.ts). A cell that
 * spans columns keeps no name.
 */
export function labelColumns(root: ParentNode): void {
  for (const table of root.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    if (heads.length < 4) continue;
    table.setAttribute('data-stack', '');
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = [...row.children];
      if (cells.length !== heads.length) continue;
      cells.forEach((cell, i) => {
        if (cell.getAttribute('data-label') !== heads[i]) cell.setAttribute('data-label', heads[i] ?? '');
      });
    }
  }
}

/** The `lang` of `element`'s nearest ancestor that has one, crossing shadow roots to their hosts; `''` when none. */
export function nearestLang(element: Element): string {
  for (let at: Element | null = element; at !== null; ) {
    const lang = at.closest('[lang]')?.getAttribute('lang');
    if (lang) return lang;
    const root = at.getRootNode();
    at = root instanceof ShadowRoot ? root.host : null;
  }
  return '';
}

/** Defines `tag` as `element` once, in a browser only (SSR-safe: nothing happens where `customElements` is missing). */
export function define(tag: string, element: CustomElementConstructor): void {
  if (typeof customElements !== 'undefined' && !customElements.get(tag)) customElements.define(tag, element);
}
