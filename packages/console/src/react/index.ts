'use client';

/**
 * `@domainkit/console/react`: the console elements as React components (`@lit/react`): properties passed as
 * properties (`strings` included) and each event a typed camel-case prop (`onDkRefund`, `onDkLinkCreated`,
 * `onDkConsoleError`). Importing this module defines the elements. React 18 or 19 is a peer dependency.
 *
 * ```tsx
 * import { Console } from '@domainkit/console/react';
 * <Console api="/dk" onDkConsoleError={(e) => e.detail.status === 401 && signIn()} />
 * ```
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { DkConsoleChart } from '../chart.ts';
import { DkConsole } from '../console.ts';
import '../define.ts';
import type { DkConsoleErrorEvent, DkLinkCreatedEvent, DkRefundEvent } from '../events.ts';
import { DkConsoleBrokerage } from '../views/brokerage.ts';
import { DkConsoleCommissions } from '../views/commissions.ts';
import { DkConsoleEvents } from '../views/events.ts';
import { DkConsoleLinks } from '../views/links.ts';
import { DkConsoleOrders } from '../views/orders.ts';
import { DkConsoleOverview } from '../views/overview.ts';
import { DkConsoleSettlements } from '../views/settlements.ts';

const events = {
  onDkRefund: 'dk-refund' as EventName<DkRefundEvent>,
  onDkLinkCreated: 'dk-link-created' as EventName<DkLinkCreatedEvent>,
  onDkConsoleError: 'dk-console-error' as EventName<DkConsoleErrorEvent>,
};

/** `<dk-console>` (every view, in tabs) as a React component. */
export const Console = createComponent({
  tagName: 'dk-console',
  elementClass: DkConsole,
  react: React,
  events,
  displayName: 'Console',
});
/** `<dk-console-overview>` as a React component. */
export const ConsoleOverview = createComponent({
  tagName: 'dk-console-overview',
  elementClass: DkConsoleOverview,
  react: React,
  events,
  displayName: 'ConsoleOverview',
});
/** `<dk-console-orders>` as a React component (`onDkRefund`). */
export const ConsoleOrders = createComponent({
  tagName: 'dk-console-orders',
  elementClass: DkConsoleOrders,
  react: React,
  events,
  displayName: 'ConsoleOrders',
});
/** `<dk-console-settlements>` as a React component. */
export const ConsoleSettlements = createComponent({
  tagName: 'dk-console-settlements',
  elementClass: DkConsoleSettlements,
  react: React,
  events,
  displayName: 'ConsoleSettlements',
});
/** `<dk-console-commissions>` as a React component. */
export const ConsoleCommissions = createComponent({
  tagName: 'dk-console-commissions',
  elementClass: DkConsoleCommissions,
  react: React,
  events,
  displayName: 'ConsoleCommissions',
});
/** `<dk-console-brokerage>` as a React component. */
export const ConsoleBrokerage = createComponent({
  tagName: 'dk-console-brokerage',
  elementClass: DkConsoleBrokerage,
  react: React,
  events,
  displayName: 'ConsoleBrokerage',
});
/** `<dk-console-links>` as a React component (`onDkLinkCreated`). */
export const ConsoleLinks = createComponent({
  tagName: 'dk-console-links',
  elementClass: DkConsoleLinks,
  react: React,
  events,
  displayName: 'ConsoleLinks',
});
/** `<dk-console-events>` as a React component. */
export const ConsoleEvents = createComponent({
  tagName: 'dk-console-events',
  elementClass: DkConsoleEvents,
  react: React,
  events,
  displayName: 'ConsoleEvents',
});
/** `<dk-console-chart>` as a React component. */
export const ConsoleChart = createComponent({
  tagName: 'dk-console-chart',
  elementClass: DkConsoleChart,
  react: React,
  displayName: 'ConsoleChart',
});
