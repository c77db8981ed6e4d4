/**
 * The list table every console view draws: a scrolling box (keyboard-reachable), a caption for screen readers, a head
 * of column labels, a row per item, else the empty line; the **Load more** button of a paged list; and the reading of
 * a list's filter form. The phone's stacked rows take each cell's name from these labels (`labelColumns` in base.ts).
 * Not an element; used by the views.
 */
import { html, nothing, type TemplateResult } from 'lit';

/** A column of a list table: its header label, and whether it holds figures (aligned to the end, `class="num"`). */
export interface ListColumn {
  readonly label: string;
  readonly num?: boolean;
}

/** What {@link listTable} draws. */
export interface ListTable<T> {
  /** The table's `part` name (`table`, `settlements`…). */
  readonly part: string;
  /** The caption, read by screen readers only. */
  readonly caption: string;
  readonly columns: readonly ListColumn[];
  /** The items; none (or unset) shows {@link empty}. */
  readonly items: readonly T[] | undefined;
  /** An item's `<tr>` (or rows), its cells in the order of {@link columns}. */
  readonly row: (item: T) => unknown;
  /** The line shown when there is no item. */
  readonly empty: string;
}

/** The table of `list`, else its empty line. */
export function listTable<T>(list: ListTable<T>): TemplateResult {
  return list.items?.length
    ? html`<div class="scroll" tabindex="0">
        <table part=${list.part}>
          <caption class="sr-only">
            ${list.caption}
          </caption>
          <thead>
            <tr>
              ${list.columns.map((c) => html`<th scope="col" class=${c.num ? 'num' : nothing}>${c.label}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${list.items.map(list.row)}
          </tbody>
        </table>
      </div>`
    : html`<p class="muted">${list.empty}</p>`;
}

/** The **Load more** button (`label`) while `cursor` says a next page exists, calling `more`; else nothing. */
export function moreButton(
  cursor: string | null | undefined,
  label: string,
  more: () => unknown,
  part?: string,
): TemplateResult | typeof nothing {
  return cursor ? html`<button part=${part ?? nothing} @click=${more}>${label}</button>` : nothing;
}

/**
 * Reads a list's filter form on submit (its default prevented): sets `view`'s date window from the form's `from` and
 * `to` fields and returns a reader of its other fields, each trimmed, `undefined` when blank or absent.
 */
export function readFilters(
  event: SubmitEvent,
  view: { from: string | undefined; to: string | undefined },
): (name: string) => string | undefined {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
  view.from = text('from');
  view.to = text('to');
  return text;
}
