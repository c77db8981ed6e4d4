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
    .sheet,
    .field {
      position: relative;
    }
    /* The results (and what stands in for them) open over the page, under the box: nothing on the page moves. */
    .pop {
      position: absolute;
      z-index: 10;
      inset-inline: 0;
      top: calc(100% + var(--_gap));
      display: grid;
      gap: var(--_gap);
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
  `,
];
