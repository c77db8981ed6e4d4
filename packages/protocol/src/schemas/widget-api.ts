/**
 * The widget ↔ BFF API (docs/architecture.md "The widget ↔ BFF API"): what `<dk-domain-search>` and `<dk-buy-button>` send to
 * the partner's BFF and what they get back. The widget imports these as types only.
 */
import { z } from 'zod';
import { centsSchema, currencySchema, domainNameSchema, httpUrlSchema, timestampSchema } from './common.ts';
import { searchQuerySchema } from './discovery.ts';
import { buyerSchema } from './orders.ts';

/** One search result as the widget shows it. */
export const widgetDomainSchema = z.object({
  domain: z.string(),
  available: z.boolean(),
  price_cents: centsSchema.nullable(),
  currency: currencySchema.nullable(),
});
export type WidgetDomain = z.infer<typeof widgetDomainSchema>;

/** `GET /search?q=` input: the query is required and at most 100 characters. */
export const widgetSearchQuerySchema = z.strictObject({ q: searchQuerySchema });

/**
 * `GET /search?q=` answer. `source: "index"` marks names seen recently that match the query, answered when the
 * marketplace's search budget is spent (the widget titles them "Names seen recently"; prices are re-confirmed by
 * the quote or checkout); absent for the marketplace's own answer. An index answer is never empty.
 */
export const widgetSearchResponseSchema = z.object({
  query: z.string(),
  results: z.array(widgetDomainSchema),
  source: z.literal('index').optional(),
});
export type WidgetSearchResponse = z.infer<typeof widgetSearchResponseSchema>;

/** How many alternate-TLD siblings `GET /siblings` answers at most. */
export const WIDGET_SIBLINGS_MAX = 8;

/**
 * One alternate-TLD sibling as the widget shows it (`GET /siblings`): the same label under another TLD, read
 * through the Public API (Public API spec 4.2 `POST /api/domain/search`). `kind` says how it would be bought: `registration`
 * (a new registration at the registry price, `status` `available`) or `listing` (a marketplace listing, `status`
 * `for_sale`). `price_cents` is minor units of `currency`, both `null` when unknown or masked (anonymous Public API
 * callers see no marketplace prices, Public API spec 5.2).
 */
export const widgetSiblingSchema = z.object({
  domain: z.string(),
  tld: z.string(),
  status: z.enum(['available', 'for_sale']),
  available: z.boolean(),
  price_cents: centsSchema.nullable(),
  currency: currencySchema.nullable(),
  kind: z.enum(['registration', 'listing']),
});
export type WidgetSibling = z.infer<typeof widgetSiblingSchema>;

/** `GET /siblings?q=` input: the same `q` as `GET /search`. */
export const widgetSiblingsQuerySchema = widgetSearchQuerySchema;

/**
 * `GET /siblings?q=` answer: the normalised query and at most {@link WIDGET_SIBLINGS_MAX} siblings that can be
 * bought, most popular TLD first (empty when the query cannot be a domain label).
 */
export const widgetSiblingsResponseSchema = z.object({
  query: z.string(),
  siblings: z.array(widgetSiblingSchema).max(WIDGET_SIBLINGS_MAX),
});
export type WidgetSiblingsResponse = z.infer<typeof widgetSiblingsResponseSchema>;

/**
 * `POST /checkout` body: the domain, and optionally where the hosted checkout returns the buyer. The BFF accepts
 * only return and cancel URLs on the partner's configured origins; prices always come from the server side.
 */
export const widgetCheckoutRequestSchema = z.strictObject({
  domain: domainNameSchema,
  return_url: httpUrlSchema.optional(),
  cancel_url: httpUrlSchema.optional(),
});
export type WidgetCheckoutRequest = z.input<typeof widgetCheckoutRequestSchema>;

/** `POST /checkout` answer. */
export const widgetCheckoutResponseSchema = z.object({
  checkout_url: z.string(),
  expires_at: timestampSchema,
});
export type WidgetCheckoutResponse = z.infer<typeof widgetCheckoutResponseSchema>;

/**
 * Error answer of the BFF: `busy` (503) and `rate_limited` (429) carry `retry_after` in seconds; `price_mismatch`
 * (422) carries `price_cents`, the new price the widget shows before asking again; `conflict` (409) for a quote
 * whose order is already in flight carries that order's `order_id` and `status`.
 */
export const widgetErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    retry_after: z.number().int().nonnegative().optional(),
    price_cents: centsSchema.optional(),
    order_id: z.string().optional(),
    status: z.string().optional(),
  }),
});
export type WidgetError = z.infer<typeof widgetErrorSchema>;

/** `POST /quotes` body (MoR): only the domain; the price comes from the marketplace's quote. */
export const widgetQuoteRequestSchema = z.strictObject({ domain: domainNameSchema });
export type WidgetQuoteRequest = z.input<typeof widgetQuoteRequestSchema>;

/** `POST /quotes` answer (201): the price locked for 10 minutes. */
export const widgetQuoteResponseSchema = z.object({
  quote_id: z.string(),
  domain: z.string(),
  price_cents: centsSchema,
  currency: currencySchema,
  expires_at: timestampSchema,
});
export type WidgetQuoteResponse = z.infer<typeof widgetQuoteResponseSchema>;

/**
 * `POST /orders` body (MoR): the quote, the buyer and the payment provider's payload (for the test-card adapter
 * `{"method": "test_card", "card_number": "4242 4242 4242 4242"}`). No price: it always comes from the quote.
 */
export const widgetOrderRequestSchema = z.strictObject({
  quote_id: z.string().trim().min(1).max(500),
  buyer: buyerSchema,
  payment: z.record(z.string(), z.unknown()),
});
export type WidgetOrderRequest = z.input<typeof widgetOrderRequestSchema>;

/**
 * `POST /orders` answer: 201 once the marketplace recorded the order (`status` `EXTERNALLY_PAID`), or 202 with
 * `status` `PROCESSING` when the payment went through and the record is still being retried. `order_token` is the
 * secret the widget sends as `X-Order-Token` to read the order.
 */
export const widgetOrderResponseSchema = z.object({
  order_id: z.string(),
  order_token: z.string(),
  status: z.string(),
  domain: z.string(),
  sale_price_cents: centsSchema,
  currency: currencySchema,
  created_at: timestampSchema,
});
export type WidgetOrderResponse = z.infer<typeof widgetOrderResponseSchema>;

/** `GET /orders/:id` answer (with header `X-Order-Token`). */
export const widgetOrderStatusSchema = z.object({
  order_id: z.string(),
  status: z.string(),
  domain: z.string(),
  sale_price_cents: centsSchema,
  currency: currencySchema,
  updated_at: timestampSchema,
});
export type WidgetOrderStatus = z.infer<typeof widgetOrderStatusSchema>;
