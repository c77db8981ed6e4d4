/**
 * MoR quotes, orders and refunds (Partner API spec 2.1, 2.2, 3, 4.1 "MoR", "Settlement, history, refunds"; scope `buy`).
 * Field names the spec does not show are domainkit's choices (docs/spec-decisions.md).
 */
import { z } from 'zod';
import { centsSchema, currencySchema, domainNameSchema, httpUrlSchema, timestampSchema } from './common.ts';
import { cursorSchema, listSchema, pageLimitSchema } from './lists.ts';
import { policyText, safeTextSchema } from './input-policy.ts';

/**
 * Order statuses. The spec names `EXTERNALLY_PAID`, `TRANSFER_IN_PROGRESS`, `TRANSFER_COMPLETED` and `SETTLED`;
 * the held (manual review), refunded and cancelled names are domainkit's (Partner API spec 3: "not stated").
 */
export const ORDER_STATUSES = [
  'EXTERNALLY_PAID',
  'HELD_FOR_REVIEW',
  'TRANSFER_IN_PROGRESS',
  'TRANSFER_COMPLETED',
  'SETTLED',
  'REFUNDED',
  'CANCELLED',
] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Statuses an order never leaves. */
export const FINAL_ORDER_STATUSES = ['SETTLED', 'REFUNDED', 'CANCELLED'] as const satisfies readonly OrderStatus[];

/**
 * The order state machine (Partner API spec 3; the source states and the held/refunded/cancelled names are domainkit's, see
 * docs/spec-decisions.md): for each status, the statuses it may move to. Anything else is refused with 409
 * `conflict`. Refunds (`REFUNDED`) and cancellations (`CANCELLED`) are only possible before `TRANSFER_COMPLETED`.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  EXTERNALLY_PAID: ['HELD_FOR_REVIEW', 'TRANSFER_IN_PROGRESS', 'REFUNDED', 'CANCELLED'],
  HELD_FOR_REVIEW: ['EXTERNALLY_PAID', 'REFUNDED', 'CANCELLED'],
  TRANSFER_IN_PROGRESS: ['TRANSFER_COMPLETED', 'REFUNDED', 'CANCELLED'],
  TRANSFER_COMPLETED: ['SETTLED'],
  SETTLED: [],
  REFUNDED: [],
  CANCELLED: [],
};

/** Body of `POST /quotes`: the domain to price. */
export const quoteRequestSchema = z.strictObject({ domain: domainNameSchema });
export type QuoteRequest = z.input<typeof quoteRequestSchema>;

/** A quote: the buy-now price locked for 10 minutes under a signed `quote_id` (Partner API spec 2.2). */
export const quoteSchema = z.looseObject({
  quote_id: z.string(),
  domain: z.string(),
  price_cents: centsSchema,
  currency: currencySchema,
  expires_at: timestampSchema,
  created_at: timestampSchema.optional(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** The buyer of a partner-collected sale (Partner API spec 2.1). */
export const buyerSchema = z.strictObject({
  email: policyText(z.string()).pipe(z.email('buyer.email must be an email address')),
  name: safeTextSchema({ max: 200 }).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'buyer.country must be a two-letter ISO 3166-1 code such as "US"')
    .transform((c) => c.toUpperCase())
    .optional(),
});
export type Buyer = z.input<typeof buyerSchema>;

/**
 * Body of `POST /orders` (Partner API spec 2.1): both field sets of the spec are accepted. The signing examples' set sends
 * `domain`, `expected_price` (minor units) with `currency`, `buyer`, `return_url`, `cancel_url`; the endpoint
 * description's set sends `quote_id` and `external_payment_ref`. The domain comes from `domain` or from the quote
 * (a `quote_id` alone is enough); the price from the quote, from `expected_price`, or both (they must agree).
 */
export const createOrderRequestSchema = z
  .strictObject({
    domain: domainNameSchema.optional(),
    quote_id: policyText(z.string().min(1).max(500)).optional(),
    expected_price: centsSchema.optional(),
    currency: currencySchema.optional(),
    buyer: buyerSchema.optional(),
    return_url: httpUrlSchema.optional(),
    cancel_url: httpUrlSchema.optional(),
    external_payment_ref: policyText(z.string().min(1).max(200)).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.domain === undefined && body.quote_id === undefined) {
      ctx.addIssue({ code: 'custom', message: 'send domain, or quote_id (from POST /quotes)', path: ['domain'] });
    }
    if (body.quote_id === undefined && body.expected_price === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'send quote_id (from POST /quotes) or expected_price with currency',
        path: ['quote_id'],
      });
    }
    if (body.expected_price !== undefined && body.currency === undefined) {
      ctx.addIssue({ code: 'custom', message: 'currency is required with expected_price', path: ['currency'] });
    }
  });
