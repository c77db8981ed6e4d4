/**
 * The widget ↔ BFF API (docs/architecture.md "The widget ↔ BFF API"): what `<dk-domain-search>` and `<dk-buy-button>` send to
 * the partner's BFF and what they get back. The widget imports these as types only.
 */
import { z } from 'zod';
import {
  centsSchema,
  currencySchema,
  domainNameSchema,
  httpUrlSchema,
  languageTagSchema,
  timestampSchema,
} from './common.ts';
import { searchQuerySchema } from './discovery.ts';
import { buyerSchema } from './orders.ts';

/**
 * `display_name` beside a `domain` in the BFF's answers: the name as a person reads it, when that is not `domain`
 * itself: an internationalised name (RFC 5890) in Unicode, `münchen.de` for `xn--mnchen-3ya.de`, when the BFF's
 * display rule allows it (UTS #46 valid, one script per label, no whole-script lookalike of a Latin name; see
 * docs/spec-decisions.md, "Widget: internationalised names shown in Unicode"). Absent: show `domain`. Only for
 * showing: every request names the domain by `domain`, its ASCII form.
 */
export const displayNameSchema = z.string().optional();

/** One search result as the widget shows it (`display_name`: see {@link displayNameSchema}). */
export const widgetDomainSchema = z.object({
  domain: z.string(),
  display_name: displayNameSchema,
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
  display_name: displayNameSchema,
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
 * Where the very domain the visitor typed stands on the Public API (Public API spec 4.2 `POST /api/domain/search`,
 * its `domain`): `available` (unregistered: any registrar can register it), `for_sale` (listed on the marketplace) or
 * `registered` (taken). A status the service adds later is left out (the answer has no `domain` then).
 */
export const widgetExactDomainSchema = z.object({
  domain: z.string(),
  display_name: displayNameSchema,
  status: z.enum(['available', 'for_sale', 'registered']),
});
export type WidgetExactDomain = z.infer<typeof widgetExactDomainSchema>;

/**
 * `GET /siblings?q=` answer: the normalised query and at most {@link WIDGET_SIBLINGS_MAX} siblings that can be
 * bought, most popular TLD first (empty when the query cannot be a domain label). `domain`: when the query is a
 * whole domain name (`live-site.com`), where that name stands ({@link widgetExactDomainSchema}), `null` when the
 * Public API did not say; absent for a bare word and from BFFs older than the field.
 */
export const widgetSiblingsResponseSchema = z.object({
  query: z.string(),
  siblings: z.array(widgetSiblingSchema).max(WIDGET_SIBLINGS_MAX),
  domain: widgetExactDomainSchema.nullable().optional(),
});
export type WidgetSiblingsResponse = z.infer<typeof widgetSiblingsResponseSchema>;

/** `GET /whois?domain=` input: one domain name (letters, digits, inner hyphens; lowercased). */
export const widgetWhoisQuerySchema = z.strictObject({ domain: domainNameSchema });

/**
 * `GET /whois?domain=` answer: who holds a domain, from its WHOIS/RDAP record (Public API spec 4.2
 * `POST /api/tools/whois`, RFC 9083 terms). `registrar`: the sponsoring registrar's name; `registered_at`: the RDAP
 * `registration` event (ISO 8601); each `null` when the record does not say (and both for a name nobody registered).
 * The registrant is never passed on: registries redact it for natural persons, and a shop has no use for it.
 */
export const widgetWhoisResponseSchema = z.object({
  domain: z.string(),
  registered: z.boolean(),
  registrar: z.string().nullable(),
  registered_at: z.string().nullable(),
});
export type WidgetWhoisResponse = z.infer<typeof widgetWhoisResponseSchema>;

/**
 * A path on the page's own site, such as `/thanks?from=search`: starts with one `/` (never `//` or `/\`, which
 * would name another host), at most 2,000 characters, no whitespace, control character or backslash.
 */
export const returnPathSchema = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .regex(/^\/(?![/\\])[^\s\\\p{Cc}]*$/u, 'must be a path such as "/thanks" or an absolute http(s) URL');

/**
 * `POST /checkout` body: the domain, and optionally where the hosted checkout returns the buyer: an absolute URL on
 * one of the partner's return origins, or a path (resolved against the page's origin, when that origin is one of
 * them). Anything else is refused with 400 `return_url_not_allowed`; prices always come from the server side.
 * `locale`: the page's language (the element's `locale`, else the nearest `lang`), passed on to the checkout session.
 */
export const widgetCheckoutRequestSchema = z.strictObject({
  domain: domainNameSchema,
  return_url: z.union([returnPathSchema, httpUrlSchema]).optional(),
  cancel_url: z.union([returnPathSchema, httpUrlSchema]).optional(),
  locale: languageTagSchema.optional(),
});
export type WidgetCheckoutRequest = z.input<typeof widgetCheckoutRequestSchema>;

/**
 * `POST /checkout` answer: the hosted checkout session, and its price (the marketplace's current one, in cents of
 * `currency`; absent from BFFs older than the field), which the widget shows in place of a price it listed before.
 */
export const widgetCheckoutResponseSchema = z.object({
  checkout_url: z.string(),
  expires_at: timestampSchema,
  price_cents: centsSchema.optional(),
  currency: currencySchema.optional(),
});
export type WidgetCheckoutResponse = z.infer<typeof widgetCheckoutResponseSchema>;

/** One field of a signed checkout return as the query carries it: a non-empty string of at most 256 characters. */
const returnField = z.string().min(1).max(256);

/**
 * `GET /checkout/return` query: the hosted checkout's signed result, which the lander appends to the session's
 * `return_url` and the widget forwards as it finds it (`checkout-return.ts`; docs/spec-decisions.md, "Hosted
 * checkout: the return journey"). Other parameters, such as the shop's own on its return URL, are allowed and
 * ignored. The BFF answers 400 `validation_error` for a query that does not match, or whose `sig` does not verify.
 */
export const widgetCheckoutReturnQuerySchema = z.object({
  checkout_session_id: returnField,
  status: z.literal('paid'),
  domain: returnField,
  /** What the buyer paid, in minor units of `currency` (decimal digits). */
  price_cents: z.string().regex(/^\d{1,15}$/, 'must be whole cents'),
  currency: returnField,
  /** When the lander signed it (Unix seconds); valid for a day. */
  ts: z.string().regex(/^\d{1,12}$/, 'must be Unix time in seconds'),
  /** Lowercase hex HMAC-SHA256 of the six fields with the partner's API secret. */
  sig: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
});
export type WidgetCheckoutReturnQuery = z.input<typeof widgetCheckoutReturnQuerySchema>;

/** `GET /checkout/return` answer (200): the sale the BFF verified (`Cache-Control: no-store`). */
export const widgetCheckoutReturnResponseSchema = z.object({
  checkout_session_id: z.string(),
  status: z.literal('paid'),
  domain: z.string(),
  display_name: displayNameSchema,
  price_cents: centsSchema,
  currency: currencySchema,
});
export type WidgetCheckoutReturnResponse = z.infer<typeof widgetCheckoutReturnResponseSchema>;

/**
 * Every error code of the widget ↔ BFF API, with its HTTP status, when it is answered, and whether the same
 * request may succeed if sent again later (`retry`). The codes are stable: a widget maps each to a string of
 * its own (the `message` beside it is English for developers and logs, never meant to be shown to a visitor),
 * and treats a code it does not know by its status. docs/spec-decisions.md "Widget error codes".
 */
export const WIDGET_ERROR_CODES = {
  validation_error: {
    status: 400,
    retry: false,
    when: 'A query parameter, path segment or body field is missing or malformed; the message names it.',
  },
  return_url_not_allowed: {
    status: 400,
    retry: false,
    when: "`return_url` or `cancel_url` of `POST /checkout` is not on one of the shop's return origins (or is a path, and the page's origin is not one of them either).",
  },
  query_too_long: {
    status: 400,
    retry: false,
    when: '`q` of `GET /search` or `GET /siblings` is over 100 characters (after trimming); `max_length` is 100.',
  },
  payment_declined: {
    status: 402,
    retry: false,
    when: 'The payment provider declined the payment; nothing was charged.',
  },
  forbidden: {
    status: 403,
    retry: false,
    when: "A cross-site write: an `Origin` that is neither the BFF's nor an allowed one.",
  },
  not_found: {
    status: 404,
    retry: false,
    when: 'The domain is not listed, or the quote or order is unknown (or its order token does not match).',
  },
  method_not_allowed: {
    status: 405,
    retry: false,
    when: 'The path exists, but not with this method (`Allow` says which).',
  },
  conflict: {
    status: 409,
    retry: false,
    when: 'The domain was sold or reserved meanwhile; or a retried purchase that the marketplace refused (with `order_id`, `status`); or the purchase key (`Idempotency-Key`) belongs to a purchase of another quote (nothing revealed, nothing charged).',
  },
  order_in_progress: {
    status: 409,
    retry: false,
    when: "An order for this quote is already in flight or placed (without this purchase's key); `order_id` and `status` say which: show it, never pay again.",
  },
  payload_too_large: { status: 413, retry: false, when: 'The body is over the size limit (16 kB).' },
  unsupported_media_type: { status: 415, retry: false, when: 'The body is not `application/json`.' },
  quote_expired: {
    status: 422,
    retry: false,
    when: 'The quote expired (or was refused as expired upstream): ask for a new one.',
  },
  price_mismatch: { status: 422, retry: false, when: 'The price changed; `price_cents` is the new price.' },
  rate_limited: {
    status: 429,
    retry: true,
    when: 'This visitor sent too many requests; retry after `retry_after` seconds.',
  },
  internal_error: { status: 500, retry: true, when: 'A defect in the BFF.' },
  upstream_error: {
    status: 502,
    retry: true,
    when: 'The marketplace failed, refused the credential, or could not be reached.',
  },
  payment_error: {
    status: 502,
    retry: true,
    when: "The payment provider could not confirm the payment (outcome unknown; settled automatically): a retry with the same purchase key answers the order's status.",
  },
  busy: {
    status: 503,
    retry: true,
    when: 'The shared upstream budget is spent (or the marketplace said 429); retry after `retry_after` seconds.',
  },
  unavailable: { status: 503, retry: true, when: "The BFF's database is not available (starting, or down)." },
  upstream_timeout: {
    status: 504,
    retry: true,
    when: "The request passed the BFF's deadline (the marketplace is slow or hanging); try again shortly.",
  },
} as const satisfies Record<string, { status: number; retry: boolean; when: string }>;

/** An error code of the widget ↔ BFF API (see {@link WIDGET_ERROR_CODES}). */
export type WidgetErrorCode = keyof typeof WIDGET_ERROR_CODES;

/** The codes of {@link WIDGET_ERROR_CODES}, as a list. */
export const widgetErrorCodes = Object.keys(WIDGET_ERROR_CODES) as [WidgetErrorCode, ...WidgetErrorCode[]];

/**
 * What became of the buyer's money in a MoR purchase that did not end in an order (or not yet), so the widget can say
 * it exactly once: `not_charged` (nothing was taken: refused before any payment step, declined, or the authorization
 * released), `refunded` (taken, then refunded), `refund_pending` (taken; the refund is still to be made), `unknown`
 * (the payment's outcome is not known yet: if it was taken, the order is completed or the payment refunded
 * automatically).
 */
export const widgetMoneySchema = z.enum(['not_charged', 'refunded', 'refund_pending', 'unknown']);
export type WidgetMoney = z.infer<typeof widgetMoneySchema>;

/**
 * Error answer of the BFF: `code` is one of {@link WIDGET_ERROR_CODES}; `busy` (503) and `rate_limited` (429)
 * carry `retry_after` in seconds; `price_mismatch` (422) carries `price_cents`, the new price the widget shows
 * before asking again; `order_in_progress` (409), and `conflict` for a retried purchase that was refused, carry
 * that order's `order_id` and `status`; `query_too_long` carries `max_length`. Every failed `POST /orders`
 * carries `money` ({@link widgetMoneySchema}).
 */
export const widgetErrorSchema = z.object({
  error: z.object({
    code: z.enum(widgetErrorCodes),
    message: z.string(),
    retry_after: z.number().int().nonnegative().optional(),
    price_cents: centsSchema.optional(),
    order_id: z.string().optional(),
    status: z.string().optional(),
    max_length: z.number().int().positive().optional(),
    money: widgetMoneySchema.optional(),
    /** `conflict` of `POST /brokerage`: why the name cannot be brokered (`listed`, `live_site`, `open_case`). */
    reason: z.string().optional(),
    /** `validation_error` of `POST /brokerage` for a budget under the shop's minimum: that minimum (minor units). */
    min_budget_cents: centsSchema.optional(),
  }),
});
export type WidgetError = z.infer<typeof widgetErrorSchema>;

/**
 * `POST /quotes` body (MoR): the domain; the price comes from the marketplace's quote. `quote_id`, sent with the
 * purchase key (`Idempotency-Key`) of an attempt still open, is that attempt's quote: when the key and this quote
 * started an order in flight or placed, the BFF answers 200 with that order instead of a new quote. The key alone,
 * or with another quote, finds nothing.
 */
export const widgetQuoteRequestSchema = z.strictObject({
  domain: domainNameSchema,
  quote_id: z.string().trim().min(1).max(500).optional(),
});
export type WidgetQuoteRequest = z.input<typeof widgetQuoteRequestSchema>;

/** `POST /quotes` answer (201): the price locked for 10 minutes. */
export const widgetQuoteResponseSchema = z.object({
  quote_id: z.string(),
  domain: z.string(),
  display_name: displayNameSchema,
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
  display_name: displayNameSchema,
  sale_price_cents: centsSchema,
  currency: currencySchema,
  created_at: timestampSchema,
});
export type WidgetOrderResponse = z.infer<typeof widgetOrderResponseSchema>;

/**
 * Every `POST /quotes` answer: 201 with a new quote ({@link widgetQuoteResponseSchema}), or 200 with an order
 * ({@link widgetOrderResponseSchema}: its status and a fresh `order_token`) when the request carries the purchase
 * key (`Idempotency-Key`) of the visitor's attempt whose order for that domain is in flight or placed. The widget
 * then shows that order's status rather than a new quote to pay. Tell them apart by `order_id`.
 */
export const widgetQuoteAnswerSchema = z.union([widgetQuoteResponseSchema, widgetOrderResponseSchema]);
export type WidgetQuoteAnswer = z.infer<typeof widgetQuoteAnswerSchema>;

/**
 * `GET /orders/:id` answer (with header `X-Order-Token`). A purchase that ended without an order (`status` `REFUNDED`
 * or `FAILED`) carries `money`, what became of the payment ({@link widgetMoneySchema}).
 */
export const widgetOrderStatusSchema = z.object({
  order_id: z.string(),
  status: z.string(),
  domain: z.string(),
  display_name: displayNameSchema,
  sale_price_cents: centsSchema,
  currency: currencySchema,
  updated_at: timestampSchema,
  money: widgetMoneySchema.optional(),
});
export type WidgetOrderStatus = z.infer<typeof widgetOrderStatusSchema>;

/**
 * `GET /orders/:id/status?after=&wait=` answer (with header `X-Order-Token`): the order's status as
 * {@link widgetOrderStatusSchema}, its `version` (opaque digits: pass it back as `after` to wait for the next change)
 * and `final` (true once the order can no longer change: `SETTLED`, `REFUNDED`, `CANCELLED`, `FAILED`).
 */
export const widgetOrderTrackSchema = widgetOrderStatusSchema.extend({
  version: z.string(),
  final: z.boolean(),
});
export type WidgetOrderTrack = z.infer<typeof widgetOrderTrackSchema>;
