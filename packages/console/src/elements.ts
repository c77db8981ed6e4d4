/**
 * Every console element by tag name, and the function that defines them. Importing this module defines nothing (the
 * Vue binding defines the elements when its plugin is installed); `./define.ts` defines them at import.
 */
import { define } from './base.ts';
import { DkConsoleChart } from './chart.ts';
import { DkConsole } from './console.ts';
import { DkConsoleBrokerage } from './views/brokerage.ts';
import { DkConsoleCommissions } from './views/commissions.ts';
import { DkConsoleEvents } from './views/events.ts';
import { DkConsoleLinks } from './views/links.ts';
import { DkConsoleOrders } from './views/orders.ts';
import { DkConsoleOverview } from './views/overview.ts';
import { DkConsoleSettlements } from './views/settlements.ts';

/** Every console element by tag name. */
export const CONSOLE_ELEMENTS = {
  'dk-console': DkConsole,
  'dk-console-overview': DkConsoleOverview,
  'dk-console-orders': DkConsoleOrders,
  'dk-console-settlements': DkConsoleSettlements,
  'dk-console-commissions': DkConsoleCommissions,
  'dk-console-brokerage': DkConsoleBrokerage,
  'dk-console-links': DkConsoleLinks,
  'dk-console-events': DkConsoleEvents,
  'dk-console-chart': DkConsoleChart,
} as const;

/**
 * Defines every console element in this browser (nothing where `customElements` does not exist). Defining twice is a
 * no-op, as is a tag another script already defined.
 */
export function defineConsoleElements(): void {
  for (const [tag, element] of Object.entries(CONSOLE_ELEMENTS)) define(tag, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'dk-console': DkConsole;
    'dk-console-overview': DkConsoleOverview;
    'dk-console-orders': DkConsoleOrders;
    'dk-console-settlements': DkConsoleSettlements;
    'dk-console-commissions': DkConsoleCommissions;
    'dk-console-brokerage': DkConsoleBrokerage;
    'dk-console-links': DkConsoleLinks;
    'dk-console-events': DkConsoleEvents;
    'dk-console-chart': DkConsoleChart;
  }
}
