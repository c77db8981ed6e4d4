import { css } from 'lit';

/**
 * The console's design tokens and shared pieces, with the widget's names: each `--dk-*` custom property has a light
 * default; `theme="dark"` (or `prefers-color-scheme: dark` unless `theme="light"`) switches text, surface, accent,
 * success and danger to dark defaults and the host paints its own background. Inside, the elements read `--_*`.
 */
export const consoleStyles = css`
  :host {
    --_fg: var(--dk-color-text, #1b1f24);
    --_bg: var(--dk-color-surface, #fff);
    --_ok: var(--dk-color-success, #15703d);
    --_bad: var(--dk-color-danger, #b42318);
    --_accent: var(--dk-color-accent, #1d4ed8);
    --_focus: var(--dk-color-focus, #3a75f0);
    --_muted: var(--dk-color-muted, color-mix(in srgb, var(--_fg) 72%, var(--_bg)));
    --_line: var(--dk-color-border, color-mix(in srgb, var(--_fg) 25%, var(--_bg)));
    --_soft: color-mix(in srgb, var(--_fg) 5%, var(--_bg));
    --_r: var(--dk-radius, 0.5rem);
    --_gap: var(--dk-spacing, 0.5rem);
    color-scheme: light;
    display: block;
    font-size: var(--dk-font-size, 1rem);
    font-family: var(--dk-font-family, inherit);
    line-height: 1.4;
    color: var(--_fg);
    background: var(--_bg);
    text-align: start;
  }
  :host([theme='dark']) {
    --_fg: var(--dk-color-text, #e6e9ef);
    --_bg: var(--dk-color-surface, #161b22);
    --_ok: var(--dk-color-success, #5fd38d);
    --_bad: var(--dk-color-danger, #ffa198);
    --_accent: var(--dk-color-accent, #8fb3ff);
    color-scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      --_fg: var(--dk-color-text, #e6e9ef);
      --_bg: var(--dk-color-surface, #161b22);
      --_ok: var(--dk-color-success, #5fd38d);
      --_bad: var(--dk-color-danger, #ffa198);
      --_accent: var(--dk-color-accent, #8fb3ff);
      color-scheme: dark;
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  h2,
  h3 {
    margin: 0 0 var(--_gap);
    font-size: 1.15em;
  }
  h3 {
    font-size: 1em;
  }
  section {
    margin-block-end: calc(var(--_gap) * 3);
  }
  button,
  select,
  input {
    font: inherit;
    color: inherit;
    min-height: 2.5em;
    border-radius: var(--_r);
  }
  select,
  input {
    background: var(--_bg);
    border: 1px solid var(--_line);
    padding: 0.25em 0.5em;
    max-width: 100%;
  }
  button {
    cursor: pointer;
    border: 1px solid var(--_accent);
    background: var(--_bg);
    color: var(--_accent);
    padding: 0.25em 0.9em;
  }
  button.primary {
    background: var(--_accent);
    color: var(--_bg);
  }
  button.danger {
    border-color: var(--_bad);
    color: var(--_bad);
  }
  button.danger.primary {
    background: var(--_bad);
    color: var(--_bg);
  }
  button:disabled {
    cursor: default;
    opacity: 0.7;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .toolbar,
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_gap);
    align-items: end;
    margin-block-end: var(--_gap);
  }
  .filters label {
    display: flex;
    flex-direction: column;
    gap: 0.2em;
    font-size: 0.9em;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .filters [aria-invalid='true'] {
    border-color: var(--_bad);
    box-shadow: 0 0 0 1px var(--_bad);
  }
  .field-error {
    flex-basis: 100%;
    margin: 0;
    color: var(--_bad);
    font-size: 0.9em;
  }
  .scroll {
    overflow-x: auto;
    max-width: 100%;
    container-type: inline-size;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    font-size: 0.92em;
  }
  caption {
    text-align: start;
    font-weight: 600;
    padding-block-end: 0.3em;
  }
  th,
  td {
    text-align: start;
    padding: 0.4em 0.5em;
    border-block-end: 1px solid var(--_line);
    vertical-align: top;
  }
  /* A long word in a free-text cell (a label) wraps rather than pushing the columns after it out of the card. */
  td.text {
    overflow-wrap: anywhere;
  }
  th {
    font-weight: 600;
  }
  td.num,
  th.num {
    text-align: end;
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  /* On a phone, a wide table's rows stack: each cell on a line of its own, named by its column (data-label, set by
     the view from the table's head), so nothing hides past the edge. The head stays for screen readers. */
  @container (max-width: 36rem) {
    table[data-stack] thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    table[data-stack],
    table[data-stack] tbody {
      display: block;
    }
    table[data-stack] tbody tr {
      display: block;
      border-block-end: 1px solid var(--_line);
      padding-block: 0.3em;
    }
    table[data-stack] tbody :is(td, th) {
      display: block;
      border: 0;
      padding: 0.15em 0.5em;
      text-align: start;
      white-space: normal;
      overflow-wrap: anywhere;
    }
    /* The name floats in the cell's start padding; flow-root makes the cell as tall as a name that wraps. */
    table[data-stack] tbody :is(td, th)[data-label] {
      display: flow-root;
      padding-inline-start: 9.5em;
    }
    table[data-stack] tbody :is(td, th)[data-label]::before {
      content: attr(data-label);
      float: inline-start;
      inline-size: 8.4em;
      margin-inline-start: -9em;
      color: var(--_muted);
      font-weight: normal;
    }
  }
  .cards {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(12em, 1fr));
    gap: var(--_gap);
    margin-block-end: calc(var(--_gap) * 2);
  }
  .card {
    border: 1px solid var(--_line);
    border-radius: var(--_r);
    padding: calc(var(--_gap) * 1.5);
    background: var(--_soft);
  }
  .card dt {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .card dd {
    margin: 0.2em 0 0;
    font-size: 1.5em;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .card .note {
    font-size: 0.85em;
    color: var(--_muted);
    font-weight: normal;
  }
  .muted {
    color: var(--_muted);
  }
  .notice {
    border: 1px solid var(--_line);
    border-inline-start: 4px solid var(--_accent);
    border-radius: var(--_r);
    padding: var(--_gap);
    margin-block: var(--_gap);
    overflow-wrap: anywhere;
  }
  .notice.bad {
    border-inline-start-color: var(--_bad);
  }
  .notice.ok {
    border-inline-start-color: var(--_ok);
  }
  .notice p {
    margin: 0 0 var(--_gap);
  }
  .notice p:last-child {
    margin: 0;
  }
  /* A status: room above and below for the marks of Arabic letters, and a long label wraps inside its cell. */
  .badge {
    display: inline-block;
    max-inline-size: 100%;
    border: 1px solid var(--_line);
    border-radius: 0.8em;
    padding: 0.15em 0.6em;
    font-size: 0.85em;
    line-height: 1.35;
    overflow-wrap: anywhere;
  }
  ol.timeline {
    margin: 0.3em 0 0;
    padding-inline-start: 1.2em;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  bdi {
    unicode-bidi: isolate;
  }
  button.link {
    border: 0;
    padding: 0;
    min-height: 2.75em;
    background: none;
    color: var(--_accent);
    text-decoration: underline;
  }
  a {
    color: var(--_accent);
  }
  dialog {
    background: var(--_bg);
    color: var(--_fg);
    border: 1px solid var(--_line);
    border-radius: var(--_r);
    max-width: min(34em, 92vw);
    padding: calc(var(--_gap) * 2);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.55);
  }
`;
