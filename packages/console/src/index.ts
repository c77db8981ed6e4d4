/**
 * `@domainkit/console`: the partner's own admin as Lit elements, served by the domainkit BFF's console routes.
 * Importing this module defines `<dk-console>` and each view (`<dk-console-orders>`…) in a browser. It is safe to
 * import during server-side rendering: it reads no `window` or `document`, and under Node the elements go to the
 * `customElements` registry Lit's server build provides, which no page sees.
 *
 * ```html
 * <script type="module" src="/console/console.min.js"></script>
 * <dk-console api="/dk"></dk-console>
 * ```
 */
export { CONSOLE_ELEMENTS, defineConsoleElements } from './define.ts';
export { ConsoleApiError, ConsoleSession, consoleSession, type Query } from './api.ts';
export { DkConsoleView, VIEW_STATES, type ViewState } from './base.ts';
export { DkConsoleChart, type ChartPoint } from './chart.ts';
export { CONSOLE_TABS, DkConsole, type ConsoleTab } from './console.ts';
export {
  DkConsoleErrorEvent,
  DkConsoleEvent,
  DkLinkCreatedEvent,
  DkRefundEvent,
  type DkConsoleErrorDetail,
  type DkLinkCreatedDetail,
  type DkRefundDetail,
} from './events.ts';
export { formatCount, formatDate, formatDateTime, formatMoney, formatRate } from './format.ts';
export { codeLabel, codeText, type CodeLabels } from './labels.ts';
export { en, type DkConsoleStrings } from './strings.ts';
export { DkConsoleBrokerage, type ConsoleBrokerageCase } from './views/brokerage.ts';
export {
  DkConsoleCommissions,
  type ConsoleCommissionEntry,
  type ConsoleCommissionTotals,
} from './views/commissions.ts';
export { DkConsoleEvents, type ConsoleEvent } from './views/events.ts';
export { DkConsoleLinks, LINK_KINDS, type ConsoleLink } from './views/links.ts';
export { DkConsoleOrders, ORDER_FILTER_STATUSES, REFUNDABLE_STATUSES, type ConsoleOrder } from './views/orders.ts';
export { DkConsoleOverview, type ConsoleOverview } from './views/overview.ts';
export {
  DkConsoleSettlements,
  PAYMENT_MODEL_FILTERS,
  type ConsolePayout,
  type ConsoleSettlement,
  type ConsoleTransaction,
} from './views/settlements.ts';
