/**
 * `<dk-console-chart>`: a time series drawn with uPlot, loaded on first use (a dynamic import, so a view without a
 * chart never downloads it), with the same figures as a data table in a disclosure for keyboard and screen-reader
 * users. The canvas is `role="img"` with a one-sentence summary; the table is the accessible alternative.
 *
 * @csspart chart - the figure.
 * @csspart plot - the box the canvas is drawn in.
 * @csspart table - the data table.
 */
import { css, html, LitElement, type PropertyDeclarations, type TemplateResult } from 'lit';
import type UPlot from 'uplot';
import { en, type DkConsoleStrings } from './strings.ts';
import { consoleStyles } from './styles.ts';

/** One point of a series: `x` a `YYYY-MM-DD` day (UTC), `y` its value. */
export interface ChartPoint {
  readonly x: string;
  readonly y: number;
}

let uplot: Promise<typeof UPlot> | undefined;
/** Imports uPlot once per page (its module's default export, whichever way the bundler wraps it). */
function loadUPlot(): Promise<typeof UPlot> {
  uplot ??= import('uplot').then(
    (m) => (m as unknown as { default?: typeof UPlot }).default ?? (m as unknown as typeof UPlot),
  );
  return uplot;
}

/** Steps between the time axis's ticks (seconds): a day, two, a week, two, about a month, a quarter, half a year, a year. */
const DAY_STEPS = [1, 2, 7, 14, 30, 91, 182, 365].map((days) => days * 86_400);

/**
 * The width of an axis (CSS px) that fits its longest label: amounts such as `80 000,00 $US` are wider than a fixed
 * size allows. uPlot calls it per layout cycle with the labels it will draw.
 */
function widestLabel(u: UPlot, values: string[] | null, axisIndex: number, cycle: number): number {
  const axis = u.axes[axisIndex] as UPlot.Axis & { _size?: number };
  if (cycle > 1 && axis._size !== undefined) return axis._size;
  const longest = (values ?? []).reduce((widest, v) => (v.length > widest.length ? v : widest), '');
  u.ctx.font = axis.font?.[0] ?? u.ctx.font;
  const gap = (axis.gap ?? 5) + 8;
  return Math.ceil(u.ctx.measureText(longest).width / (globalThis.devicePixelRatio || 1) + gap);
}

/** A chart of one daily series with its data-table alternative. */
export class DkConsoleChart extends LitElement {
  static override styles = [
    consoleStyles,
    css`
      :host {
        background: transparent;
      }
      figure {
        margin: 0;
        border: 1px solid var(--_line);
        border-radius: var(--_r);
        padding: var(--_gap);
      }
      figcaption {
        font-weight: 600;
        margin-block-end: var(--_gap);
      }
      .plot {
        min-height: 200px;
        direction: ltr;
      }
      .plot .uplot {
        width: 100%;
      }
      .plot .u-wrap {
        position: relative;
      }
      .plot .u-over,
      .plot .u-under,
      .plot .u-axis {
        position: absolute;
      }
      .plot .u-under {
        overflow: hidden;
      }
      .plot canvas {
        display: block;
        position: relative;
        width: 100%;
        height: 100%;
      }
      summary {
        cursor: pointer;
        margin-block-start: var(--_gap);
        min-height: 2.5em;
        display: flex;
        align-items: center;
      }
    `,
  ];
  static override properties: PropertyDeclarations = {
    label: {},
    valueLabel: { attribute: 'value-label' },
    kind: { reflect: true },
    points: { attribute: false },
    format: { attribute: false },
    strings: { attribute: false },
    theme: { reflect: true },
    locale: {},
    status: { state: true },
  };

  /** The chart's title (also the table's caption). */
  declare label: string;
  /** Header of the value column. */
  declare valueLabel: string;
  /** `line` (default) or `bars`. */
  declare kind: 'line' | 'bars';
  /** The series, oldest first. */
  declare points: readonly ChartPoint[];
  /** Formats a value for the table and the summary (default: the locale's number). */
  declare format: ((value: number) => string) | undefined;
  declare strings: Partial<DkConsoleStrings>;
  declare theme: 'light' | 'dark' | undefined;
  declare locale: string;
  declare protected status: 'loading' | 'drawn' | 'failed';

  #plot: UPlot | undefined;
  #resize: ResizeObserver | undefined;

  constructor() {
    super();
    this.label = '';
    this.valueLabel = '';
    this.kind = 'line';
    this.points = [];
    this.strings = {};
    this.locale = '';
    this.status = 'loading';
  }

