import type { CodeLabels } from './labels.ts';

/**
 * Every string the console shows or announces, in one replaceable object. Each element takes a partial override in
 * its `strings` property (`el.strings = fr` from `@domainkit/console/strings/fr`); what is not given keeps the English
 * default. Amounts and dates arrive already formatted for the element's locale.
 */
export interface DkConsoleStrings {
  readonly consoleLabel: string;
  readonly tabOverview: string;
  readonly tabOrders: string;
  readonly tabSettlements: string;
  readonly tabCommissions: string;
  readonly tabBrokerage: string;
  readonly tabLinks: string;
  readonly tabEvents: string;
  readonly loading: string;
  readonly refresh: string;
  readonly retry: string;
  readonly reload: string;
  readonly loadMore: string;
  readonly empty: string;
  /** Shown when the BFF refuses the console session (401/403): the person has to sign in again. */
  readonly signedOut: string;
  /** Shown when a call failed for another reason; `message` is the BFF's message when it gave one. */
  readonly failed: (message: string) => string;
  /**
   * Shown next to a filter form when the BFF refused its filter (a 4xx answer other than 401/403): the form stays, so
   * the person can change the filter; `message` is the BFF's message.
   */
  readonly filterRefused: (message: string) => string;
  /** Refusal of a date window whose start is after its end, before anything is asked. */
  readonly windowBackwards: string;
  readonly from: string;
  readonly to: string;
  readonly apply: string;
  readonly any: string;
  // Overview
  readonly gmv: string;
  readonly commissionEarned: string;
  readonly owedThisPeriod: string;
  readonly owedPeriod: (from: string, to: string) => string;
  readonly salesOverTime: string;
  /** Heading of the click total of the date window, every link together (links view). */
  readonly clicksAllLinks: string;
  /** Why the links view has no per-day chart: the marketplace gives click totals for a window, not a series. */
  readonly noDailyClicks: string;
  readonly funnel: string;
  readonly clicks: string;
  readonly sales: string;
  readonly conversion: (rate: string) => string;
  readonly date: string;
  readonly showTable: string;
  readonly chartLoading: string;
  readonly chartUnavailable: string;
  // Orders
  readonly status: string;
  readonly domain: string;
  /** Hint of the orders' domain filter: the marketplace filters by a full name only, not part of one. */
  readonly domainFilterHint: string;
  /** Refusal of a domain filter that is not a full domain name, before anything is asked. */
  readonly domainFilterInvalid: string;
  readonly order: string;
  readonly amount: string;
  readonly created: string;
  readonly timeline: string;
  readonly details: (id: string) => string;
  /** Name of the button that shows a brokerage case's timeline. */
  readonly caseTimeline: (domain: string) => string;
  readonly refund: string;
  readonly refundOrder: (domain: string) => string;
  readonly refundConfirmTitle: (domain: string) => string;
  /** What happens to the money: said before the person confirms. */
  readonly refundConfirmBody: (amount: string, domain: string) => string;
  readonly refundReason: string;
  readonly confirmRefund: string;
  readonly cancel: string;
  readonly refunded: (amount: string) => string;
  readonly refundRefused: (message: string) => string;
  /** Why an order has no Refund button. */
  readonly noRefundAfterTransfer: string;
  readonly noRefundFinal: string;
  /**
   * Order statuses by code (Partner API spec 3; the held, refunded and cancelled names are domainkit's): the table,
   * the timelines and the status filter. A code missing here is shown as it came.
   */
  readonly orderStatuses: CodeLabels;
  // Settlements
  readonly settlements: string;
  readonly period: string;
  readonly grossSold: string;
  readonly commissionRetained: string;
  readonly amountOwed: string;
  readonly orderCount: string;
  readonly transactions: string;
  readonly paymentModel: string;
  readonly commission: string;
  readonly totals: (count: number, gmv: string, commission: string) => string;
  /** Payment models by code (Partner API spec 1: `mor`, `non_mor`, `brokerage`): the transactions and their filter. */
  readonly paymentModels: CodeLabels;
  readonly exportCsv: string;
  readonly payouts: string;
  readonly paid: string;
  readonly totalPaid: (amount: string) => string;
  /** Under the payouts: which commissions they pay, and where the referral ones are. */
  readonly payoutsNote: string;
  // Commissions
  readonly ledger: string;
  /** Under the ledger's heading: which commissions it holds, and where the others are paid. */
  readonly ledgerNote: string;
  readonly accrued: string;
  readonly pending: string;
  readonly paidOut: string;
  readonly reversed: string;
  readonly balance: string;
  readonly type: string;
  /** Commission line types and statuses by code (Partner API spec 2.7: accrued, pending, paid out, reversed). */
  readonly commissionStatuses: CodeLabels;
  /**
   * Payout statuses by code. The spec shows none (`GET /payouts`, 4.1): the sandbox's `paid`, and the usual `pending`,
   * `in_transit`, `failed` and `canceled`; another code is shown as it came.
   */
  readonly payoutStatuses: CodeLabels;
  /** What this BFF did with a received event delivery, by its inbox state (`pending`, `done`, `failed`). */
  readonly deliveryStates: CodeLabels;
  // Brokerage
  readonly cases: string;
  readonly tier: string;
  readonly budget: string;
  readonly outcome: string;
  readonly dealAt: (price: string, commission: string) => string;
  readonly noDeal: string;
  readonly stillOpen: string;
  readonly progressPage: string;
  /** Brokerage case statuses by code (`OPEN` … `CLOSED_NO_DEAL`): the table and each case's timeline. */
  readonly caseStatuses: CodeLabels;
  /** Brokerage tiers by code (Partner API spec 2.6: `managed`, `self_serve`). */
  readonly brokerageTiers: CodeLabels;
  // Links
  readonly links: string;
  readonly createLink: string;
  readonly kind: string;
  readonly kindGeneric: string;
  readonly kindDomain: string;
  readonly kindProduct: string;
  readonly product: string;
  readonly label: string;
  /** Header of the links table's label column. */
  readonly linkLabel: string;
  readonly create: string;
  readonly copy: string;
  readonly copyLink: (url: string) => string;
  readonly copied: string;
  readonly linkCreated: (url: string) => string;
  // Events
  readonly events: string;
  readonly event: string;
  readonly delivery: string;
  readonly notDelivered: string;
}

