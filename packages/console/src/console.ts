/**
 * `<dk-console>`: every view as one console with tabs (WAI-ARIA tabs pattern: arrow keys, Home and End move between
 * tabs, the panel follows). Only the open tab's view is in the page, so a tab loads its figures when opened. The
 * attributes given here (`api`, `theme`, `locale`, `from`, `to`) and `strings` pass to the views.
 *
 * @summary The partner console: overview, orders, settlements, commissions, brokerage, links, events.
 * @event dk-refund - a refund was recorded (from the orders tab).
 * @event dk-link-created - a referral link was created.
 * @event dk-console-error - a call failed (status 401: the console session was refused).
 * @csspart tabs - the tab list.  @csspart tab - each tab.  @csspart panel - the open tab's panel.
 * @cssproperty --dk-color-accent - accent (links, buttons, selected tab, charts).
 * @cssproperty --dk-color-text - text.  @cssproperty --dk-color-surface - background.
 * @cssproperty --dk-radius - corner radius.  @cssproperty --dk-spacing - base gap.
 */
import { css, html, LitElement, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { type DkConsoleStrings, withDefaults } from './strings.ts';
import { consoleStyles } from './styles.ts';

/** The console's tabs, in order (`tab` attribute values). */
export const CONSOLE_TABS = [
  'overview',
  'orders',
  'settlements',
  'commissions',
  'brokerage',
  'links',
  'events',
] as const;
/** One of {@link CONSOLE_TABS}. */
export type ConsoleTab = (typeof CONSOLE_TABS)[number];

const TAB_LABEL: Record<ConsoleTab, keyof DkConsoleStrings> = {
  overview: 'tabOverview',
  orders: 'tabOrders',
  settlements: 'tabSettlements',
  commissions: 'tabCommissions',
  brokerage: 'tabBrokerage',
  links: 'tabLinks',
  events: 'tabEvents',
};

/** The whole console. */
export class DkConsole extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      [role='tablist'] {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25em;
        border-block-end: 1px solid var(--_line);
        margin-block-end: calc(var(--_gap) * 2);
      }
      [role='tab'] {
        border: 0;
        border-block-end: 3px solid transparent;
        border-radius: 0;
        color: var(--_fg);
        background: none;
        padding: 0.4em 0.8em;
        min-height: 2.75em;
      }
      [role='tab'][aria-selected='true'] {
        border-block-end-color: var(--_accent);
        color: var(--_accent);
        font-weight: 600;
      }
    `,
  ];
  static override properties: PropertyDeclarations = {
    api: {},
    tab: { reflect: true },
    theme: { reflect: true },
    locale: {},
    from: {},
    to: {},
    strings: { attribute: false },
  };

  /** Base URL of the partner's BFF, e.g. `/dk`. Default `/dk`. */
  declare api: string;
  /** The open tab, one of {@link CONSOLE_TABS}. Default `overview`. */
  declare tab: ConsoleTab;
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined;
  /** BCP 47 locale of amounts and dates; default the nearest `lang`. */
  declare locale: string;
  /** Date window start passed to the views (ISO 8601 date). */
  declare from: string | undefined;
  /** Date window end passed to the views (ISO 8601 date, inclusive). */
  declare to: string | undefined;
  /** Replacement strings (partial), e.g. `fr` from `@domainkit/console/strings/fr`. */
  declare strings: Partial<DkConsoleStrings>;

  constructor() {
    super();
    this.api = '/dk';
    this.tab = 'overview';
    this.locale = '';
    this.strings = {};
  }

  #select(tab: ConsoleTab, focus = false): void {
    this.tab = tab;
    if (focus) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${tab}`)?.focus());
  }

  #key(event: KeyboardEvent): void {
    const i = CONSOLE_TABS.indexOf(this.tab);
    const rtl = getComputedStyle(this).direction === 'rtl';
    const next = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
    let target: ConsoleTab | undefined;
    if (next !== undefined) target = CONSOLE_TABS[(i + next + CONSOLE_TABS.length) % CONSOLE_TABS.length];
    else if (event.key === 'Home') target = CONSOLE_TABS[0];
    else if (event.key === 'End') target = CONSOLE_TABS.at(-1);
    if (!target) return;
    event.preventDefault();
    this.#select(target, true);
  }

  #view(): TemplateResult {
    const common = {
      api: this.api,
      theme: this.theme ?? nothing,
      locale: this.locale,
    };
    switch (this.tab) {
      case 'orders':
        return html`<dk-console-orders api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings} .from=${this.from} .to=${this.to}></dk-console-orders>`;
      case 'settlements':
        return html`<dk-console-settlements api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings} .from=${this.from} .to=${this.to}></dk-console-settlements>`;
      case 'commissions':
        return html`<dk-console-commissions api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings}></dk-console-commissions>`;
      case 'brokerage':
        return html`<dk-console-brokerage api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings}></dk-console-brokerage>`;
      case 'links':
        return html`<dk-console-links api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings} .from=${this.from} .to=${this.to}></dk-console-links>`;
      case 'events':
        return html`<dk-console-events api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings}></dk-console-events>`;
      default:
        return html`<dk-console-overview api=${common.api} theme=${common.theme} .locale=${this.locale} .strings=${this.strings} .from=${this.from} .to=${this.to}></dk-console-overview>`;
    }
  }

  protected override render(): TemplateResult {
    const t = withDefaults(this.strings);
    const tab = CONSOLE_TABS.includes(this.tab) ? this.tab : 'overview';
    return html`<div role="tablist" part="tabs" aria-label=${t.consoleLabel} @keydown=${this.#key}>
        ${CONSOLE_TABS.map(
          (name) => html`<button
            role="tab"
            part="tab"
            id=${`tab-${name}`}
            aria-selected=${name === tab ? 'true' : 'false'}
            aria-controls="panel"
            tabindex=${name === tab ? '0' : '-1'}
            @click=${() => this.#select(name)}
          >
            ${t[TAB_LABEL[name]] as string}
          </button>`,
        )}
      </div>
      <div role="tabpanel" id="panel" part="panel" aria-labelledby=${`tab-${tab}`}>${this.#view()}</div>`;
  }
}
