/**
 * Settlement, history, payouts, brokerage and referral records (Partner API spec 2.6, 2.7, 4.1). The spec shows no fields
 * beyond their descriptions; these names are domainkit's (docs/spec-decisions.md). Responses keep unknown fields.
 */
import { z } from 'zod';
import { boundedIntSchema } from './input-policy.ts';
import { centsSchema, currencySchema, domainNameSchema, timestampSchema } from './common.ts';
import { cursorSchema, listSchema, pageLimitSchema } from './lists.ts';

/** A per-period settlement statement: gross sold, commission retained, amount owed to the service. */
export const settlementSchema = z.looseObject({
  settlement_id: z.string(),
  period_start: timestampSchema,
  period_end: timestampSchema,
  currency: currencySchema,
  gross_sold_cents: centsSchema,
  commission_retained_cents: centsSchema,
  amount_owed_cents: centsSchema,
  order_count: z.number().int().nonnegative(),
  /** The orders the statement settled (they moved to `SETTLED`). */
  order_ids: z.array(z.string()).optional(),
  created_at: timestampSchema.optional(),
});
export const settlementListSchema = listSchema('settlements', settlementSchema);

/** A sale in the transaction history. `payment_model` is `mor`, `non_mor` or `brokerage`. */
export const transactionSchema = z.looseObject({
  transaction_id: z.string(),
  domain: z.string(),
  payment_model: z.string(),
  status: z.string(),
  gmv_cents: centsSchema,
  commission_cents: centsSchema,
  currency: currencySchema,
  created_at: timestampSchema,
});
export const transactionListSchema = listSchema('transactions', transactionSchema).extend({
  totals: z
    .looseObject({
      gmv_cents: centsSchema,
      commission_cents: centsSchema,
      count: z.number().int(),
      currency: currencySchema.optional(),
    })
    .optional(),
});

/** The payment models of Partner API spec 1. */
export const PAYMENT_MODELS = ['mor', 'non_mor', 'brokerage'] as const;

