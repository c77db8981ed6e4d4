import { css } from 'lit';

/**
 * The design tokens and the pieces both elements share (buttons, spinner, boxes, the order panel).
 *
 * Each `--dk-*` custom property a partner may set has a light default; `theme="dark"` (or
 * `prefers-color-scheme: dark` unless `theme="light"`) switches the defaults of text, surface, success and
 * danger to dark ones, and the host then paints its own background (`--dk-color-background`, default
 * `#0d1117`, inside `--dk-padding`, default `0.75em`) so light text never lands on a light page. Muted text, borders, the active row, the match highlight and the error background are
 * mixed from those, so they follow both themes. Inside, the elements read only the short `--_*` names.
 */
export const shared = css`
  :host {
    --_fg: var(--dk-color-text, #1b1f24);
    --_bg: var(--dk-color-surface, #fff);
    --_ok: var(--dk-color-success, #15703d);
    --_bad: var(--dk-color-danger, #b42318);
    --_accent: var(--dk-color-accent, #1d4ed8);
    --_focus: var(--dk-color-focus, #3a75f0);
    --_muted: var(--dk-color-muted, color-mix(in srgb, var(--_fg) 72%, var(--_bg)));
    --_line: var(--dk-color-border, color-mix(in srgb, var(--_fg) 25%, var(--_bg)));
    --_active: var(--dk-color-active, color-mix(in srgb, var(--_focus) 12%, var(--_bg)));
    --_mark: var(--dk-color-mark, color-mix(in srgb, #fb0 45%, var(--_bg)));
    --_r: var(--dk-radius, 0.5rem);
    --_gap: var(--dk-spacing, 0.5rem);
    color-scheme: light;
    display: block;
    /* Longhands: a shorthand with a var() defaulting to inherit is invalid, and would inherit the page's font. */
    font-size: var(--dk-font-size, 1rem);
    font-family: var(--dk-font-family, inherit);
    color: var(--_fg);
    /* Inherited text properties a host page sets (a centred body, a reset's bold, letter-spacing or uppercase)
       stop here. Direction still inherits (RTL pages). */
    font-weight: normal;
    font-style: normal;
    /* A fixed line height, not the font's own: the box domainkit.css reserves before the upgrade is this one. */
    line-height: 1.25;
    text-align: start;
    text-indent: 0;
    text-transform: none;
    letter-spacing: normal;
    word-spacing: normal;
    white-space: normal;
    text-shadow: none;
    font-variant: normal;
  }
  :host([theme='dark']) {
    --_fg: var(--dk-color-text, #e6e9ef);
    --_bg: var(--dk-color-surface, #161b22);
    --_ok: var(--dk-color-success, #5fd38d);
    --_bad: var(--dk-color-danger, #ffa198);
    color-scheme: dark;
    /* Light text must never land on a light page: in dark, the host paints its own background. */
    background: var(--dk-color-background, #0d1117);
    padding: var(--dk-padding, 0.75em);
    border-radius: var(--_r);
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      --_fg: var(--dk-color-text, #e6e9ef);
      --_bg: var(--dk-color-surface, #161b22);
      --_ok: var(--dk-color-success, #5fd38d);
      --_bad: var(--dk-color-danger, #ffa198);
      color-scheme: dark;
      /* Light text must never land on a light page: in dark, the host paints its own background. */
      background: var(--dk-color-background, #0d1117);
      padding: var(--dk-padding, 0.75em);
      border-radius: var(--_r);
    }
  }
  :host([size='small']) {
    font-size: var(--dk-font-size, 0.875rem);
  }
  :host([size='large']) {
    font-size: var(--dk-font-size, 1.125rem);
  }
  [hidden] {
    display: none !important;
  }
  button {
    display: inline-flex;
    align-items: center;
    gap: 0.5em;
    padding: 0.5em 1.1em;
    font: inherit;
    font-weight: 600;
    color: var(--dk-color-accent-text, #fff);
    background: var(--_accent);
    border: 1px solid var(--_accent);
    border-radius: var(--_r);
    cursor: pointer;
  }
  /* On a touch screen every button (Buy, Retry, the order panel's) is a 44 × 44 CSS px target at least. */
  @media (pointer: coarse) {
    button {
      min-height: 44px;
      min-width: 44px;
      justify-content: center;
    }
  }
  .quiet {
    color: inherit;
    background: none;
    border-color: currentColor;
  }
  [aria-disabled='true'] {
    cursor: default;
    opacity: 0.7;
  }
  :focus-visible {
    outline: var(--dk-focus-ring-width, 3px) solid var(--_focus);
    outline-offset: 2px;
  }
  .spin {
    width: 0.8em;
    height: 0.8em;
    border: 2px solid;
    border-inline-end-color: transparent;
    border-radius: 50%;
    animation: dk-spin 0.8s linear infinite;
  }
  @keyframes dk-spin {
    to {
      rotate: 1turn;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spin {
      animation: none;
      border-style: dotted;
    }
  }
  p {
    margin: 0;
  }
  .box {
    display: grid;
    gap: var(--_gap);
    padding: 0.9em 1em;
    background: var(--_bg);
    border: 1px solid var(--_line);
    border-radius: var(--_r);
  }
  .alert {
    color: var(--_bad);
  }
  .box.alert {
    background: color-mix(in srgb, var(--_bad) 10%, var(--_bg));
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_gap) 1em;
  }
  .mute {
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  /* An empty live region stays in the tree (so it announces what it receives) but takes no room. */
  [role='status']:empty,
  .vh {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
