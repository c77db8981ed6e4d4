import { css } from 'lit';
import { shared } from '../styles.ts';

/** Styles of `<dk-domain-search>`: the shared tokens and pieces, plus the search box and the results grid. */
export const styles = [
  shared,
  css`
    .base {
      display: grid;
      gap: var(--_gap);
    }
    label,
    .name,
    .price {
      font-weight: 600;
    }
    .field {
      position: relative;
    }
    input,
    .grid {
      box-sizing: border-box;
      width: 100%;
      font: inherit;
      color: inherit;
      background: var(--_bg);
      border: 1px solid var(--_line);
      border-radius: var(--_r);
    }
    input {
      padding: 0.7em 0.9em;
      padding-inline-end: 2.6em;
    }
    .field > .spin {
      position: absolute;
      inset-inline-end: 0.9em;
      top: calc(50% - 0.5em);
      color: var(--_accent);
    }
    .grid {
      overflow: hidden;
    }
    /* A refinement is loading: the previous results stay, dimmed (the spinner is in the search box). */
    [aria-busy='true'] {
      opacity: 0.6;
    }
    [role='row'] {
      cursor: pointer;
      border-inline-start: 4px solid transparent;
    }
    [role='row'] + [role='row'] {
      border-top: 1px solid var(--_line);
    }
    [aria-selected='true'] {
      background: var(--_active);
      border-inline-start-color: var(--_focus);
    }
    .cell {
      padding: 0.7em 0.9em;
    }
    .name {
      flex: 1 1 12em;
      overflow-wrap: anywhere;
    }
    mark {
      color: inherit;
      background: var(--_mark);
      border-radius: 0.2em;
    }
    .badge {
      font-size: 0.85em;
    }
    .ok {
      color: var(--_ok);
    }
    .buy-error {
      flex-basis: 100%;
    }
    ul {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    li {
      padding-block: 0.3em;
    }
  `,
];
