/**
 * The back-office console ↔ BFF API (docs/console-api.md): what the partner's console elements ask the partner's BFF,
 * which reads the marketplace's reporting and management endpoints with its credential (Partner API spec 4.1
 * "Settlement, history, refunds", "Referral and reporting", `GET /orders`, `GET /brokerage`). Every route but
 * `POST /console/session` needs `Authorization: Bearer <console session token>`; the two writes (refund, create
 * link) also need an `Idempotency-Key`. Each read answers `as_of` (when the BFF last read it upstream) and
 * `max_age` (seconds it is served from the BFF's shared cache).
 */
import { z } from 'zod';
import { centsSchema, currencySchema, domainNameSchema, timestampSchema } from './common.ts';
import { cursorSchema, pageLimitSchema } from './lists.ts';
import { orderSchema, orderStatusSchema, refundSchema } from './orders.ts';
import {
  BROKERAGE_CASE_STATUSES,
  PAYMENT_MODELS,
  brokerageCaseSchema,
  commissionEntrySchema,
  commissionTotalsSchema,
  linkSchema,
  payoutSchema,
  referralSaleSchema,
  settlementSchema,
  transactionSchema,
} from './reporting.ts';
import { policyText, safeTextSchema } from './input-policy.ts';

/** What a console session token lets its holder do: read every view, refund an order, create a referral link. */
export const CONSOLE_SCOPES = ['read', 'refund', 'create_link'] as const;
/** A scope of {@link CONSOLE_SCOPES}. */
export type ConsoleScope = (typeof CONSOLE_SCOPES)[number];

/**
 * Answer of `POST /console/session` (authorized by the partner's `authorize(request)` hook, like Stripe's account
 * sessions): a short-lived HMAC-signed token the elements send as `Authorization: Bearer <token>`. `expires_in` is
 * in seconds; ask for a new one before `expires_at`. `actor` is who the partner's hook said is signed in.
 */
export const consoleSessionSchema = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  expires_at: timestampSchema,
  scopes: z.array(z.enum(CONSOLE_SCOPES)),
  actor: z.string(),
});
export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

/** Freshness of a read: when the BFF read it from the marketplace, and how long (seconds) it serves that copy. */
const freshness = { as_of: timestampSchema, max_age: z.number().int().nonnegative() };

/** A date window (`from`, `to`: ISO 8601 with offset; either may be left out). */
export const consoleWindowQuerySchema = z.strictObject({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
});

