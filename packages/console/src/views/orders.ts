/**
 * `<dk-console-orders>`: the partner's orders (Partner API spec 4.1 `GET /orders`) with the spec's filters (status,
 * domain, date range) and cursor paging, each order's timeline (`GET /orders/{public_id}`), and **Refund** where the
 * spec allows it: only before `TRANSFER_COMPLETED` (spec 3), after a confirmation that says what happens to the
 * money. A refused refund is shown in words with the marketplace's message.
 *
 * @summary Orders with filters, timelines and refunds.
 * @event dk-refund - the marketplace recorded a refund.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart filters - the filter form.  @csspart table - the orders table.
 * @csspart refund - each Refund button.  @csspart confirm - the refund confirmation dialog.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { ConsoleApiError, idempotencyKey } from '../api.ts';
import { DkConsoleView } from '../base.ts';
import {
  applyWindow,
  domainFilter,
  formFields,
  listTable,
  moreButton,
  windowBackwards,
  windowError,
  windowInputs,
} from '../table.ts';
import { DkRefundEvent } from '../events.ts';
import { codeLabel, codeText } from '../labels.ts';

/** An order as the console reads it (Partner API spec 2.1; the timeline on `GET /orders/{public_id}`). */
export interface ConsoleOrder {
  readonly public_id: string;
  readonly domain: string;
  readonly status: string;
  readonly sale_price_cents: number;
  readonly currency: string;
  readonly created_at?: string;
  /** Whether the BFF allows a refund (only before `TRANSFER_COMPLETED`); absent: judged from `status`. */
  readonly refundable?: boolean;
  readonly timeline?: ReadonlyArray<{ status: string; at: string; note?: string | null; event_type?: string | null }>;
}

/** The order statuses of the status filter (domainkit's full list, protocol `ORDER_STATUSES`). */
export const ORDER_FILTER_STATUSES = [
  'EXTERNALLY_PAID',
  'HELD_FOR_REVIEW',
  'TRANSFER_IN_PROGRESS',
  'TRANSFER_COMPLETED',
  'SETTLED',
  'REFUNDED',
  'CANCELLED',
] as const;

/** Statuses from which a refund is allowed: before `TRANSFER_COMPLETED` (Partner API spec 3). */
export const REFUNDABLE_STATUSES: readonly string[] = ['EXTERNALLY_PAID', 'HELD_FOR_REVIEW', 'TRANSFER_IN_PROGRESS'];

