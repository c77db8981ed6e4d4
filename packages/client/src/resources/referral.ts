/**
 * Referral and reporting (Partner API spec 2.7, 4.1 "Referral and reporting"): tracked links (scope `refer`), clicks, sales,
 * commissions, payouts and analytics (scope `report`). The spec shows none of these bodies and the protocol
 * package does not fix the clicks, sales, commissions and analytics records yet, so those are parsed tolerantly:
 * lists by their list shape (docs/architecture.md "Lists") (`{<plural>: [...], next_cursor}`), records as objects with every field kept.
 */
import {
  createLinkRequestSchema,
  dateRangeParamsSchema,
  dateWindowParamsSchema,
  pageParamsSchema,
  linkListSchema,
  linkSchema,
  listSchema,
  payoutListSchema,
  reportRecordSchema,
} from '@domainkit/protocol';
import type { z } from 'zod';
import { PARTNER_API_PREFIX, defineEndpoint } from '../endpoint.ts';

export { reportRecordSchema };
/** A report record. */
export type ReportRecord = z.infer<typeof reportRecordSchema>;

/** A date window without paging (`from`, `to`, ISO 8601): protocol's `dateRangeParamsSchema`. */
export const dateWindowSchema = dateRangeParamsSchema;

/** `POST /links`: a tracked link (generic, domain or product). */
export const createLinkEndpoint = defineEndpoint({
  name: 'links.create',
  method: 'POST',
  path: `${PARTNER_API_PREFIX}/links`,
  input: createLinkRequestSchema,
  response: linkSchema,
  rateClass: 'manage',
});

/** `GET /links`: links with per-link clicks and sales. */
export const listLinksEndpoint = defineEndpoint({
  name: 'links.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/links`,
  input: pageParamsSchema,
  response: linkListSchema,
  rateClass: 'read',
});

/** `GET /me/clicks`: click totals, optionally windowed by date. */
export const clicksEndpoint = defineEndpoint({
  name: 'me.clicks',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/me/clicks`,
  input: dateWindowSchema,
  response: reportRecordSchema,
  rateClass: 'reporting',
});

/** `GET /me/sales`: sales attributed to referral links (buyer, domain, amount, commission). */
export const listSalesEndpoint = defineEndpoint({
  name: 'me.sales',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/me/sales`,
  input: dateWindowParamsSchema,
  response: listSchema('sales', reportRecordSchema),
  rateClass: 'reporting',
});

/** `GET /me/commissions`: the commission ledger (accrued, pending, paid out, reversed) with a running balance. */
export const listCommissionsEndpoint = defineEndpoint({
  name: 'me.commissions',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/me/commissions`,
  input: dateWindowParamsSchema,
  response: listSchema('commissions', reportRecordSchema),
  rateClass: 'reporting',
});

/** `GET /me/payouts`: referral payouts with dates and totals. */
export const listReferralPayoutsEndpoint = defineEndpoint({
  name: 'me.payouts',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/me/payouts`,
  input: dateWindowParamsSchema,
  response: payoutListSchema,
  rateClass: 'reporting',
});

/** `GET /analytics`: the referral funnel, GMV and commission over a date range. */
export const analyticsEndpoint = defineEndpoint({
  name: 'analytics.retrieve',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/analytics`,
  input: dateWindowSchema,
  response: reportRecordSchema,
  rateClass: 'reporting',
});
