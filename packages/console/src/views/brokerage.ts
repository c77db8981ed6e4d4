/**
 * `<dk-console-brokerage>`: the partner's brokerage cases (Partner API spec 4.1 `GET /brokerage`) with status,
 * timeline and outcome (deal price and the partner's cut, or closed without a deal).
 *
 * @summary Brokerage cases.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart table - the cases table.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { DkConsoleView } from '../base.ts';

/** A brokerage case (protocol `brokerageCaseSchema`). */
export interface ConsoleBrokerageCase {
  readonly case_id: string;
  readonly domain: string;
  readonly tier: string;
  readonly status: string;
  readonly budget_cents: number;
  readonly currency: string;
  readonly progress_url?: string;
  readonly created_at: string;
  readonly deal_price_cents?: number | null;
  readonly commission_cents?: number | null;
  readonly closed_at?: string | null;
  readonly timeline?: ReadonlyArray<{ status: string; at: string; note?: string | null }>;
}

/** The brokerage view. */
export class DkConsoleBrokerage extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    cases: { state: true },
    nextCursor: { state: true },
  };
  declare protected cases: ConsoleBrokerageCase[] | undefined;
  declare protected nextCursor: string | null;

  protected get heading(): string {
    return this.t.cases;
  }
  protected hasData(): boolean {
    return this.cases !== undefined;
  }

  protected async load(): Promise<void> {
    const page = await this.session.get<{ cases: ConsoleBrokerageCase[]; next_cursor?: string | null }>('/brokerage', {
      limit: 50,
    });
    this.cases = page.cases;
    this.nextCursor = page.next_cursor ?? null;
  }

  async #more(): Promise<void> {
    if (!this.nextCursor) return;
    try {
      const page = await this.session.get<{ cases: ConsoleBrokerageCase[]; next_cursor?: string | null }>(
        '/brokerage',
        { cursor: this.nextCursor, limit: 50 },
      );
      this.cases = [...(this.cases ?? []), ...page.cases];
      this.nextCursor = page.next_cursor ?? null;
    } catch (error) {
      this.fail(error);
    }
  }

  #outcome(c: ConsoleBrokerageCase): string {
    const t = this.t;
    if (c.status === 'CLOSED_DEAL' && c.deal_price_cents != null)
      return t.dealAt(this.money(c.deal_price_cents, c.currency), this.money(c.commission_cents ?? 0, c.currency));
    if (c.status === 'CLOSED_NO_DEAL') return t.noDeal;
    return t.stillOpen;
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    return html`${
      this.cases?.length
        ? html`<div class="scroll" tabindex="0">
          <table part="table">
            <caption class="sr-only">
              ${t.cases}
            </caption>
            <thead>
              <tr>
                <th scope="col">${t.domain}</th>
                <th scope="col">${t.tier}</th>
                <th scope="col">${t.status}</th>
                <th scope="col" class="num">${t.budget}</th>
                <th scope="col">${t.outcome}</th>
                <th scope="col">${t.timeline}</th>
              </tr>
            </thead>
            <tbody>
              ${this.cases.map(
                (c) => html`<tr data-case=${c.case_id}>
                  <td><bdi>${c.domain}</bdi></td>
                  <td>${c.tier}</td>
                  <td><span class="badge">${c.status}</span></td>
                  <td class="num">${this.money(c.budget_cents, c.currency)}</td>
                  <td>
                    ${this.#outcome(c)}${
                      c.progress_url
                        ? html`<br /><a href=${c.progress_url} target="_blank" rel="noopener">${t.progressPage}</a>`
                        : nothing
                    }
                  </td>
                  <td>
                    <ol class="timeline">
                      ${(c.timeline ?? []).map(
                        (step) =>
                          html`<li>${step.status} · ${this.date(step.at)}${step.note ? ` — ${step.note}` : ''}</li>`,
                      )}
                    </ol>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>`
        : html`<p class="muted">${t.empty}</p>`
    }
    ${this.nextCursor ? html`<button @click=${() => this.#more()}>${t.loadMore}</button>` : nothing}`;
  }
}