/** The orders view. */
export class DkConsoleOrders extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    status: {},
    domain: {},
    orders: { state: true },
    nextCursor: { state: true },
    open: { state: true },
    confirming: { state: true },
    notice: { state: true },
    busy: { state: true },
    problems: { state: true },
  };

  /** Status filter (one of {@link ORDER_FILTER_STATUSES}); unset for any. */
  declare status: string | undefined;
  /** Domain filter; unset for any. */
  declare domain: string | undefined;
  declare protected orders: ConsoleOrder[] | undefined;
  declare protected nextCursor: string | null;
  /** Orders whose timeline is open, by id (with the detail read). */
  declare protected open: ReadonlyMap<string, ConsoleOrder>;
  declare protected confirming: ConsoleOrder | undefined;
  declare protected notice: { kind: 'ok' | 'bad'; text: string } | undefined;
  declare protected busy: boolean;
  /** What the filter form refused before asking anything: a domain that is not a full name, a backwards window. */
  declare protected problems: ReadonlySet<'domain' | 'window'>;
  #refundKey: string | undefined;

  constructor() {
    super();
    this.nextCursor = null;
    this.open = new Map();
    this.busy = false;
    this.problems = new Set();
  }

  protected get heading(): string {
    return this.t.tabOrders;
  }

  protected hasData(): boolean {
    return this.orders !== undefined;
  }

  protected override hasFilterForm(): boolean {
    return true;
  }

  #query(cursor?: string) {
    return { status: this.status, domain: this.domain, ...this.window, cursor, limit: 20 };
  }

  protected async load(): Promise<void> {
    const page = await this.session.get<{ orders: ConsoleOrder[]; next_cursor?: string | null }>(
      '/orders',
      this.#query(),
    );
    this.orders = page.orders;
    this.nextCursor = page.next_cursor ?? null;
    // Timelines left open are read again (a refund changed them).
    const open = new Map<string, ConsoleOrder>();
    for (const id of this.open.keys()) open.set(id, await this.#detail(id));
    this.open = open;
  }

  async #more(): Promise<void> {
    if (!this.nextCursor) return;
    try {
      const page = await this.session.get<{ orders: ConsoleOrder[]; next_cursor?: string | null }>(
        '/orders',
        this.#query(this.nextCursor),
      );
      this.orders = [...(this.orders ?? []), ...page.orders];
      this.nextCursor = page.next_cursor ?? null;
    } catch (error) {
      this.fail(error);
    }
  }

  async #detail(id: string): Promise<ConsoleOrder> {
    return (await this.session.get<{ order: ConsoleOrder }>(`/orders/${encodeURIComponent(id)}`)).order;
  }

  async #toggle(order: ConsoleOrder): Promise<void> {
    const open = new Map(this.open);
    if (open.has(order.public_id)) {
      open.delete(order.public_id);
      this.open = open;
      return;
    }
    try {
      open.set(order.public_id, await this.#detail(order.public_id));
      this.open = open;
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Applies the filter form, after checking what the BFF would refuse: a domain that is not a full name (trimmed and
   * lower-cased first) or a window whose start is after its end is marked on its field, which takes the focus, and
   * nothing is asked: the filters and the table stay as they were.
   */
  #filter(event: SubmitEvent): void {
    const field = formFields(event);
    const domain = domainFilter(field('domain'));
    const problems = new Set<'domain' | 'window'>();
    if (domain === null) problems.add('domain');
    if (windowBackwards(field('from'), field('to'))) problems.add('window');
    this.problems = problems;
    if (problems.size > 0) {
      const first = problems.has('domain') ? 'domain' : 'from';
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus(),
      );
      return;
    }
    applyWindow(field, this);
    this.status = field('status');
    this.domain = domain ?? undefined;
    void this.reload();
  }

  #ask(order: ConsoleOrder): void {
    this.#refundKey = idempotencyKey();
    this.notice = undefined;
    this.confirming = order;
    void this.updateComplete.then(() => {
      this.renderRoot.querySelector<HTMLDialogElement>('dialog')?.showModal();
    });
  }

  #close(): void {
    this.renderRoot.querySelector<HTMLDialogElement>('dialog')?.close();
    this.confirming = undefined;
  }

  async #refund(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const order = this.confirming;
    if (!order || this.busy) return;
    const reason = String(new FormData(event.currentTarget as HTMLFormElement).get('reason') ?? '').trim();
    this.busy = true;
    try {
      const { refund } = await this.session.post<{
        refund: { refund_id: string; amount_cents: number; currency: string };
      }>(
        `/orders/${encodeURIComponent(order.public_id)}/refund`,
        reason ? { reason } : {},
        this.#refundKey ?? idempotencyKey(),
      );
      this.#close();
      this.notice = { kind: 'ok', text: this.t.refunded(this.money(refund.amount_cents, refund.currency)) };
      this.dispatchEvent(
        new DkRefundEvent({
          orderId: order.public_id,
          refundId: refund.refund_id,
          amountCents: refund.amount_cents,
          currency: refund.currency,
        }),
      );
      await this.refresh();
    } catch (error) {
      this.#close();
      if (error instanceof ConsoleApiError && !error.unauthorized) {
        this.notice = { kind: 'bad', text: this.t.refundRefused(error.detail ?? error.message) };
        await this.refresh();
      } else this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  #why(order: ConsoleOrder): string {
    return order.status === 'TRANSFER_COMPLETED' || order.status === 'SETTLED'
      ? this.t.noRefundAfterTransfer
      : this.t.noRefundFinal;
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    const badDomain = this.problems.has('domain');
    const badWindow = this.problems.has('window');
    return html`
      <form class="filters" part="filters" @submit=${this.#filter}>
        <label
          >${t.status}
          <select name="status">
            <option value="" ?selected=${!this.status}>${t.any}</option>
            ${ORDER_FILTER_STATUSES.map(
              (s) => html`<option value=${s} ?selected=${this.status === s}>${codeLabel(t.orderStatuses, s)}</option>`,
            )}
          </select>
        </label>
        <label
          ><span id="domain-label">${t.domain}</span>
          <small id="domain-hint" class="hint">${t.domainFilterHint}</small>
          <input
            name="domain"
            .value=${this.domain ?? ''}
            autocomplete="off"
            spellcheck="false"
            aria-labelledby="domain-label"
            aria-describedby=${badDomain ? 'domain-hint domain-error' : 'domain-hint'}
            aria-invalid=${badDomain ? 'true' : 'false'}
        /></label>
        ${windowInputs(t, this.from, this.to, badWindow)}
        <button type="submit">${t.apply}</button>
        ${badDomain ? html`<p id="domain-error" class="field-error" part="field-error">${t.domainFilterInvalid}</p>` : nothing}
        ${windowError(t.windowBackwards, badWindow)}
      </form>
      ${this.renderRefusal()}
      ${
        this.notice
          ? html`<div class="notice ${this.notice.kind}" part="notice" role=${this.notice.kind === 'bad' ? 'alert' : 'status'}>
            <p>${this.notice.text}</p>
          </div>`
          : nothing
      }
      ${this.refusal ? nothing : this.#table()}
      ${this.#dialog()}
    `;
  }

  /** The orders table and its Load more button. */
  #table(): TemplateResult {
    const t = this.t;
    return html`${listTable({
      part: 'table',
      caption: t.tabOrders,
      columns: [
        { label: t.order },
        { label: t.domain },
        { label: t.status },
        { label: t.amount, num: true },
        { label: t.created },
        { label: t.refund },
      ],
      items: this.orders,
      row: (order) => this.#row(order),
      empty: t.empty,
    })}
      ${moreButton(this.nextCursor, t.loadMore, () => this.#more(), 'more')}`;
  }

  #row(order: ConsoleOrder): TemplateResult {
    const t = this.t;
    const detail = this.open.get(order.public_id);
    const refundable = order.refundable ?? REFUNDABLE_STATUSES.includes(order.status);
    return html`<tr data-order=${order.public_id} data-status=${order.status}>
        <td>
          <button
            class="link"
            aria-expanded=${detail ? 'true' : 'false'}
            aria-controls=${`tl-${order.public_id}`}
            @click=${() => this.#toggle(order)}
            aria-label=${t.details(order.public_id)}
          >
            <bdi>${order.public_id}</bdi>
          </button>
        </td>
        <td><bdi>${order.domain}</bdi></td>
        <td><span class="badge" part="status">${codeText(t.orderStatuses, order.status)}</span></td>
        <td class="num"><bdi>${this.money(order.sale_price_cents, order.currency)}</bdi></td>
        <td>${this.dateTime(order.created_at)}</td>
        <td>
          ${
            refundable
              ? html`<button
                class="danger"
                part="refund"
                aria-label=${t.refundOrder(order.domain)}
                @click=${() => this.#ask(order)}
              >
                ${t.refund}
              </button>`
              : html`<span class="muted" part="no-refund">${this.#why(order)}</span>`
          }
        </td>
      </tr>
      ${
        detail
          ? html`<tr id=${`tl-${order.public_id}`}>
            <td colspan="6">
              <strong>${t.timeline}</strong>
              <ol class="timeline" part="timeline">
                ${(detail.timeline ?? []).map(
                  (step) =>
                    html`<li>
                      <span class="badge">${codeText(t.orderStatuses, step.status)}</span> ${this.dateTime(step.at)}${
                        step.note ? html` — <bdi>${step.note}</bdi>` : nothing
                      }
                    </li>`,
                )}
              </ol>
            </td>
          </tr>`
          : nothing
      }`;
  }

  #dialog(): TemplateResult | typeof nothing {
    const order = this.confirming;
    if (!order) return nothing;
    const t = this.t;
    return html`<dialog part="confirm" aria-labelledby="confirm-title" @close=${() => (this.confirming = undefined)}>
      <form @submit=${this.#refund}>
        <h3 id="confirm-title">${t.refundConfirmTitle(order.domain)}</h3>
        <p>${t.refundConfirmBody(this.money(order.sale_price_cents, order.currency), order.domain)}</p>
        <p><label>${t.refundReason}<br /><input name="reason" maxlength="500" /></label></p>
        <div class="toolbar">
          <button type="submit" class="danger primary" ?disabled=${this.busy}>${t.confirmRefund}</button>
          <button type="button" @click=${() => this.#close()}>${t.cancel}</button>
        </div>
      </form>
    </dialog>`;
  }
}
