/**
 * `<dk-console-settlements>`: settlement statements per period (Partner API spec 4.1 `GET /settlements`: gross sold,
 * commission retained, amount owed to the service), the transaction history with the spec's filters (`from`, `to`,
 * `status`, `payment_model`), its totals and a CSV export, and the payouts made to the partner (`GET /payouts`:
 * non-MoR commissions and brokerage cuts, not the referral payouts of `GET /me/payouts`).
 *
 * @summary Settlements, transactions (filters, CSV) and payouts.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart filters - the transaction filters.  @csspart export - the CSV button.
 * @csspart totals - the transaction totals.  @csspart payouts-note - which commissions the payouts pay (hosted
 *   checkout and brokerage; referral commissions are on the Commissions tab).
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { DkConsoleView } from '../base.ts';
import { codeLabel, codeText, type CodeLabels } from '../labels.ts';
import {
  applyWindow,
  formFields,
  listTable,
  moreButton,
  windowBackwards,
  windowError,
  windowInputs,
} from '../table.ts';

/** A settlement statement (protocol `settlementSchema`). */
export interface ConsoleSettlement {
  readonly settlement_id: string;
  readonly period_start: string;
  readonly period_end: string;
  readonly currency: string;
  readonly gross_sold_cents: number;
  readonly commission_retained_cents: number;
  readonly amount_owed_cents: number;
  readonly order_count: number;
}
/** A transaction (protocol `transactionSchema`). */
export interface ConsoleTransaction {
  readonly transaction_id: string;
  readonly domain: string;
  readonly payment_model: string;
  readonly status: string;
  readonly gmv_cents: number;
  readonly commission_cents: number;
  readonly currency: string;
  readonly created_at: string;
}
/** A payout (protocol `payoutSchema`). */
export interface ConsolePayout {
  readonly payout_id: string;
  readonly amount_cents: number;
  readonly currency: string;
  readonly status: string;
  readonly created_at: string;
  readonly paid_at?: string | null;
}
interface TransactionPage {
  transactions: ConsoleTransaction[];
  next_cursor?: string | null;
  totals?: { gmv_cents: number; commission_cents: number; count: number; currency?: string } | null;
}

/** The payment models of the transactions filter (Partner API spec 1). */
export const PAYMENT_MODEL_FILTERS = ['mor', 'non_mor', 'brokerage'] as const;

