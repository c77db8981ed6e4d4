import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { checkBrokerage, type DkApiError, isAbortError, requestBrokerage, toApiError } from '../api.ts';
import { DkBrokerageRequestEvent } from '../events/dk-brokerage-request.ts';
import { DkErrorEvent } from '../events/dk-error.ts';
import { formatPrice, minorUnitExponent } from '../format.ts';
import type { WidgetBrokerageCase, WidgetBrokerageEligibility } from '../types.ts';
import { brokerStringsFor, type DkBrokerStrings } from './broker-strings.ts';
import { budgetExample, MAX_BUDGET_MINOR, parseBudget } from './budget.ts';
import { styles } from './broker-button.styles.ts';

/** The states of `<dk-broker-button>`, reflected as `data-state`. */
export const BROKER_STATES = ['ask', 'checking', 'ineligible', 'eligible', 'form', 'sending', 'sent', 'error'] as const;
/** A state of {@link BROKER_STATES}. */
export type DkBrokerState = (typeof BROKER_STATES)[number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A name typed in Unicode in the ASCII form the BFF takes (`münchen.de` → `xn--mnchen-3ya.de`, IDNA UTS #46 by the
 * browser's URL parser); ASCII, and anything that is no host name alone, as it is (the BFF says what is wrong).
 */
function asciiName(name: string): string {
  if (!/[^\x20-\x7e]/.test(name) || /[\s/?#@:\\%[\]]/.test(name)) return name;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return name;
  }
}

/** The name of an answer as a person reads it: its `display_name` (an IDN in Unicode) when the BFF gave one. */
const shown = (answer: { domain: string; display_name?: string | undefined }): string =>
  answer.display_name || answer.domain;

/**
 * Offers a visitor the shop's brokers for a name that is not for sale here (Partner API spec 2.6, 4.1
 * "Brokerage", through the partner's BFF).
 *
 * It first asks `GET {api}/brokerage/eligibility?domain=`: a name that runs a live site, is listed in the shop, or is
 * already in a case gets its own message and no form. For an eligible name it offers "Ask our brokers to get it for
 * you", then a short form (e-mail address, budget in the shop's currency with its minimum, consent to be contacted),
 * sends it (`POST {api}/brokerage`, one `Idempotency-Key` per attempt, so a retry never opens a second case), and
 * shows the case's progress link. Without `domain` it first shows a name field.
 *
 * Strings follow the nearest `lang` (English, French, Arabic); RTL follows the page's direction.
 *
 * @summary Asks the marketplace's brokers to acquire a domain name that is not for sale.
 *
 * @event dk-brokerage-request - {@link DkBrokerageRequestEvent} The case is open (`caseId`, `progressUrl`, budget).
 * @event dk-error - {@link DkErrorEvent} A call failed; `detail.code`, `detail.message`.
 *
 * @csspart base - The box around everything.
 * @csspart ask - Without `domain`: the name field's form.
 * @csspart input - The name field.
 * @csspart check-button - Checks the typed name.
 * @csspart message - What the element says about the name (why not, the offer, the result).
 * @csspart offer-button - "Ask our brokers to get it for you".
 * @csspart form - The request form.
 * @csspart submit-button - Sends the request.
 * @csspart cancel-button - Closes the form.
 * @csspart progress-link - The case's progress page (opens in a new tab).
 * @csspart retry-button - Sends a failed request again.
 *
 * @cssproperty --dk-color-link - The progress link. Default: the text colour.
 * @cssproperty --dk-color-text - Text colour. Default: `#1b1f24` (dark: `#e6e9ef`).
 * @cssproperty --dk-color-surface - Panel background. Default: `#fff` (dark: `#161b22`).
 * @cssproperty --dk-color-accent - Button background. Default: `#1d4ed8`.
 * @cssproperty --dk-color-danger - Error text. Default: `#b42318` (dark: `#ffa198`).
 */
export class DkBrokerButton extends LitElement {
  static override styles = styles;

  static override properties = {
    api: {},
    domain: {},
    locale: {},
    theme: { reflect: true },
    strings: { attribute: false },
    phase: { state: true },
    typed: { state: true },
    problem: { state: true },
  };

  /** Base URL of the partner's BFF, e.g. `/dk`. Default `/dk`. */
  declare api: string;
  /** The wanted domain, e.g. `acme-rockets.com`. Unset: the element first shows a name field. */
  declare domain: string;
  /** BCP 47 locale of amounts and strings. Default: the nearest `lang` attribute, else the browser's. */
  declare locale: string;
  /** `light` or `dark`; unset follows `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined;
  /** Replacement strings (partial) over the set of the element's language. */
  declare strings: Partial<DkBrokerStrings>;

  /** The current state (reactive; read it through {@link state}). */
  declare protected phase: DkBrokerState;
  /** The name typed or checked. */
  declare protected typed: string;
  /** What the visitor must fix or what failed, shown in the form or the error state. */
  declare protected problem: string;
  #eligibility: WidgetBrokerageEligibility | undefined;
  #case: WidgetBrokerageCase | undefined;
  #email = '';
  #budget = '';
  #consent = false;
  #key: string | undefined;
  #retryable = false;
  /** The form field the current problem is about (`email`, `budget`, `consent`), or ''. */
  #field = '';
  #calls = 0;
  #abort: AbortController | undefined;

  constructor() {
    super();
    this.api = '/dk';
    this.domain = '';
    this.locale = '';
    this.strings = {};
    this.phase = 'ask';
    this.typed = '';
    this.problem = '';
  }

  /**
   * The first render waits for a task of its own (a `setTimeout` of 0 ms), not the microtask after the upgrade: the
   * script that defines the element stays a short task on the host page, and so does the first render.
   */
  protected override async scheduleUpdate(): Promise<void> {
    if (!this.hasUpdated) await new Promise((go) => setTimeout(go));
    await super.scheduleUpdate();
  }

  /** The element's state (also `data-state`). */
  get state(): DkBrokerState {
    return this.phase;
  }

  /** The strings in use. */
  get texts(): DkBrokerStrings {
    return { ...brokerStringsFor(this.#lang), ...this.strings };
  }

  /** `locale`, else the nearest `lang` (across shadow roots: inside `<dk-domain-search>` too), else the browser's. */
  get #lang(): string | undefined {
    if (this.locale) return this.locale;
    let node: Element | null = this;
    while (node) {
      const found = node.closest('[lang]');
      if (found) return found.getAttribute('lang') || undefined;
      const root = node.getRootNode();
      node = root instanceof ShadowRoot ? root.host : null;
    }
    return globalThis.navigator?.language;
  }

  /** Checks `domain` (or the typed name) now; what the element does when `domain` changes. */
  async check(name = this.domain || this.typed): Promise<void> {
    const typed = name.trim().toLowerCase();
    if (!typed) return;
    this.typed = typed;
    const domain = asciiName(typed);
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    const call = ++this.#calls;
    this.phase = 'checking';
    this.problem = '';
    try {
      const answer = await checkBrokerage(this.api, domain, { signal: abort.signal });
      if (call !== this.#calls) return;
      this.#eligibility = answer;
      this.phase = answer.eligible ? 'eligible' : 'ineligible';
    } catch (error) {
      if (isAbortError(error) || call !== this.#calls) return;
      this.#fail(toApiError(error), () => this.check(domain));
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('domain') && this.domain) void this.check(this.domain);
    this.dataset.state = this.phase;
  }

  protected override updated(changed: PropertyValues): void {
    // The key is a string (never renamed by the script-tag build, which mangles only `_x` names).
    const was = changed.get('phase') as DkBrokerState | undefined;
    if (was === undefined) return;
    // Focus follows the visitor's action: into the form, onto the result, back to the offer.
    const target =
      this.phase === 'form' && was === 'eligible'
        ? '#email'
        : this.phase === 'sent'
          ? '#sent'
          : this.phase === 'eligible' && was === 'form'
            ? '[part=offer-button]'
            : undefined;
    if (target) (this.renderRoot.querySelector(target) as HTMLElement | null)?.focus();
  }

  #retry: (() => unknown) | undefined;

  #fail(error: DkApiError, retry: () => unknown): void {
    this.#retryable = error.status === 0 || error.status >= 500 || error.status === 429;
    this.#retry = retry;
    this.problem = this.#retryable ? this.texts.failed : this.texts.refused;
    if (error.code === 'not_found' && error.status === 404) this.problem = this.texts.unavailable;
    this.phase = 'error';
    this.dispatchEvent(new DkErrorEvent({ code: error.code, message: this.problem }));
  }

  #minimum(e: WidgetBrokerageEligibility): string {
    return formatPrice(e.min_budget_cents, e.currency, this.#lang);
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const e = this.#eligibility;
    if (!e || this.phase === 'sending') return;
    const s = this.texts;
    const exponent = minorUnitExponent(e.currency);
    // Read as typed, never rounded: "99.999" is no budget in dollars, rather than $100.00.
    const cents = parseBudget(this.#budget, exponent, this.#lang);
    const problem = !EMAIL.test(this.#email.trim())
      ? ['email', s.badEmail]
      : cents === undefined
        ? ['budget', s.badBudgetFigures(budgetExample(exponent, this.#lang))]
        : cents < e.min_budget_cents
          ? ['budget', s.badBudget(this.#minimum(e))]
          : cents > MAX_BUDGET_MINOR
            ? ['budget', s.badBudgetHigh(formatPrice(MAX_BUDGET_MINOR, e.currency, this.#lang))]
            : !this.#consent
              ? ['consent', s.needConsent]
              : undefined;
    this.#field = problem?.[0] ?? '';
    if (problem) {
      this.problem = problem[1]!;
      this.requestUpdate();
      await this.updateComplete;
      (this.renderRoot.querySelector(`#${problem[0]}`) as HTMLElement | null)?.focus();
      return;
    }
    this.#key ??= globalThis.crypto.randomUUID();
    await this.#send({
      domain: e.domain,
      buyer_email: this.#email.trim(),
      budget_cents: cents!,
      consent: true,
      ...(this.#lang ? { locale: this.#lang } : {}),
    });
  }

  async #send(body: Parameters<typeof requestBrokerage>[1]): Promise<void> {
    this.phase = 'sending';
    this.problem = '';
    try {
      const opened = await requestBrokerage(this.api, body, this.#key!);
      this.#case = opened;
      this.#key = undefined;
      this.phase = 'sent';
      this.dispatchEvent(
        new DkBrokerageRequestEvent({
          domain: opened.domain,
          caseId: opened.case_id,
          progressUrl: opened.progress_url,
          budgetCents: opened.budget_cents,
          currency: opened.currency,
          tier: opened.tier,
        }),
      );
    } catch (error) {
      const failure = toApiError(error);
      // No longer eligible (a case opened meanwhile, the name got listed): say why, as a fresh check would.
      if (failure.code === 'conflict') return void this.check(body.domain);
      this.#fail(failure, () => this.#send(body));
    }
  }

  #renderAsk(s: DkBrokerStrings): TemplateResult | typeof nothing {
    if (this.domain) return nothing;
    return html`
      <form part="ask" class="row" @submit=${this.#onAsk}>
        <div class="field" style="flex:1 1 14em">
          <label for="name">${s.askLabel}</label>
          <input
            id="name"
            part="input"
            type="text"
            inputmode="url"
            autocomplete="off"
            autocapitalize="off"
            spellcheck="false"
            dir="ltr"
            .value=${this.typed}
            @input=${(e: Event) => (this.typed = (e.target as HTMLInputElement).value)}
          />
        </div>
        <button part="check-button" type="submit" style="align-self:end">${s.check}</button>
      </form>
    `;
  }

  #renderBody(s: DkBrokerStrings): TemplateResult | typeof nothing {
    const e = this.#eligibility;
    switch (this.phase) {
      case 'ask':
        return nothing;
      case 'checking':
        return html`<p part="message" class="mute">${s.checking(this.typed)}</p>`;
      case 'ineligible': {
        const d = shown(e!);
        const why =
          e!.reason === 'live_site'
            ? s.liveSite(d)
            : e!.reason === 'listed'
              ? s.listed(d)
              : e!.reason === 'open_case'
                ? s.openCase(d)
                : s.notEligible(d);
        return html`<p part="message" data-reason=${e!.reason ?? nothing}>${why}</p>
          ${this.domain ? nothing : html`<p class="mute">${s.tryAnother}</p>`}`;
      }
      case 'eligible':
        return html`<p part="message">${s.offerText(shown(e!))}</p>
          <div><button part="offer-button" type="button" @click=${() => (this.phase = 'form')}>${s.offer}</button></div>`;
      case 'form':
      case 'sending':
        return this.#renderForm(s, e!);
      case 'sent': {
        const c = this.#case!;
        return html`<h2 id="sent" tabindex="-1">${s.sentTitle}</h2>
          <p part="message">${s.sentText(shown(c), this.#email.trim())}</p>
          <div>
            <a part="progress-link" href=${c.progress_url} target="_blank" rel="noopener noreferrer"
              >${s.progressLink}<span class="vh"> ${s.newTab}</span></a
            >
          </div>`;
      }
      case 'error':
        return html`<p part="message" class="err" role="alert">${this.problem}</p>
          ${this.#retryable ? html`<div><button part="retry-button" type="button" @click=${() => this.#retry?.()}>${s.retry}</button></div>` : nothing}`;
    }
  }

  #renderForm(s: DkBrokerStrings, e: WidgetBrokerageEligibility): TemplateResult {
    const sending = this.phase === 'sending';
    const problem = this.problem;
    const invalid = (field: string) => (problem && this.#invalidField() === field ? 'true' : 'false');
    return html`
      <form part="form" novalidate aria-labelledby="form-title" @submit=${this.#submit}>
        <h2 id="form-title">${s.formTitle(shown(e))}</h2>
        <p class="mute">${e.tier === 'self_serve' ? s.tierSelfServe : s.tierManaged}</p>
        <div class="field">
          <label for="email">${s.emailLabel}</label>
          <input id="email" type="email" autocomplete="email" dir="ltr" required aria-invalid=${invalid('email')}
            aria-describedby=${invalid('email') === 'true' ? 'problem' : nothing}
            .value=${this.#email} @input=${(ev: Event) => (this.#email = (ev.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="budget">${s.budgetLabel(e.currency)}</label>
          <input id="budget" type="text" inputmode="decimal" autocomplete="off" required aria-invalid=${invalid('budget')}
            aria-describedby=${invalid('budget') === 'true' ? 'budget-hint problem' : 'budget-hint'}
            .value=${this.#budget} @input=${(ev: Event) => (this.#budget = (ev.target as HTMLInputElement).value)} />
          <span id="budget-hint" class="mute">${s.budgetHint(this.#minimum(e))}</span>
        </div>
        <label class="consent">
          <input id="consent" type="checkbox" required aria-invalid=${invalid('consent')}
            .checked=${this.#consent} @change=${(ev: Event) => (this.#consent = (ev.target as HTMLInputElement).checked)} />
          <span>${s.consentLabel}</span>
        </label>
        ${problem ? html`<p id="problem" class="err" role="alert">${problem}</p>` : nothing}
        <div class="row">
          <button part="submit-button" type="submit" aria-disabled=${sending} aria-busy=${sending}>
            ${sending ? html`<span part="spinner" class="spin" aria-hidden="true"></span>` : nothing}${s.submit}
          </button>
          <button
            part="cancel-button"
            class="quiet"
            type="button"
            @click=${this.#closeForm}
          >
            ${s.cancel}
          </button>
        </div>
      </form>
    `;
  }

  readonly #closeForm = (): void => {
    this.problem = '';
    this.#field = '';
    this.phase = 'eligible';
  };

  readonly #onAsk = (e: Event): void => {
    e.preventDefault();
    void this.check(this.typed);
  };

  #invalidField(): string {
    return this.#field;
  }

  #announcement(s: DkBrokerStrings): string {
    const e = this.#eligibility;
    switch (this.phase) {
      case 'checking':
        return s.checking(this.typed);
      case 'ineligible':
      case 'eligible':
        return e ? (e.eligible ? s.offerText(e.domain) : '') : '';
      case 'sent':
        return s.sentTitle;
      default:
        return '';
    }
  }

  override render(): TemplateResult {
    const s = this.texts;
    const busy = this.phase === 'checking' || this.phase === 'sending';
    return html`
      <div part="base" class="stack" aria-busy=${busy}>
        ${this.#renderAsk(s)}
        <div class="stack" aria-live="polite">${this.#renderBody(s)}</div>
        <p role="status" class="vh">${this.#announcement(s)}</p>
      </div>
    `;
  }
}
