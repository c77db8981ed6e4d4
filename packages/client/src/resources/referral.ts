/**
 * Referral and reporting (Partner API spec 2.7, 4.1 "Referral and reporting"): tracked links (scope `refer`), clicks, sales,
 * commissions, payouts and analytics (scope `report`). The spec shows none of these bodies: every answer is typed by
 * protocol's schema of it (`clicksReportSchema`, `referralSaleListSchema`, `commissionListSchema`, `analyticsSchema`,
 * docs/spec-decisions.md), which keeps unknown fields.
 */
import { PARTNER_API_OPERATIONS as OPS, dateRangeParamsSchema, reportRecordSchema } from '@domainkit/protocol';
import type { z } from 'zod';
import { partnerEndpoint } from '../endpoint.ts';

export { reportRecordSchema };
/** A report record. */
export type ReportRecord = z.infer<typeof reportRecordSchema>;

/** A date window without paging (`from`, `to`, ISO 8601): protocol's `dateRangeParamsSchema`. */
export const dateWindowSchema = dateRangeParamsSchema;

/** `POST /links`: a tracked link (generic, domain or product). */
export const createLinkEndpoint = partnerEndpoint('links.create', OPS.createLink);

/** `GET /links`: links with per-link clicks and sales. */
export const listLinksEndpoint = partnerEndpoint('links.list', OPS.listLinks);

/** `GET /me/clicks`: click totals, optionally windowed by date. */
export const clicksEndpoint = partnerEndpoint('me.clicks', OPS.getClicks);

/** `GET /me/sales`: sales attributed to referral links (buyer, domain, amount, commission). */
export const listSalesEndpoint = partnerEndpoint('me.sales', OPS.listReferralSales);

/** `GET /me/commissions`: the commission ledger (accrued, pending, paid out, reversed) with a running balance. */
export const listCommissionsEndpoint = partnerEndpoint('me.commissions', OPS.listCommissions);

/** `GET /me/payouts`: referral payouts with dates and totals. */
export const listReferralPayoutsEndpoint = partnerEndpoint('me.payouts', OPS.listReferralPayouts);

/** `GET /analytics`: the referral funnel, GMV and commission over a date range. */
export const analyticsEndpoint = partnerEndpoint('analytics.retrieve', OPS.getAnalytics);
