/**
 * Labels of the marketplace's codes: a status such as `TRANSFER_COMPLETED` is shown in the reader's language, with
 * the code kept for the reader who needs it (`<data value>` and its `title`). A code the console does not know (a
 * newer marketplace) is shown as it came: never blank, never an error.
 */
import { html, type TemplateResult } from 'lit';

/** Labels by code (`{ TRANSFER_COMPLETED: 'Transfer completed' }`); a code missing from it is shown as is. */
export type CodeLabels = Readonly<Record<string, string>>;

/**
 * The label of `code` in `labels`, or `code` itself when `labels` has none for it (an own, non-empty entry only:
 * `constructor` or `toString` are codes like any other). A code in another case than the table's is matched too
 * (`PAID` or `paid`): where the spec shows no codes, a marketplace may write either. Never throws.
 * @returns the text to show.
 */
export function codeLabel(labels: CodeLabels | undefined, code: string): string {
  const own = (key: string): string | undefined => {
    const label = labels && Object.hasOwn(labels, key) ? labels[key] : undefined;
    return typeof label === 'string' && label !== '' ? label : undefined;
  };
  return own(code) ?? own(code.toLowerCase()) ?? own(code.toUpperCase()) ?? code;
}

/**
 * `code` as a reader sees it: `<data value="CODE" title="CODE">Label</data>`, the label from {@link codeLabel}. An
 * unknown code has no title (the text is the code already). Never throws.
 * @returns the template to put in a cell, a badge or a list item.
 */
export function codeText(labels: CodeLabels | undefined, code: string): TemplateResult {
  const label = codeLabel(labels, code);
  return label === code
    ? html`<data value=${code}>${code}</data>`
    : html`<data value=${code} title=${code}>${label}</data>`;
}
