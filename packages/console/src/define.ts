/**
 * Defines every console element (`<dk-console>` and its views, `<dk-console-chart>`) at import. Safe to import on a
 * server (SSR, Node): where `customElements` does not exist it defines nothing (under Node, Lit's server build
 * provides one of its own, which no page sees). Defining twice is a no-op.
 */
import { defineConsoleElements } from './elements.ts';

export { CONSOLE_ELEMENTS, defineConsoleElements } from './elements.ts';

defineConsoleElements();
