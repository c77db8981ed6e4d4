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
 * Reads a filter form on submit (its default prevented): a reader of its fields, each trimmed, `undefined` when blank
 * or absent.
 */
export function formFields(event: SubmitEvent): (name: string) => string | undefined {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  return (name: string) => String(form.get(name) ?? '').trim() || undefined;
}

/** Sets `view`'s date window from the `from` and `to` fields that `text` reads (see {@link formFields}). */
export function applyWindow(
  text: (name: string) => string | undefined,
  view: { from: string | undefined; to: string | undefined },
): void {
  view.from = text('from');
  view.to = text('to');
}

/** A domain name as the BFF's console filters accept it (protocol `domainNameSchema`, ASCII, lower case). */
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * `text` as a domain filter: trimmed and lower-cased, `undefined` when blank, `null` when it is not a full domain name
 * the BFF would accept (the rule of protocol's `domainNameSchema`: letters, digits and inner hyphens in labels of at
 * most 63 characters, a dot before a last label that starts with a letter, 253 characters at most). The marketplace
 * filters orders by a whole name only (Partner API spec 4.1 `GET /orders`), so `forest` is not a filter.
 */
export function domainFilter(text: string | undefined): string | null | undefined {
  const name = text?.trim().toLowerCase();
  if (!name) return undefined;
  return DOMAIN_NAME.test(name) ? name : null;
}

/**
 * Whether the date window `from`–`to` (ISO 8601 dates or timestamps, either unset) is backwards: `from` after `to`,
 * a bare `to` date counting as its whole day, as the views' window does.
 */
export function windowBackwards(from: string | undefined, to: string | undefined): boolean {
  if (!from || !to) return false;
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const start = Date.parse(day.test(from) ? `${from}T00:00:00Z` : from);
  const end = Date.parse(day.test(to) ? `${to}T23:59:59Z` : to);
  return !Number.isNaN(start) && !Number.isNaN(end) && start > end;
}

/**
 * The **From** and **To** date fields of a filter form (`name="from"`, `name="to"`, values `from` and `to`), both
 * marked invalid and described by {@link windowError} when `backwards` (see {@link windowBackwards}).
 */
export function windowInputs(
  labels: { readonly from: string; readonly to: string },
  from: string | undefined,
  to: string | undefined,
  backwards: boolean,
): TemplateResult {
  const field = (label: string, name: string, value: string | undefined) =>
    html`<label
      >${label}
      <input
        type="date"
        name=${name}
        .value=${value ?? ''}
        aria-describedby=${backwards ? 'window-error' : nothing}
        aria-invalid=${backwards ? 'true' : 'false'}
    /></label>`;
  return html`${field(labels.from, 'from', from)}${field(labels.to, 'to', to)}`;
}

/** The error that {@link windowInputs} point to when `backwards` (`message`: what to fix), else nothing. */
export function windowError(message: string, backwards: boolean): TemplateResult | typeof nothing {
  return backwards ? html`<p id="window-error" class="field-error" part="field-error">${message}</p>` : nothing;
}
