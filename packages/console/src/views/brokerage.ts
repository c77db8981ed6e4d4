/**
 * `<dk-console-brokerage>`: the partner's brokerage cases (Partner API spec 4.1 `GET /brokerage`) with status,
 * timeline and outcome (deal price and the partner's cut, or closed without a deal). The list carries no timeline
 * (the spec gives it on `GET /brokerage/{case_id}`): each case's is read when the person opens it.
 *
 * @summary Brokerage cases.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart table - the cases table.  @csspart status - each case's status badge.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { DkConsoleView } from '../base.ts';
import { codeText } from '../labels.ts';
import { listTable, moreButton } from '../table.ts';

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
    open: { state: true },
  };
  declare protected cases: ConsoleBrokerageCase[] | undefined;
  declare protected nextCursor: string | null;
  /** Cases whose timeline is open, by id (with the case as read alone). */
  declare protected open: ReadonlyMap<string, ConsoleBrokerageCase>;

  constructor() {
    super();
    this.nextCursor = null;
    this.open = new Map();
  }

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
    // Timelines left open are read again.
    const open = new Map<string, ConsoleBrokerageCase>();
    for (const id of this.open.keys()) open.set(id, await this.#case(id));
    this.open = open;
  }

  async #case(id: string): Promise<ConsoleBrokerageCase> {
    return (await this.session.get<{ case: ConsoleBrokerageCase }>(`/brokerage/${encodeURIComponent(id)}`)).case;
  }

  async #toggle(c: ConsoleBrokerageCase): Promise<void> {
    const open = new Map(this.open);
    if (open.delete(c.case_id)) {
      this.open = open;
      return;
    }
    try {
      open.set(c.case_id, await this.#case(c.case_id));
      this.open = open;
    } catch (error) {
      this.fail(error);
    }
  }

  #timeline(c: ConsoleBrokerageCase): TemplateResult {
    const t = this.t;
    const detail = this.open.get(c.case_id);
    const steps = c.timeline ?? detail?.timeline;
    const list = html`<ol class="timeline" id=${`tl-${c.case_id}`}>
      ${(steps ?? []).map(
        // The status's label and the marketplace's note keep their own direction in a right-to-left page.
        (step) =>
          html`<li><bdi>${codeText(t.caseStatuses, step.status)}</bdi> · ${this.date(step.at)}${step.note ? html` — <bdi>${step.note}</bdi>` : ''}</li>`,
      )}
    </ol>`;
    if (c.timeline) return list;
    return html`<button
        class="link"
        aria-expanded=${detail ? 'true' : 'false'}
        aria-controls=${`tl-${c.case_id}`}
        aria-label=${t.caseTimeline(c.domain)}
        @click=${() => this.#toggle(c)}
      >
        ${t.timeline}
      </button>
      ${detail ? list : nothing}`;
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
    return html`${listTable({
      part: 'table',
      caption: t.cases,
      columns: [
        { label: t.domain },
        { label: t.tier },
        { label: t.status },
        { label: t.budget, num: true },
        { label: t.outcome },
        { label: t.timeline },
      ],
      items: this.cases,
      row: (c) => html`<tr data-case=${c.case_id}>
                  <td><bdi>${c.domain}</bdi></td>
                  <td>${codeText(t.brokerageTiers, c.tier)}</td>
                  <td><span class="badge" part="status">${codeText(t.caseStatuses, c.status)}</span></td>
                  <td class="num">${this.money(c.budget_cents, c.currency)}</td>
                  <td>
                    ${this.#outcome(c)}${
                      c.progress_url
                        ? html`<br /><a href=${c.progress_url} target="_blank" rel="noopener">${t.progressPage}</a>`
                        : nothing
                    }
                  </td>
                  <td>${this.#timeline(c)}</td>
                </tr>`,
      empty: t.empty,
    })}
    ${moreButton(this.nextCursor, t.loadMore, () => this.#more())}`;
  }
}
