import { css } from 'lit';
import { shared } from '../styles.ts';

/** Styles of `<dk-broker-button>`: the shared tokens and pieces, plus the name field, the form and the link. */
export const styles = [
  shared,
  css`
    :host {
      max-inline-size: 36rem;
    }
    .stack {
      display: grid;
      gap: var(--_gap);
    }
    form {
      display: grid;
      gap: var(--_gap);
    }
    label {
      font-weight: 600;
    }
    input[type='text'],
    input[type='email'] {
      box-sizing: border-box;
      inline-size: 100%;
      min-block-size: 2.75em;
      padding: 0.5em 0.75em;
      font: inherit;
      color: inherit;
      background: var(--_bg);
      border: 1px solid var(--_line);
      border-radius: var(--_r);
    }
    input[aria-invalid='true'] {
      border-color: var(--_bad);
    }
    .field {
      display: grid;
      gap: 0.25em;
    }
    .consent {
      display: flex;
      align-items: start;
      gap: 0.5em;
      font-weight: normal;
    }
    .consent input {
      inline-size: 1.25em;
      block-size: 1.25em;
      margin: 0;
      flex: none;
      accent-color: var(--_accent);
    }
    button {
      min-block-size: 2.75em;
    }
    h2 {
      margin: 0;
      font-size: 1.125em;
    }
    a {
      color: var(--dk-color-link, var(--_fg));
      font-weight: 600;
      text-decoration: underline;
      min-block-size: 2.75em;
      display: inline-flex;
      align-items: center;
    }
    .err {
      color: var(--_bad);
    }
  `,
];