export type CreateOrderRequest = z.input<typeof createOrderRequestSchema>;

/** One step of an order's timeline. */
export const timelineEntrySchema = z.looseObject({
  status: z.string(),
  at: timestampSchema,
  event_type: z.string().nullable().optional(),
  /** The id of the event this step emitted (`evt_…`), null when it emitted none. */
  event_id: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** Path of `GET /orders/{public_id}`. */
export const orderParamsSchema = z.strictObject({
  public_id: z
    .string()
    .trim()
    .min(1, 'public_id is required (the order id, such as "ord_…")')
    .max(100)
    .describe('The order id (`public_id`).'),
});

/** An order (Partner API spec 2.1), with its timeline on `GET /orders/{public_id}`. */
export const orderSchema = z.looseObject({
  public_id: z.string(),
  domain: z.string(),
  status: z.string(),
  sale_price_cents: centsSchema,
  currency: currencySchema,
  quote_id: z.string().nullable().optional(),
  external_payment_ref: z.string().nullable().optional(),
  /** The partner's margin kept from the sale (minor units); the service is owed `sale_price_cents` minus this. */
  commission_cents: centsSchema.optional(),
  buyer: z
    .looseObject({
      email: z.string(),
      name: z.string().nullable().optional(),
      country: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  return_url: z.string().nullable().optional(),
  cancel_url: z.string().nullable().optional(),
  created_at: timestampSchema.optional(),
  updated_at: timestampSchema.optional(),
  /** When the transfer to the buyer completed (`COMPLETED`), null before. */
  transfer_completed_at: timestampSchema.nullable().optional(),
  /** When the order was settled (`SETTLED`), null before. */
  settled_at: timestampSchema.nullable().optional(),
  /** The settlement that paid the order out (`GET /settlements`), null before. */
  settlement_id: z.string().nullable().optional(),
  timeline: z.array(timelineEntrySchema).optional(),
});
export type Order = z.infer<typeof orderSchema>;

/** Query of `GET /orders`: filters and cursor paging (names not shown by the spec). */
export const listOrdersParamsSchema = z.strictObject({
  status: orderStatusSchema.optional(),
  domain: domainNameSchema.optional(),
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
export type ListOrdersParams = z.input<typeof listOrdersParamsSchema>;

export const orderListSchema = listSchema('orders', orderSchema);
export type OrderList = z.infer<typeof orderListSchema>;

/** Body of `POST /refunds`: a refund or clawback before `TRANSFER_COMPLETED` (Partner API spec 3, 4.1). */
export const refundRequestSchema = z.strictObject({
  order_id: policyText(z.string().min(1).max(200)),
  reason: safeTextSchema({ min: 0, max: 500, multiline: true }).optional(),
});
export type RefundRequest = z.input<typeof refundRequestSchema>;

/** A refund. */
export const refundSchema = z.looseObject({
  refund_id: z.string(),
  order_id: z.string(),
  amount_cents: centsSchema,
  currency: currencySchema,
  status: z.string(),
  reason: z.string().nullable().optional(),
  created_at: timestampSchema,
  /** The order after the refund (status `REFUNDED`). */
  order: orderSchema.optional(),
});
export type Refund = z.infer<typeof refundSchema>;
