/**
 * `<dk-console-links>`: referral links (Partner API spec 4.1 `GET /links`, `POST /links`): create one (generic, domain
 * or product), copy it, each link's clicks and sales, and the click total of the date window (`GET /me/clicks`). No
 * per-day chart: the marketplace gives click totals for a window, not a series, and the view says so rather than draw
 * an empty chart (docs/spec-decisions.md "Clicks per day").
 *
 * @summary Referral links: create, copy, clicks and sales.
 * @event dk-link-created - a link was created.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart create - the creation form.  @csspart table - the links table.
 * @csspart copy - each Copy button.  @csspart clicks - the click total of the window.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { ConsoleApiError, idempotencyKey } from '../api.ts';
import { DkConsoleView } from '../base.ts';
import { codeText } from '../labels.ts';
import { listTable } from '../table.ts';
import { DkLinkCreatedEvent } from '../events.ts';

/** A referral link with its counts (protocol `linkSchema`). */
export interface ConsoleLink {
  readonly link_id: string;
  readonly kind: string;
  readonly url: string;
  readonly domain?: string | null;
  readonly product?: string | null;
  readonly label?: string | null;
  readonly clicks: number;
  readonly sales: number;
  readonly created_at: string;
}

/** Link kinds (Partner API spec 2.7). */
export const LINK_KINDS = ['generic', 'domain', 'product'] as const;

/** The referral links view. */
export class DkConsoleLinks extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    links: { state: true },
    windowClicks: { state: true },
    kind: { state: true },
    notice: { state: true },
    busy: { state: true },
  };
  declare protected links: ConsoleLink[] | undefined;
  /** Clicks on every link in the date window (`GET /me/clicks`). */
  declare protected windowClicks: number | undefined;
  declare protected kind: (typeof LINK_KINDS)[number];
  declare protected notice: { kind: 'ok' | 'bad'; text: string } | undefined;
  declare protected busy: boolean;
  #createKey: string | undefined;

  constructor() {
    super();
    this.kind = 'generic';
    this.busy = false;
  }

  protected get heading(): string {
    return this.t.links;
  }
  protected hasData(): boolean {
    return this.links !== undefined;
  }

  protected async load(): Promise<void> {
    const [links, clicks] = await Promise.all([
      this.session.get<{ links: ConsoleLink[] }>('/links', { limit: 100 }),
      this.session.get<{ clicks: number }>('/clicks', this.window),
    ]);
    this.links = links.links;
    this.windowClicks = clicks.clicks;
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.busy) return;
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const body = {
      kind: this.kind,
      ...(this.kind === 'domain' ? { domain: text('domain').toLowerCase() } : {}),
      ...(this.kind === 'product' ? { product: text('product') } : {}),
      ...(text('label') ? { label: text('label') } : {}),
    };
    this.#createKey ??= idempotencyKey();
    this.busy = true;
    try {
      const { link } = await this.session.post<{ link: ConsoleLink }>('/links', body, this.#createKey);
      this.#createKey = undefined;
      element.reset();
      this.kind = 'generic';
      this.notice = { kind: 'ok', text: this.t.linkCreated(link.url) };
      this.dispatchEvent(new DkLinkCreatedEvent({ linkId: link.link_id, url: link.url, kind: link.kind }));
      await this.refresh();
    } catch (error) {
      this.#createKey = undefined;
      if (error instanceof ConsoleApiError && !error.unauthorized)
        this.notice = { kind: 'bad', text: this.t.failed(error.message) };
      else this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  async #copy(url: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(url);
      this.notice = { kind: 'ok', text: this.t.copied };
    } catch {
      this.notice = { kind: 'bad', text: this.t.failed(url) };
    }
  }

  /** A link kind in the console's language (an unknown kind as the marketplace names it). */
  #kind(kind: string): TemplateResult {
    const t = this.t;
    return codeText({ generic: t.kindGeneric, domain: t.kindDomain, product: t.kindProduct }, kind);
  }

  #target(link: ConsoleLink): string {
    return link.domain ?? link.product ?? '';
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    return html`
      <form class="filters" part="create" @submit=${this.#create} aria-labelledby="create-h">
        <h3 id="create-h" style="flex-basis:100%">${t.createLink}</h3>
        <label
          >${t.kind}
          <select name="kind" @change=${(e: Event) => (this.kind = (e.target as HTMLSelectElement).value as never)}>
            <option value="generic" ?selected=${this.kind === 'generic'}>${t.kindGeneric}</option>
            <option value="domain" ?selected=${this.kind === 'domain'}>${t.kindDomain}</option>
            <option value="product" ?selected=${this.kind === 'product'}>${t.kindProduct}</option>
          </select>
        </label>
        ${
          this.kind === 'domain'
            ? html`<label>${t.domain} <input name="domain" required autocomplete="off" /></label>`
            : nothing
        }
        ${
          this.kind === 'product'
            ? html`<label>${t.product} <input name="product" required maxlength="100" autocomplete="off" /></label>`
            : nothing
        }
        <label>${t.label} <input name="label" maxlength="100" autocomplete="off" /></label>
        <button type="submit" class="primary" ?disabled=${this.busy}>${t.create}</button>
      </form>
      <div role="status">
        ${this.notice ? html`<div class="notice ${this.notice.kind}" part="notice"><p>${this.notice.text}</p></div>` : nothing}
      </div>
      ${listTable({
        part: 'table',
        caption: t.links,
        columns: [
          { label: t.linkLabel },
          { label: t.kind },
          { label: 'URL' },
          { label: t.clicks, num: true },
          { label: t.sales, num: true },
        ],
        items: this.links,
        row: (link) => html`<tr data-link=${link.link_id}>
          <td class="text">${link.label ?? ''} <bdi class="muted">${this.#target(link)}</bdi></td>
          <td>${this.#kind(link.kind)}</td>
          <td>
            <bdi><code>${link.url}</code></bdi>
            <button part="copy" aria-label=${t.copyLink(link.url)} @click=${() => this.#copy(link.url)}>
              ${t.copy}
            </button>
          </td>
          <td class="num" data-clicks=${link.clicks}>${this.count(link.clicks)}</td>
          <td class="num" data-sales=${link.sales}>${this.count(link.sales)}</td>
        </tr>`,
        empty: t.empty,
      })}
      ${
        this.windowClicks === undefined
          ? nothing
          : html`<dl class="cards" part="clicks">
            <div class="card">
              <dt>${t.clicksAllLinks}</dt>
              <dd data-clicks=${this.windowClicks}><bdi>${this.count(this.windowClicks)}</bdi></dd>
              <dd class="note">${t.noDailyClicks}</dd>
            </div>
          </dl>`
      }
    `;
  }
}
