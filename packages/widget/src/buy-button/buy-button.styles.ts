import { css } from 'lit';
import { shared } from '../styles.ts';

/** Styles of `<dk-buy-button>`: the shared tokens and pieces, laid out as an inline block. */
export const styles = [
  shared,
  css`
    :host {
      display: inline-grid;
      gap: var(--_gap);
      justify-items: start;
    }
  `,
];