  #fmt(value: number): string {
    return this.format ? this.format(value) : new Intl.NumberFormat(this.locale || undefined).format(value);
  }

  /** A tick of the time axis (Unix seconds, midnight UTC) as a short date: `27 nov.`, `Nov 27`. */
  #tick(seconds: number): string {
    const date = new Date(seconds * 1000);
    try {
      return new Intl.DateTimeFormat(this.locale || undefined, {
        day: 'numeric',
        month: 'short',
        timeZone: 'UTC',
      }).format(date);
    } catch {
      return date.toISOString().slice(0, 10);
    }
  }

  #day(x: string): string {
    try {
      return new Intl.DateTimeFormat(this.locale || undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${x}T00:00:00Z`),
      );
    } catch {
      return x;
    }
  }

  protected override render(): TemplateResult {
    const t = { ...en, ...this.strings };
    const total = this.points.reduce((sum, p) => sum + p.y, 0);
    const first = this.points[0];
    const last = this.points.at(-1);
    const summary =
      first && last ? `${this.label}: ${this.#day(first.x)} – ${this.#day(last.x)}, ${this.#fmt(total)}` : this.label;
    return html`<figure part="chart">
      <figcaption>${this.label}</figcaption>
      <div class="plot" part="plot" role="img" aria-label=${summary}>
        ${this.status === 'loading' ? html`<span class="muted">${t.chartLoading}</span>` : ''}
        ${this.status === 'failed' ? html`<span class="muted">${t.chartUnavailable}</span>` : ''}
      </div>
      <details>
        <summary>${t.showTable}</summary>
        <div class="scroll" tabindex="0">
          <table part="table">
            <caption>
              ${this.label}
            </caption>
            <thead>
              <tr>
                <th scope="col">${t.date}</th>
                <th scope="col" class="num">${this.valueLabel}</th>
              </tr>
            </thead>
            <tbody>
              ${this.points.map(
                (p) => html`<tr>
                  <th scope="row">${this.#day(p.x)}</th>
                  <td class="num">${this.#fmt(p.y)}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        </div>
      </details>
    </figure>`;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    if (['points', 'kind', 'theme', 'format', 'locale'].some((name) => changed.has(name))) void this.#draw();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize?.disconnect();
    this.#plot?.destroy();
    this.#plot = undefined;
  }

  async #draw(): Promise<void> {
    const box = this.renderRoot.querySelector<HTMLElement>('.plot');
    if (!box) return;
    let UPlotClass: typeof UPlot;
    try {
      UPlotClass = await loadUPlot();
    } catch {
      if (this.status !== 'failed') this.status = 'failed';
      return;
    }
    const style = getComputedStyle(this);
    const fg = style.getPropertyValue('--_fg').trim() || '#1b1f24';
    const accent = style.getPropertyValue('--_accent').trim() || '#1d4ed8';
    const xs = this.points.map((p) => Date.parse(`${p.x}T00:00:00Z`) / 1000);
    const ys = this.points.map((p) => p.y);
    const width = Math.max(240, box.clientWidth || 600);
    this.#plot?.destroy();
    const axis = {
      stroke: fg,
      grid: { stroke: `color-mix(in srgb, ${fg} 15%, transparent)`, width: 1 },
      ticks: { show: false },
    };
    this.#plot = new UPlotClass(
      {
        width,
        height: 200,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          // One day alone (a partner's first day of sales) is drawn in the middle of a three-day span.
          // (uPlot alone spans 1000 days from a single time in seconds.)
          x: {
            time: true,
            range: (_u: UPlot, min: number, max: number): [number, number] =>
              xs.length === 1 ? [xs[0]! - 86_400, xs[0]! + 86_400] : [min, max],
          },
          // From 0, with room above the highest point so its marker is not cut.
          y: { range: (_u: UPlot, _min: number, max: number): [number, number] => [0, Math.max(1, max * 1.15)] },
        },
        axes: [
          // Whole days only, written as the locale writes a short date (uPlot's own labels are English hours).
          { ...axis, incrs: DAY_STEPS, values: (_u: UPlot, splits: number[]) => splits.map((x) => this.#tick(x)) },
          { ...axis, size: widestLabel, values: (_u: UPlot, values: number[]) => values.map((v) => this.#fmt(v)) },
        ],
        series: [
          {},
          {
            label: this.valueLabel,
            stroke: accent,
            width: 2,
            fill: `color-mix(in srgb, ${accent} 25%, transparent)`,
            ...(this.kind === 'bars' ? { paths: UPlotClass.paths.bars?.({ size: [0.6, 40] }) } : {}),
          },
        ],
      },
      [xs, ys],
      box,
    );
    if (this.status !== 'drawn') this.status = 'drawn';
    if (!this.#resize && typeof ResizeObserver !== 'undefined') {
      this.#resize = new ResizeObserver(() => {
        const w = Math.max(240, box.clientWidth);
        if (this.#plot && Math.abs(this.#plot.width - w) > 2) this.#plot.setSize({ width: w, height: 200 });
      });
      this.#resize.observe(box);
    }
  }
}
