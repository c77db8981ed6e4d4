/**
 * Settlement, history, payouts, brokerage and referral records (spec 2.6, 2.7, 4.1). The spec shows no fields
 * beyond their descriptions; these names are domainkit's (docs/spec-decisions.md). Responses keep unknown fields.
 */
import { z } from 'zod';
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
  totals: z.looseObject({ gmv_cents: centsSchema, commission_cents: centsSchema, count: z.number().int() }).optional(),
});

/** The payment models of spec 1. */
export const PAYMENT_MODELS = ['mor', 'non_mor', 'brokerage'] as const;

/** Query of `GET /transactions` (spec 4.1 names `from`, `to`, `status`, `payment_model`). */
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
});
export const payoutListSchema = listSchema('payouts', payoutSchema);

/** Brokerage tiers (spec 2.6). */
export const BROKERAGE_TIERS = ['managed', 'self_serve'] as const;

/** Body of `POST /brokerage` (spec 2.6): `budget` is in minor units (cents) of USD. */
export const createBrokerageCaseRequestSchema = z.strictObject({
  domain: domainNameSchema,
  tier: z.enum(BROKERAGE_TIERS, { error: 'tier must be "managed" or "self_serve"' }),
  buyer_email: z.email('buyer_email must be an email address'),
  budget: centsSchema,
  currency: z.literal('USD').optional(),
});

/** A brokerage case (spec 2.6), with `progress_url`: the buyer's no-login progress page. */
export const brokerageCaseSchema = z.looseObject({
  case_id: z.string(),
  domain: z.string(),
  tier: z.string(),
  status: z.string(),
  budget_cents: centsSchema,
  currency: currencySchema,
  progress_url: z.string(),
  created_at: timestampSchema,
  timeline: z.array(z.looseObject({ status: z.string(), at: timestampSchema })).optional(),
});
export const brokerageCaseListSchema = listSchema('cases', brokerageCaseSchema);

/** Answer of `GET /brokerage/eligibility`. */
export const brokerageEligibilitySchema = z.looseObject({
  domain: z.string(),
  eligible: z.boolean(),
  reason: z.string().nullable().optional(),
});

/** Referral link kinds (spec 2.7). */
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
    if (b.kind === 'domain' && !b.domain) ctx.addIssue({ code: 'custom', message: 'a domain link needs domain', path: ['domain'] });
    if (b.kind === 'product' && !b.product) ctx.addIssue({ code: 'custom', message: 'a product link needs product', path: ['product'] });
  });

/** A tracked referral link with its click and sale counts. */
export const linkSchema = z.looseObject({
  link_id: z.string(),
  kind: z.string(),
  url: z.string(),
  domain: z.string().nullable().optional(),
  product: z.string().nullable().optional(),
  clicks: z.number().int().nonnegative(),
  sales: z.number().int().nonnegative(),
  created_at: timestampSchema,
});
export const linkListSchema = listSchema('links', linkSchema);

/** A date window on the reporting endpoints (`from`, `to`, as on `GET /transactions`). */
export const dateWindowParamsSchema = z.strictObject({
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