/** The settlements view. */
export class DkConsoleSettlements extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    status: {},
    paymentModel: { attribute: 'payment-model' },
    settlements: { state: true },
    transactions: { state: true },
    payouts: { state: true },
    backwards: { state: true },
  };

  /** Transaction status filter; unset for any. */
  declare status: string | undefined;
  /** Transaction payment model filter (`mor`, `non_mor`, `brokerage`); unset for any. */
  declare paymentModel: string | undefined;
  declare protected settlements: ConsoleSettlement[] | undefined;
  declare protected transactions: TransactionPage | undefined;
  declare protected payouts: { payouts: ConsolePayout[]; total_paid_cents?: number | null } | undefined;
  /** Whether the filter form's window was submitted with its start after its end (nothing was asked). */
  declare protected backwards: boolean;

  constructor() {
    super();
    this.backwards = false;
  }

  protected get heading(): string {
    return this.t.tabSettlements;
  }

  protected hasData(): boolean {
    return this.settlements !== undefined;
  }

  protected override hasFilterForm(): boolean {
    return true;
  }

  #txQuery(cursor?: string) {
    return { ...this.window, status: this.status, payment_model: this.paymentModel, cursor, limit: 50 };
  }

  protected async load(): Promise<void> {
    const [settlements, transactions, payouts] = await Promise.all([
      this.session.get<{ settlements: ConsoleSettlement[] }>('/settlements', { limit: 50 }),
      this.session.get<TransactionPage>('/transactions', this.#txQuery()),
      this.session.get<{ payouts: ConsolePayout[]; total_paid_cents?: number | null }>('/payouts', {
        kind: 'partner',
        limit: 50,
      }),
    ]);
    this.settlements = settlements.settlements;
    this.transactions = transactions;
    this.payouts = payouts;
  }

  async #more(): Promise<void> {
    const cursor = this.transactions?.next_cursor;
    if (!cursor || !this.transactions) return;
    try {
      const page = await this.session.get<TransactionPage>('/transactions', this.#txQuery(cursor));
      this.transactions = {
        ...page,
        transactions: [...this.transactions.transactions, ...page.transactions],
      };
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Applies the filter form; a window whose start is after its end is marked on its fields (From takes the focus) and
   * nothing is asked: the filters and the tables stay as they were.
   */
  #filter(event: SubmitEvent): void {
    const text = formFields(event);
    this.backwards = windowBackwards(text('from'), text('to'));
    if (this.backwards) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('[name="from"]')?.focus());
      return;
    }
    applyWindow(text, this);
    this.status = text('status');
    this.paymentModel = text('payment_model');
    void this.reload();
  }

  /** Downloads the transactions of the current filters as CSV (`GET {api}/console/transactions.csv`). */
  async exportCsv(): Promise<void> {
    try {
      const csv = await this.session.text('/transactions.csv', { ...this.#txQuery(), limit: undefined });
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'transactions.csv';
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * The labels of a transaction's status: an order's for a partner-collected sale (`mor`), a case's for brokerage;
   * none for a hosted-checkout sale, whose statuses the spec does not name (they are shown as they came).
   */
  #statuses(model: string): CodeLabels | undefined {
    if (model === 'mor') return this.t.orderStatuses;
    if (model === 'brokerage') return this.t.caseStatuses;
    return undefined;
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    const totals = this.transactions?.totals;
    const currency = totals?.currency ?? this.transactions?.transactions[0]?.currency ?? 'USD';
    return html`
      <h3>${t.settlements}</h3>
      ${listTable({
        part: 'settlements',
        caption: t.settlements,
        columns: [
          { label: t.period },
          { label: t.grossSold, num: true },
          { label: t.commissionRetained, num: true },
          { label: t.amountOwed, num: true },
          { label: t.orderCount, num: true },
        ],
        items: this.settlements,
        row: (s) => html`<tr data-settlement=${s.settlement_id}>
          <th scope="row">${this.date(s.period_start)} – ${this.date(s.period_end)}</th>
          <td class="num">${this.money(s.gross_sold_cents, s.currency)}</td>
          <td class="num">${this.money(s.commission_retained_cents, s.currency)}</td>
          <td class="num">${this.money(s.amount_owed_cents, s.currency)}</td>
          <td class="num">${this.count(s.order_count)}</td>
        </tr>`,
        empty: t.empty,
      })}
      <h3>${t.transactions}</h3>
      <form class="filters" part="filters" @submit=${this.#filter}>
        ${windowInputs(t, this.from, this.to, this.backwards)}
        <label>${t.status} <input name="status" .value=${this.status ?? ''} autocomplete="off" /></label>
        <label
          >${t.paymentModel}
          <select name="payment_model">
            <option value="" ?selected=${!this.paymentModel}>${t.any}</option>
            ${PAYMENT_MODEL_FILTERS.map(
              (m) =>
                html`<option value=${m} ?selected=${this.paymentModel === m}>${codeLabel(t.paymentModels, m)}</option>`,
            )}
          </select>
        </label>
        <button type="submit">${t.apply}</button>
        <button type="button" part="export" @click=${() => this.exportCsv()}>${t.exportCsv}</button>
        ${windowError(t.windowBackwards, this.backwards)}
      </form>
      ${this.renderRefusal()}
      ${
        totals
          ? html`<p part="totals" data-gmv=${totals.gmv_cents} data-commission=${totals.commission_cents}>
            ${t.totals(totals.count, this.money(totals.gmv_cents, currency), this.money(totals.commission_cents, currency))}
          </p>`
          : nothing
      }
      ${listTable({
        part: 'transactions',
        caption: t.transactions,
        columns: [
          { label: t.created },
          { label: t.domain },
          { label: t.paymentModel },
          { label: t.status },
          { label: t.gmv, num: true },
          { label: t.commission, num: true },
        ],
        items: this.transactions?.transactions,
        row: (x) => html`<tr>
          <td>${this.dateTime(x.created_at)}</td>
          <td><bdi>${x.domain}</bdi></td>
          <td>${codeText(t.paymentModels, x.payment_model)}</td>
          <td><span class="badge">${codeText(this.#statuses(x.payment_model), x.status)}</span></td>
          <td class="num">${this.money(x.gmv_cents, x.currency)}</td>
          <td class="num">${this.money(x.commission_cents, x.currency)}</td>
        </tr>`,
        empty: t.empty,
      })}
      ${moreButton(this.transactions?.next_cursor, t.loadMore, () => this.#more())}
      <h3>${t.payouts}</h3>
      <p class="hint" part="payouts-note">${t.payoutsNote}</p>
      ${
        this.payouts?.total_paid_cents != null
          ? html`<p part="total-paid">${t.totalPaid(this.money(this.payouts.total_paid_cents))}</p>`
          : nothing
      }
      ${listTable({
        part: 'payouts',
        caption: t.payouts,
        columns: [{ label: t.created }, { label: t.status }, { label: t.amount, num: true }, { label: t.paid }],
        items: this.payouts?.payouts,
        row: (p) => html`<tr>
          <td>${this.dateTime(p.created_at)}</td>
          <td><span class="badge">${codeText(t.payoutStatuses, p.status)}</span></td>
          <td class="num">${this.money(p.amount_cents, p.currency)}</td>
          <td>${this.dateTime(p.paid_at)}</td>
        </tr>`,
        empty: t.empty,
      })}
    `;
  }
}