/** The console's strings in English (the defaults). */
export const en: DkConsoleStrings = {
  consoleLabel: 'Partner console',
  tabOverview: 'Overview',
  tabOrders: 'Orders',
  tabSettlements: 'Settlements',
  tabCommissions: 'Commissions',
  tabBrokerage: 'Brokerage',
  tabLinks: 'Referral links',
  tabEvents: 'Events',
  loading: 'Loading…',
  refresh: 'Refresh',
  retry: 'Try again',
  reload: 'Sign in again',
  loadMore: 'Load more',
  empty: 'Nothing here yet.',
  signedOut: 'Your console session has ended or you are not signed in. Sign in again to see your figures.',
  failed: (message) => `This could not be loaded: ${message}`,
  filterRefused: (message) => `This filter was not accepted: ${message} Change it and apply again.`,
  windowBackwards: '“From” is after “To”: choose a start date on or before the end date.',
  from: 'From',
  to: 'To',
  apply: 'Apply',
  any: 'Any',
  gmv: 'Gross sales (GMV)',
  commissionEarned: 'Commission earned',
  owedThisPeriod: 'Owed to the marketplace this period',
  owedPeriod: (from, to) => `Period ${from} – ${to}`,
  salesOverTime: 'Sales over time',
  clicksAllLinks: 'Clicks, all links together',
  noDailyClicks:
    'No chart of clicks per day: the marketplace reports clicks as a total for a date range, not day by day.',
  funnel: 'Referral funnel',
  clicks: 'Clicks',
  sales: 'Sales',
  conversion: (rate) => `${rate} of clicks became sales`,
  date: 'Date',
  showTable: 'Show the figures as a table',
  chartLoading: 'Drawing the chart…',
  chartUnavailable: 'The chart could not be drawn; the table below has the same figures.',
  status: 'Status',
  domain: 'Domain',
  domainFilterHint: 'A full domain name, such as example.com',
  domainFilterInvalid:
    'Type a full domain name such as example.com: letters, digits and hyphens, with a dot before the ending. Part of a name cannot be searched.',
  order: 'Order',
  amount: 'Amount',
  created: 'Created',
  timeline: 'Timeline',
  details: (id) => `Timeline of order ${id}`,
  caseTimeline: (domain) => `Timeline of the case for ${domain}`,
  refund: 'Refund',
  refundOrder: (domain) => `Refund the order for ${domain}`,
  refundConfirmTitle: (domain) => `Refund the order for ${domain}?`,
  refundConfirmBody: (amount, domain) =>
    `The marketplace cancels the transfer of ${domain} and the order becomes refunded. Refund ${amount} to the buyer through your own payment provider: you collected the payment, so the money goes back from you. The marketplace claims nothing for this order in the settlement, and its commission is reversed. This cannot be undone.`,
  refundReason: 'Reason (optional, kept with the refund)',
  confirmRefund: 'Refund the order',
  cancel: 'Keep the order',
  refunded: (amount) => `Refunded. Return ${amount} to the buyer through your payment provider.`,
  refundRefused: (message) => `The marketplace refused the refund: ${message}`,
  noRefundAfterTransfer: 'No refund: the domain has been transferred to the buyer.',
  noRefundFinal: 'No refund: this order is closed.',
  orderStatuses: {
    EXTERNALLY_PAID: 'Paid, collected by you',
    HELD_FOR_REVIEW: 'Held for review',
    TRANSFER_IN_PROGRESS: 'Transfer in progress',
    TRANSFER_COMPLETED: 'Transfer completed',
    SETTLED: 'Settled',
    REFUNDED: 'Refunded',
    CANCELLED: 'Cancelled',
  },
  settlements: 'Settlement statements',
  period: 'Period',
  grossSold: 'Gross sold',
  commissionRetained: 'Commission retained',
  amountOwed: 'Amount owed',
  orderCount: 'Orders',
  transactions: 'Transactions',
  paymentModel: 'Payment model',
  commission: 'Commission',
  totals: (count, gmv, commission) => `${count} transactions, GMV ${gmv}, commission ${commission}`,
  paymentModels: { mor: 'Merchant of record (you collect)', non_mor: 'Hosted checkout', brokerage: 'Brokerage' },
  exportCsv: 'Export CSV',
  payouts: 'Payouts for hosted-checkout sales and brokerage',
  paid: 'Paid',
  totalPaid: (amount) => `Total paid: ${amount}`,
  payoutsNote: 'Commissions on referral-link sales are paid separately: see the Commissions tab.',
  ledger: 'Referral commission ledger',
  ledgerNote:
    'Commissions on sales through your referral links only. Commissions on hosted-checkout sales and brokerage deals are paid at settlement: see Settlements, Payouts.',
  accrued: 'Accrued',
  pending: 'Pending',
  paidOut: 'Paid out',
  reversed: 'Reversed',
  balance: 'Balance',
  type: 'Type',
  commissionStatuses: { accrued: 'Accrued', pending: 'Pending', paid_out: 'Paid out', reversed: 'Reversed' },
  payoutStatuses: {
    paid: 'Paid',
    pending: 'Pending',
    in_transit: 'In transit',
    failed: 'Failed',
    canceled: 'Canceled',
  },
  deliveryStates: { pending: 'Waiting to be handled', done: 'Handled', failed: 'Handling failed' },
  cases: 'Brokerage cases',
  tier: 'Tier',
  budget: 'Budget',
  outcome: 'Outcome',
  dealAt: (price, commission) => `Deal at ${price}, your cut ${commission}`,
  noDeal: 'Closed without a deal',
  stillOpen: 'Open',
  progressPage: 'Buyer’s progress page',
  caseStatuses: {
    OPEN: 'Open',
    CONTACTING_OWNER: 'Contacting the owner',
    NEGOTIATING: 'Negotiating',
    CLOSED_DEAL: 'Closed with a deal',
    CLOSED_NO_DEAL: 'Closed without a deal',
  },
  brokerageTiers: { managed: 'Managed', self_serve: 'Self-serve' },
  links: 'Referral links',
  createLink: 'Create a link',
  kind: 'Kind',
  kindGeneric: 'Generic',
  kindDomain: 'Domain',
  kindProduct: 'Product',
  product: 'Product',
  label: 'Label (optional)',
  linkLabel: 'Label',
  create: 'Create',
  copy: 'Copy',
  copyLink: (url) => `Copy ${url}`,
  copied: 'Copied to the clipboard.',
  linkCreated: (url) => `Link created: ${url}`,
  events: 'Event history',
  event: 'Event',
  delivery: 'Delivery to this server',
  notDelivered: 'Not received',
};

/**
 * `strings` over the English defaults: a string or function given replaces the default; a table of labels by code
 * (`orderStatuses`…) given in part keeps the default labels of the codes it leaves out, so relabelling one status
 * does not turn the others back into codes.
 * @param strings a partial override, such as `fr` or `{ orderStatuses: { HELD_FOR_REVIEW: 'On hold' } }`.
 * @returns the strings to show.
 */
export function withDefaults(strings: Partial<DkConsoleStrings>): DkConsoleStrings {
  const merged: Record<string, unknown> = { ...en, ...strings };
  for (const [key, given] of Object.entries(strings)) {
    const fallback = (en as unknown as Record<string, unknown>)[key];
    if (isTable(fallback) && isTable(given)) merged[key] = { ...fallback, ...given };
  }
  return merged as unknown as DkConsoleStrings;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
