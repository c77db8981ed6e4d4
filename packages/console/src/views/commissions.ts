/**
 * `<dk-console-commissions>`: the referral commission ledger (Partner API spec 4.1 `GET /me/commissions`): its totals
 * (accrued, pending, paid out, reversed), the running balance, and each line with the balance after it.
 *
 * @summary Commission ledger with running balance.
 * @event dk-console-error - a call failed.
 * Hosted-checkout (non-MoR) and brokerage commissions are not in it: they are paid at settlement (Settlements,
 * Payouts).
 *
 * @csspart view - the section.  @csspart ledger-note - which commissions the ledger holds.
 * @csspart totals - the totals cards.  @csspart balance - the balance figure.
 * @csspart table - the ledger table.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { DkConsoleView } from '../base.ts';
import { codeText } from '../labels.ts';
import { listTable, moreButton } from '../table.ts';

/** A ledger line (protocol `commissionEntrySchema`): `amount_cents` signed, `balance_cents` after it. */
export interface ConsoleCommissionEntry {
  readonly entry_id: string;
  readonly type: string;
  readonly status?: string | null;
  readonly sale_id?: string | null;
  readonly amount_cents: number;
  readonly balance_cents: number;
  readonly currency: string;
  readonly created_at: string;
}
/** Ledger totals over the whole ledger (protocol `commissionTotalsSchema`). */
export interface ConsoleCommissionTotals {
  readonly accrued_cents: number;
  readonly pending_cents: number;
  readonly paid_out_cents: number;
  readonly reversed_cents: number;
  readonly balance_cents: number;
  readonly currency?: string;
}
interface LedgerPage {
  commissions: ConsoleCommissionEntry[];
  next_cursor?: string | null;
  totals?: ConsoleCommissionTotals | null;
}

/** The commission ledger view. */
export class DkConsoleCommissions extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    ledger: { state: true },
  };
  declare protected ledger: LedgerPage | undefined;

  protected get heading(): string {
    return this.t.ledger;
  }
  protected hasData(): boolean {
    return this.ledger !== undefined;
  }

  protected async load(): Promise<void> {
    this.ledger = await this.session.get<LedgerPage>('/commissions', { limit: 100 });
  }

  async #more(): Promise<void> {
    const cursor = this.ledger?.next_cursor;
    if (!cursor || !this.ledger) return;
    try {
      const page = await this.session.get<LedgerPage>('/commissions', { cursor, limit: 100 });
      this.ledger = { ...page, commissions: [...this.ledger.commissions, ...page.commissions] };
    } catch (error) {
      this.fail(error);
    }
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    const totals = this.ledger?.totals;
    const currency = totals?.currency ?? this.ledger?.commissions[0]?.currency ?? 'USD';
    const card = (label: string, cents: number, part: string) =>
      html`<div class="card" part=${part}>
        <dt>${label}</dt>
        <dd data-cents=${cents}><bdi>${this.money(cents, currency)}</bdi></dd>
      </div>`;
    return html`
      <p class="hint" part="ledger-note">${t.ledgerNote}</p>
      ${
        totals
          ? html`<dl class="cards" part="totals">
            ${card(t.balance, totals.balance_cents, 'balance')} ${card(t.accrued, totals.accrued_cents, 'accrued')}
            ${card(t.pending, totals.pending_cents, 'pending')} ${card(t.paidOut, totals.paid_out_cents, 'paid-out')}
            ${card(t.reversed, totals.reversed_cents, 'reversed')}
          </dl>`
          : nothing
      }
      ${listTable({
        part: 'table',
        caption: t.ledger,
        columns: [
          { label: t.created },
          { label: t.type },
          { label: t.status },
          { label: t.amount, num: true },
          { label: t.balance, num: true },
        ],
        items: this.ledger?.commissions,
        row: (line) => html`<tr>
          <td>${this.dateTime(line.created_at)}</td>
          <td>${codeText(t.commissionStatuses, line.type)}</td>
          <td>${line.status ? codeText(t.commissionStatuses, line.status) : ''}</td>
          <td class="num">${this.money(line.amount_cents, line.currency)}</td>
          <td class="num">${this.money(line.balance_cents, line.currency)}</td>
        </tr>`,
        empty: t.empty,
      })}
      ${moreButton(this.ledger?.next_cursor, t.loadMore, () => this.#more())}
    `;
  }
}