/** Query of a cursor list view: `cursor` from a previous page's `next_cursor`, `limit` 1–100 (default 50). */
export const consolePageQuerySchema = z.strictObject({
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/** One day of sales in the overview chart (`date` is `YYYY-MM-DD`, UTC). */
export const consoleDailySalesSchema = z.object({
  date: z.string(),
  count: z.number().int().nonnegative(),
  gmv_cents: centsSchema,
  commission_cents: centsSchema,
});

/**
 * `GET /console/overview?from&to`: GMV, commission earned and sales count in the window (from `GET /transactions`
 * totals), what is owed to the marketplace for the settlement periods overlapping it (`GET /settlements`), sales per
 * day for the chart, and the referral funnel (`GET /analytics`).
 */
export const consoleOverviewSchema = z.object({
  from: timestampSchema.nullable(),
  to: timestampSchema.nullable(),
  currency: currencySchema,
  gmv_cents: centsSchema,
  commission_cents: centsSchema,
  sales_count: z.number().int().nonnegative(),
  owed_cents: centsSchema,
  sales_over_time: z.array(consoleDailySalesSchema),
  funnel: z.object({
    clicks: z.number().int().nonnegative(),
    sales: z.number().int().nonnegative(),
    conversion_rate: z.number().nonnegative(),
    gmv_cents: centsSchema,
    commission_cents: centsSchema,
  }),
  ...freshness,
});
export type ConsoleOverview = z.infer<typeof consoleOverviewSchema>;

/** Query of `GET /console/orders`: the spec's filters (status, domain, date range) and cursor paging. */
export const consoleOrdersQuerySchema = z.strictObject({
  status: orderStatusSchema.optional(),
  domain: domainNameSchema.optional(),
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/**
 * An order as the console shows it: the marketplace's order (with its timeline on the detail view) and
 * `refundable`, true only before `TRANSFER_COMPLETED` (Partner API spec 3, 4.1 `POST /refunds`).
 */
export const consoleOrderSchema = orderSchema.extend({ refundable: z.boolean() });
export type ConsoleOrder = z.infer<typeof consoleOrderSchema>;

/** `GET /console/orders`. */
export const consoleOrderListSchema = z.object({
  orders: z.array(consoleOrderSchema),
  next_cursor: z.string().nullable(),
  ...freshness,
});
/** `GET /console/orders/:id`: one order with its timeline. */
export const consoleOrderViewSchema = z.object({ order: consoleOrderSchema, ...freshness });

/** Body of `POST /console/orders/:id/refund` (header `Idempotency-Key` required). */
export const consoleRefundRequestSchema = z.strictObject({
  reason: safeTextSchema({ min: 0, max: 500, multiline: true }).optional(),
});
/** Answer of `POST /console/orders/:id/refund`: the refund, and the order after it (status `REFUNDED`). */
export const consoleRefundSchema = z.object({ refund: refundSchema, order: consoleOrderSchema });

/** `GET /console/settlements?cursor&limit`: per-period statements (gross sold, commission retained, owed). */
export const consoleSettlementListSchema = z.object({
  settlements: z.array(settlementSchema),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/** Query of `GET /console/transactions` and `GET /console/transactions.csv` (Partner API spec 4.1 filters). */
export const consoleTransactionsQuerySchema = z.strictObject({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
  status: z.string().max(50).optional(),
  payment_model: z.enum(PAYMENT_MODELS).optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
/** `GET /console/transactions`: a page of the sales history with GMV and commission totals over the filter. */
export const consoleTransactionListSchema = z.object({
  transactions: z.array(transactionSchema),
  totals: z
    .object({ gmv_cents: centsSchema, commission_cents: centsSchema, count: z.number().int().nonnegative() })
    .nullable(),
  next_cursor: z.string().nullable(),
  ...freshness,
});
/** Columns of `GET /console/transactions.csv` (`text/csv`, RFC 4180, one header line), in order. */
export const CONSOLE_TRANSACTION_CSV_COLUMNS = [
  'transaction_id',
  'created_at',
  'domain',
  'payment_model',
  'status',
  'gmv_cents',
  'commission_cents',
  'currency',
] as const;

/** Query of `GET /console/payouts`: `kind` `partner` (`GET /payouts`, default) or `referral` (`GET /me/payouts`). */
export const consolePayoutsQuerySchema = z.strictObject({
  kind: z.enum(['partner', 'referral']).default('partner'),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
/** `GET /console/payouts`. */
export const consolePayoutListSchema = z.object({
  payouts: z.array(payoutSchema),
  total_paid_cents: centsSchema.nullable(),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/** `GET /console/commissions?cursor&limit`: ledger lines (running `balance_cents`) and totals of the whole ledger. */
export const consoleCommissionListSchema = z.object({
  commissions: z.array(commissionEntrySchema),
  totals: commissionTotalsSchema.nullable(),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/** `GET /console/sales?from&to&cursor&limit`: sales attributed to referral links (`GET /me/sales`). */
export const consoleReferralSaleListSchema = z.object({
  sales: z.array(referralSaleSchema),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/** Query of `GET /console/brokerage`. */
export const consoleBrokerageQuerySchema = z.strictObject({
  status: z.enum(BROKERAGE_CASE_STATUSES).optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
/** `GET /console/brokerage`: cases with status and outcome (each case's timeline: `GET /console/brokerage/:id`). */
export const consoleBrokerageListSchema = z.object({
  cases: z.array(brokerageCaseSchema),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/**
 * `GET /console/brokerage/:id`: one case with its timeline (the list carries none: Partner API spec 4.1 gives a case's
 * timeline on `GET /brokerage/{case_id}`).
 */
export const consoleBrokerageCaseViewSchema = z.object({ case: brokerageCaseSchema, ...freshness });

/** `GET /console/links?cursor&limit`: referral links with clicks and sales per link. */
export const consoleLinkListSchema = z.object({
  links: z.array(linkSchema),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/**
 * `GET /console/clicks?from&to`: the click total of the window and each link's. Nothing per day: the Partner API gives
 * click totals "optionally windowed by date" (spec 4.1), not a series (docs/spec-decisions.md "Clicks per day").
 */
export const consoleClicksSchema = z.object({
  from: timestampSchema.nullable(),
  to: timestampSchema.nullable(),
  clicks: z.number().int().nonnegative(),
  by_link: z.array(z.object({ link_id: z.string(), clicks: z.number().int().nonnegative() })),
  ...freshness,
});

/** Body of `POST /console/links` (header `Idempotency-Key` required): a generic, domain or product link. */
export const consoleCreateLinkRequestSchema = z
  .strictObject({
    kind: z.enum(['generic', 'domain', 'product']),
    domain: domainNameSchema.optional(),
    product: policyText(z.string().min(1).max(100)).optional(),
    label: safeTextSchema({ min: 0, max: 100 }).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'domain' && !b.domain)
      ctx.addIssue({ code: 'custom', message: 'a domain link needs domain', path: ['domain'] });
    if (b.kind === 'product' && !b.product)
      ctx.addIssue({ code: 'custom', message: 'a product link needs product', path: ['product'] });
  });
/** Answer of `POST /console/links` (201). */
export const consoleLinkCreatedSchema = z.object({ link: linkSchema });

/**
 * How the BFF received an event by webhook (null when it only came by catch-up, or not yet): when it was stored,
 * the inbox's state of it (`pending`, `done`, `failed`), handler attempts and the last error.
 */
export const consoleEventDeliverySchema = z.object({
  received_at: timestampSchema,
  state: z.string(),
  attempts: z.number().int().nonnegative(),
  handled_at: timestampSchema.nullable(),
  last_error: z.string().nullable(),
});
/** An event of the history (Partner API spec 2.5: `id`, `type`, `created_at`, `data`) with its delivery to this BFF. */
export const consoleEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created_at: timestampSchema,
  data: z.record(z.string(), z.unknown()),
  delivery: consoleEventDeliverySchema.nullable(),
});
/** Query of `GET /console/events`: `after_id` and `limit` as on `GET /events` (Partner API spec 4.1). */
export const consoleEventsQuerySchema = z.strictObject({
  after_id: policyText(z.string().min(1).max(200)).optional(),
  limit: pageLimitSchema,
});
/** `GET /console/events`: the marketplace's event history, each event with its delivery to this BFF. */
export const consoleEventListSchema = z.object({
  events: z.array(consoleEventSchema),
  next_cursor: z.string().nullable(),
  ...freshness,
});

/**
 * Every error code of the console API, with its HTTP status and when it is answered. Refusals (401, 403) are decided
 * by the BFF before any upstream call.
 */
export const CONSOLE_ERROR_CODES = {
  validation_error: {
    status: 400,
    when: 'A query parameter, path segment or body field is malformed; the message names it.',
  },
  missing_idempotency_key: { status: 400, when: 'A write (refund, create link) without an `Idempotency-Key` header.' },
  unauthorized: {
    status: 401,
    when: "No console session token, a token that is not one (a purchase key, a forged or altered token) or an expired one; or the partner's `authorize` hook refused `POST /console/session`.",
  },
  forbidden: {
    status: 403,
    when: "A cross-site write (an `Origin` that is neither the BFF's nor an allowed one), or a token without the write's scope.",
  },
  not_found: { status: 404, when: 'The order, case or route is unknown.' },
  conflict: { status: 409, when: 'The `Idempotency-Key` was used for another write (another body or order).' },
  not_refundable: {
    status: 409,
    when: "The order is at or past `TRANSFER_COMPLETED` (or already refunded): `status` is its status, `detail` the marketplace's words when it refused.",
  },
  rate_limited: { status: 429, when: 'Too many requests from this console; retry after `retry_after` seconds.' },
  internal_error: { status: 500, when: 'A defect in the BFF.' },
  upstream_error: { status: 502, when: 'The marketplace failed or refused the credential.' },
  busy: { status: 503, when: 'The reporting budget (30 calls a minute) is spent; retry after `retry_after` seconds.' },
  unavailable: { status: 503, when: "The BFF's database is not available." },
  upstream_timeout: { status: 504, when: 'The marketplace did not answer in time.' },
} as const satisfies Record<string, { status: number; when: string }>;
/** An error code of {@link CONSOLE_ERROR_CODES}. */
export type ConsoleErrorCode = keyof typeof CONSOLE_ERROR_CODES;

/** Error answer of the console API. `detail` carries the marketplace's own words when it refused a write. */
export const consoleErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    retry_after: z.number().int().nonnegative().optional(),
    status: z.string().optional(),
    detail: z.string().optional(),
  }),
});
export type ConsoleError = z.infer<typeof consoleErrorSchema>;