/** Query of `GET /transactions` (Partner API spec 4.1 names `from`, `to`, `status`, `payment_model`). */
export const listTransactionsParamsSchema = z.strictObject({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
  status: z.string().max(50).optional(),
  payment_model: z.enum(PAYMENT_MODELS).optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/** A payout to the partner. */
export const payoutSchema = z.looseObject({
  payout_id: z.string(),
  amount_cents: centsSchema,
  currency: currencySchema,
  status: z.string(),
  created_at: timestampSchema,
  paid_at: timestampSchema.nullable().optional(),
  /** `partner` (non-MoR commissions and brokerage cuts, `GET /payouts`) or `referral` (`GET /me/payouts`). */
  kind: z.string().optional(),
  period_start: timestampSchema.optional(),
  period_end: timestampSchema.optional(),
  /** What the payout is made of, in minor units (`non_mor_cents`, `brokerage_cents`, `referral_cents`). */
  breakdown: z.record(z.string(), centsSchema).optional(),
});
export const payoutListSchema = listSchema('payouts', payoutSchema).extend({
  /** Sum of every payout of the list's kind ever paid (all pages). */
  total_paid_cents: centsSchema.optional(),
});

/** Brokerage tiers (Partner API spec 2.6). */
export const BROKERAGE_TIERS = ['managed', 'self_serve'] as const;

/** Body of `POST /brokerage` (Partner API spec 2.6): `budget` is in minor units (cents) of USD. */
export const createBrokerageCaseRequestSchema = z.strictObject({
  domain: domainNameSchema,
  tier: z.enum(BROKERAGE_TIERS, { error: 'tier must be "managed" or "self_serve"' }),
  buyer_email: z.email('buyer_email must be an email address'),
  budget: boundedIntSchema({ min: 1, unit: 'cents of USD' }),
  currency: z.literal('USD').optional(),
});

/**
 * Brokerage case statuses (Partner API spec 2.6 and 3 show none: docs/spec-decisions.md). `OPEN` → `CONTACTING_OWNER` →
 * `NEGOTIATING` → `CLOSED_DEAL` (emits `brokerage.case_completed`) or `CLOSED_NO_DEAL` (from any open status).
 */
export const BROKERAGE_CASE_STATUSES = [
  'OPEN',
  'CONTACTING_OWNER',
  'NEGOTIATING',
  'CLOSED_DEAL',
  'CLOSED_NO_DEAL',
] as const;

/** A brokerage case (Partner API spec 2.6), with `progress_url`: the buyer's no-login progress page. */
export const brokerageCaseSchema = z.looseObject({
  case_id: z.string(),
  domain: z.string(),
  tier: z.string(),
  status: z.string(),
  budget_cents: centsSchema,
  currency: currencySchema,
  progress_url: z.string(),
  created_at: timestampSchema,
  updated_at: timestampSchema.optional(),
  buyer_email: z.string().optional(),
  /** The agreed price once closed with a deal, and the partner's cut of it (minor units). */
  deal_price_cents: centsSchema.nullable().optional(),
  commission_cents: centsSchema.nullable().optional(),
  /** When the case closed (`CLOSED_DEAL`, `CLOSED_NO_DEAL`), null while open. */
  closed_at: timestampSchema.nullable().optional(),
  timeline: z
    .array(z.looseObject({ status: z.string(), at: timestampSchema, note: z.string().nullable().optional() }))
    .optional(),
});
export const brokerageCaseListSchema = listSchema('cases', brokerageCaseSchema);

/** Query of `GET /brokerage`: optional status filter and cursor paging. */
export const brokerageCaseListParamsSchema = z.strictObject({
  status: z.enum(BROKERAGE_CASE_STATUSES).optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/** Path of `GET /brokerage/{case_id}`. */
export const brokerageCaseParamsSchema = z.strictObject({
  case_id: z.string().trim().min(1, 'case_id is required').max(100).describe('The case id.'),
});

/** Answer of `GET /brokerage/eligibility`. */
export const brokerageEligibilitySchema = z.looseObject({
  domain: z.string(),
  eligible: z.boolean(),
  /** Why not: `listed` (buy it instead), `live_site` (the domain runs a live site) or `open_case`; null when eligible. */
  reason: z.string().nullable().optional(),
  message: z.string().optional(),
});

/** Referral link kinds (Partner API spec 2.7). */
export const LINK_KINDS = ['generic', 'domain', 'product'] as const;

/** Body of `POST /links`: a `domain` link names the domain, a `product` link names the product. */
export const createLinkRequestSchema = z
  .strictObject({
    kind: z.enum(LINK_KINDS),
    domain: domainNameSchema.optional(),
    product: z.string().min(1).max(100).optional(),
    label: z.string().max(100).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'domain' && !b.domain)
      ctx.addIssue({ code: 'custom', message: 'a domain link needs domain', path: ['domain'] });
    if (b.kind === 'product' && !b.product)
      ctx.addIssue({ code: 'custom', message: 'a product link needs product', path: ['product'] });
  });

/** A tracked referral link with its click and sale counts. */
export const linkSchema = z.looseObject({
  link_id: z.string(),
  kind: z.string(),
  url: z.string(),
  domain: z.string().nullable().optional(),
  product: z.string().nullable().optional(),
  /** The partner's own name for the link, null when none was given. */
  label: z.string().nullable().optional(),
  clicks: z.number().int().nonnegative(),
  sales: z.number().int().nonnegative(),
  created_at: timestampSchema,
});
export const linkListSchema = listSchema('links', linkSchema);

/** `GET /me/clicks`: click totals in the window (all links), and per link. */
export const clicksReportSchema = z.looseObject({
  from: timestampSchema.nullable(),
  to: timestampSchema.nullable(),
  clicks: z.number().int().nonnegative(),
  by_link: z.array(z.looseObject({ link_id: z.string(), clicks: z.number().int().nonnegative() })),
});

/** A sale attributed to a referral link (`GET /me/sales`): buyer (email masked), domain, amount, commission. */
export const referralSaleSchema = z.looseObject({
  sale_id: z.string(),
  link_id: z.string(),
  domain: z.string(),
  buyer: z.looseObject({ email: z.string().nullable() }),
  amount_cents: centsSchema,
  commission_cents: centsSchema,
  currency: currencySchema,
  status: z.string(),
  created_at: timestampSchema,
});
export const referralSaleListSchema = listSchema('sales', referralSaleSchema);

/** Commission ledger line types (Partner API spec 2.7). */
export const COMMISSION_ENTRY_TYPES = ['accrued', 'reversed', 'paid_out'] as const;

/**
 * A commission ledger line (`GET /me/commissions`): `amount_cents` is signed (accruals positive, reversals and
 * payouts negative) and `balance_cents` is the running balance after this line. An accrual's `status` says what
 * became of it: `pending` (owed, not paid yet), `paid_out` or `reversed`.
 */
export const commissionEntrySchema = z.looseObject({
  entry_id: z.string(),
  type: z.string(),
  status: z.string().nullable().optional(),
  sale_id: z.string().nullable().optional(),
  payout_id: z.string().nullable().optional(),
  amount_cents: z.number().int(),
  balance_cents: z.number().int(),
  currency: currencySchema,
  created_at: timestampSchema,
});

/** Ledger totals over the whole ledger (not just the page); `balance_cents` = accrued − paid out − reversed. */
export const commissionTotalsSchema = z.looseObject({
  accrued_cents: centsSchema,
  pending_cents: centsSchema,
  paid_out_cents: centsSchema,
  reversed_cents: centsSchema,
  balance_cents: z.number().int(),
  currency: currencySchema.optional(),
});
export const commissionListSchema = listSchema('commissions', commissionEntrySchema).extend({
  totals: commissionTotalsSchema.optional(),
});

/** `GET /analytics`: the referral funnel, GMV and commission over a date range. */
export const analyticsSchema = z.looseObject({
  from: timestampSchema.nullable(),
  to: timestampSchema.nullable(),
  currency: currencySchema,
  clicks: z.number().int().nonnegative(),
  sales: z.number().int().nonnegative(),
  /** `sales / clicks`, 0 when there were no clicks. */
  conversion_rate: z.number().nonnegative(),
  gmv_cents: centsSchema,
  commission_cents: centsSchema,
});

/** A date window on the reporting endpoints (`from`, `to`, as on `GET /transactions`). */
export const dateWindowParamsSchema = z.strictObject({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/** A date window without paging (`from`, `to`, ISO 8601), the query of `GET /me/clicks` and `GET /analytics`. */
export const dateRangeParamsSchema = z.strictObject({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
});

/** A report record whose fields the contract does not fix: any JSON object, every field kept. */
export const reportRecordSchema = z.looseObject({});
