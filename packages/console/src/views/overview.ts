/**
 * `<dk-console-overview>`: the business at a glance for the date window: GMV, commission earned, what is owed to the
 * marketplace this settlement period, sales over time as a chart (with its data table), and the referral funnel
 * (clicks → sales, Partner API spec 4.1 `GET /analytics`).
 *
 * @summary GMV, commission, owed this period, sales chart and funnel.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart figures - the figure cards.  @csspart funnel - the funnel.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { DkConsoleView } from '../base.ts';
import type { ChartPoint } from '../chart.ts';
import { formatRate } from '../format.ts';

/** What the overview shows (the BFF's `GET {api}/console/overview`, protocol `consoleOverviewSchema`). */
export interface ConsoleOverview {
  readonly from: string | null;
  readonly to: string | null;
  readonly currency: string;
  readonly gmv_cents: number;
  readonly commission_cents: number;
  readonly sales_count: number;
  /** Owed to the marketplace for the settlement periods overlapping the window. */
  readonly owed_cents: number;
  readonly sales_over_time: ReadonlyArray<{
    readonly date: string;
    readonly count: number;
    readonly gmv_cents: number;
    readonly commission_cents: number;
  }>;
  readonly funnel: { readonly clicks: number; readonly sales: number; readonly conversion_rate: number };
}

/** The overview view. */
export class DkConsoleOverview extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    overview: { state: true },
  };
  declare protected overview: ConsoleOverview | undefined;

  protected get heading(): string {
    return this.t.tabOverview;
  }
  protected hasData(): boolean {
    return this.overview !== undefined;
  }

  protected async load(): Promise<void> {
    this.overview = await this.session.get<ConsoleOverview>('/overview', this.window);
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    const o = this.overview;
    if (!o) return html``;
    const points: ChartPoint[] = o.sales_over_time.map((d) => ({ x: d.date.slice(0, 10), y: d.gmv_cents }));
    const widest = Math.max(1, o.funnel.clicks, o.funnel.sales);
    const bar = (label: string, value: number, part: string) =>
      html`<div class="step" part=${part}>
        <span>${label}</span>
        <span class="bar" style=${`inline-size:${Math.max(2, (value / widest) * 100)}%`}></span>
        <strong data-value=${value}>${this.count(value)}</strong>
      </div>`;
    return html`
      <style>
        .step {
          display: grid;
          grid-template-columns: 6em 1fr 5em;
          align-items: center;
          gap: var(--_gap);
          margin-block: 0.3em;
        }
        .bar {
          display: block;
          block-size: 1.2em;
          background: var(--_accent);
          border-radius: 0.2em;
        }
        .step strong {
          text-align: end;
        }
      </style>
      <dl class="cards" part="figures">
        <div class="card" part="gmv">
          <dt>${t.gmv}</dt>
          <dd data-cents=${o.gmv_cents}><bdi>${this.money(o.gmv_cents, o.currency)}</bdi></dd>
        </div>
        <div class="card" part="commission">
          <dt>${t.commissionEarned}</dt>
          <dd data-cents=${o.commission_cents}><bdi>${this.money(o.commission_cents, o.currency)}</bdi></dd>
        </div>
        <div class="card" part="owed">
          <dt>${t.owedThisPeriod}</dt>
          <dd data-cents=${o.owed_cents}>
            <bdi>${this.money(o.owed_cents, o.currency)}</bdi>
            ${
              o.from || o.to
                ? html`<div class="note">${t.owedPeriod(this.date(o.from), this.date(o.to))}</div>`
                : nothing
            }
          </dd>
        </div>
      </dl>
      <section aria-labelledby="funnel-h" part="funnel">
        <h3 id="funnel-h">${t.funnel}</h3>
        ${bar(t.clicks, o.funnel.clicks, 'funnel-clicks')} ${bar(t.sales, o.funnel.sales, 'funnel-sales')}
        <p class="muted">${t.conversion(formatRate(o.funnel.conversion_rate, this.numberLocale))}</p>
      </section>
      ${
        points.length
          ? html`<dk-console-chart
            .label=${t.salesOverTime}
            .valueLabel=${t.gmv}
            .points=${points}
            .format=${(v: number) => this.money(v, o.currency)}
            .strings=${this.strings}
            .locale=${this.numberLocale}
            theme=${this.theme ?? nothing}
          ></dk-console-chart>`
          : nothing
      }
    `;
  }
}
