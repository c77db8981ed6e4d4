/**
 * Wire types of the widget ↔ BFF API (docs/architecture.md "The widget ↔ BFF API").
 *
 * The widget declares its own small interfaces instead of importing `@domainkit/protocol`: it must not
 * depend on any of our packages at run time, and these are the only shapes it reads. `test-node/wire-types.test-d.ts`
 * pins each of them to protocol's schema of the same answer, so the two cannot drift. Money is integer
 * minor units (`price_cents`) plus an ISO 4217 `currency` code; only the widget formats it.
 */

/** One domain as the BFF answers it in `GET /search` and `GET /domains/:name`. */
export interface WidgetDomain {
  /** Fully qualified name, e.g. `coffeehouse.com`; its ASCII form for an internationalised name (`xn--…`). */
  readonly domain: string;
  /**
   * The name as a person reads it when that is not `domain`: an internationalised name in Unicode (`münchen.de` for
   * `xn--mnchen-3ya.de`). Absent (and from older BFFs): show `domain`. Never sent back: requests use `domain`.
   */
  readonly display_name?: string | undefined;
  /** Whether the domain can be bought now. */
  readonly available: boolean;
  /** Buy-now price in minor units of `currency` (cents for USD); `null` when the domain has no price. */
  readonly price_cents: number | null;
  /** ISO 4217 code of `price_cents`, e.g. `USD`; `null` when there is no price. */
  readonly currency: string | null;
}

/** Body of `GET {api}/search?q=` (200). */
export interface SearchResponse {
  /** The query the BFF searched for. */
  readonly query: string;
  /** Matching domains, at most 5, best first. */
  readonly results: readonly WidgetDomain[];
  /**
   * `index` when the BFF answered from the names it saw recently (its search budget was spent): title the list
   * "Names seen recently"; the price is re-confirmed by the quote or checkout. Absent for a marketplace answer.
   */
  readonly source?: 'index' | undefined;
}

/**
 * One alternate-TLD sibling from `GET {api}/siblings?q=`: the visitor's word under another TLD, read by the BFF
 * through the marketplace's Public API. `kind` `registration` is a new registration at the registry price,
 * `listing` a marketplace listing (its price is usually hidden: `null`).
 */
export interface Sibling {
  /** Fully qualified name, e.g. `coffee.io`. */
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  readonly tld: string;
  /** `available` (can be registered) or `for_sale` (listed on the marketplace). */
  readonly status: 'available' | 'for_sale';
  readonly available: boolean;
  /** Price in minor units of `currency`; `null` when unknown or hidden. */
  readonly price_cents: number | null;
  readonly currency: string | null;
  /** `registration` (a new registration at the registry price) or `listing` (a marketplace listing). */
  readonly kind: 'registration' | 'listing';
}

/**
 * Where the very domain the visitor typed stands (`GET {api}/siblings?q=`, its `domain`, from the Public API's
 * search): `available` (nobody registered it), `for_sale` (listed on the marketplace) or `registered` (taken).
 */
export interface ExactDomain {
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  readonly status: 'available' | 'for_sale' | 'registered';
}

/** The answer of `GET {api}/siblings?q=` as the widget reads it. */
export interface SiblingsAnswer {
  readonly siblings: readonly Sibling[];
  /** The typed domain's standing when the query was a whole domain and the BFF said; else `null`. */
  readonly domain: ExactDomain | null;
}

/**
 * The answer of `GET {api}/whois?domain=`: who holds a domain, from WHOIS/RDAP (Public API spec 4.2). `registrar` is
 * the registrar's name, `registered_at` the registration date (ISO 8601); each `null` when the record does not say.
 */
export interface WhoisAnswer {
  readonly domain: string;
  readonly registered: boolean;
  readonly registrar: string | null;
  readonly registered_at: string | null;
}

/** Body of `POST {api}/checkout` (201): a hosted checkout session on the marketplace (non-MoR). */
export interface CheckoutSession {
  /** The marketplace's hosted checkout page (the lander) for this session; the visitor is sent there. */
  readonly checkout_url: string;
  /** ISO 8601 UTC time after which `checkout_url` no longer works (7 days, Partner API spec section 8). */
  readonly expires_at: string;
  /**
   * The session's price in minor units of `currency` (the marketplace's current one); absent from older BFFs (read
   * as `null`).
   */
  readonly price_cents?: number;
  /** ISO 4217 code of `price_cents`. */
  readonly currency?: string;
}

/**
 * What became of the buyer's money in a MoR purchase that did not end in an order (or not yet): `not_charged`
 * (nothing was taken), `refunded`, `refund_pending` (taken; the refund is still to be made), `unknown` (not known
 * yet: if it was taken, the order is completed or the payment refunded automatically).
 */
export type WidgetMoney = 'not_charged' | 'refunded' | 'refund_pending' | 'unknown';

/** Error body of every BFF route answering 4xx/5xx: `{"error": {"code", "message"}}`. */
export interface BffErrorBody {
  readonly error: {
    readonly code: WidgetErrorCode;
    readonly message: string;
    /** Seconds to wait before retrying; sent with 503 `busy`. */
    readonly retry_after?: number;
    /** The current price in minor units; sent with 422 `price_mismatch`. */
    readonly price_cents?: number;
    /** With 409 `order_in_progress` (an order of this quote already in flight) or a refused retry: that order's id. */
    readonly order_id?: string;
    /** With 409 `order_in_progress` or a refused retry: where that order stands. */
    readonly status?: string;
    /** With 400 `query_too_long`: the longest query accepted, in characters. */
    readonly max_length?: number;
    /** With every failed `POST /orders`: what became of the buyer's money. */
    readonly money?: WidgetMoney;
    /** With 409 `conflict` of `POST /brokerage`: why the name cannot be brokered. */
    readonly reason?: string;
    /** With 400 `validation_error` of `POST /brokerage` for a budget under the minimum: that minimum (minor units). */
    readonly min_budget_cents?: number;
  };
}

/**
 * The BFF's error codes (protocol's `WIDGET_ERROR_CODES`): each has a string in `DkStrings` (see `strings.ts`
 * `errorMessage`); a code not in this list gets the generic `unknownError`.
 */
export type WidgetErrorCode =
  | 'validation_error'
  | 'return_url_not_allowed'
  | 'query_too_long'
  | 'payment_declined'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'order_in_progress'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'quote_expired'
  | 'price_mismatch'
  | 'rate_limited'
  | 'internal_error'
  | 'upstream_error'
  | 'payment_error'
  | 'busy'
  | 'unavailable'
  | 'upstream_timeout';

/** Body of `POST {api}/quotes` (201, MoR order mode): a price locked for 10 minutes. */
export interface WidgetQuoteResponse {
  /** Identifier to send back in `POST /orders`. */
  readonly quote_id: string;
  /** The domain the price is locked for. */
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  /** The locked price in minor units of `currency`. */
  readonly price_cents: number;
  /** ISO 4217 code of `price_cents`. */
  readonly currency: string;
  /** ISO 8601 UTC time when the lock ends (10 minutes after creation). */
  readonly expires_at: string;
}

/**
 * Every answer of `POST {api}/quotes`: a new quote (201), or, when the request carried the purchase key of this
 * visitor's attempt whose order for the domain is in flight or placed, that order (200, a fresh `order_token`):
 * the widget then shows its status rather than a new price to pay. Told apart by `order_id`.
 */
export type WidgetQuoteAnswer = WidgetQuoteResponse | WidgetOrderResponse;

/** The buyer of a MoR order, as the partner's payment form collected it. */
export interface Buyer {
  /** Where the marketplace and the partner reach the buyer. Required. */
  readonly email: string;
  readonly name?: string;
  /** ISO 3166-1 alpha-2 country code, e.g. `DE`. */
  readonly country?: string;
}

/**
 * What the partner hands to `placeOrder()`: the buyer and the payment payload of its payment-provider
 * adapter (the demo's test card: `{"method": "test_card", "card_number": "4242 4242 4242 4242"}`). The
 * widget passes `payment` through untouched; it never sends a price (the BFF takes it from the quote).
 */
export interface OrderDetails {
  readonly buyer: Buyer;
  readonly payment: Readonly<Record<string, unknown>>;
}

/** Body of `GET {api}/orders/:id` (200): where a MoR order stands. */
export interface WidgetOrderStatus {
  readonly order_id: string;
  /** The order's status, e.g. `EXTERNALLY_PAID` (Partner API spec section 3). */
  readonly status: string;
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  /** What the buyer paid, in minor units of `currency`. */
  readonly sale_price_cents: number;
  readonly currency: string;
  /** ISO 8601 UTC time of the order's last change. */
  readonly updated_at: string;
  /** With `status` `REFUNDED` or `FAILED` (the purchase ended without an order): what became of the money. */
  readonly money?: WidgetMoney;
}

/**
 * Body of `POST {api}/orders` (201, or 202 with `status` `PROCESSING` while the paid order is still being recorded):
 * the order, plus the token that lets this visitor read it.
 */
export interface WidgetOrderResponse {
  readonly order_id: string;
  /** Sent as `X-Order-Token` to `GET /orders/:id`; only this visitor has it. */
  readonly order_token: string;
  /** `EXTERNALLY_PAID` once recorded (Partner API spec section 3), `PROCESSING` while the BFF still retries the record. */
  readonly status: string;
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  /** What the buyer paid, in minor units of `currency`. */
  readonly sale_price_cents: number;
  readonly currency: string;
  /** ISO 8601 UTC time the order was created. */
  readonly created_at: string;
}

/** `GET /brokerage/eligibility?domain=` answer (protocol's `widgetBrokerageEligibilitySchema`). */
export interface WidgetBrokerageEligibility {
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  readonly eligible: boolean;
  /** Why not: `live_site`, `listed`, `open_case` (or a reason a newer BFF knows); null when eligible. */
  readonly reason: string | null;
  /** The tier the shop's cases are opened with (`managed` or `self_serve`). */
  readonly tier: string;
  /** ISO 4217 code of the budget. */
  readonly currency: string;
  /** The smallest budget the shop accepts, in minor units of `currency`. */
  readonly min_budget_cents: number;
}

/** `POST /brokerage` body (protocol's `widgetBrokerageRequestSchema`). */
export interface WidgetBrokerageRequest {
  readonly domain: string;
  readonly buyer_email: string;
  /** Minor units (cents) of the shop's currency. */
  readonly budget_cents: number;
  readonly consent: true;
  readonly locale?: string;
}

/** `POST /brokerage` answer (protocol's `widgetBrokerageCaseSchema`). */
export interface WidgetBrokerageCase {
  readonly case_id: string;
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see {@link WidgetDomain.display_name}). */
  readonly display_name?: string | undefined;
  readonly status: string;
  readonly tier: string;
  readonly budget_cents: number;
  readonly currency: string;
  /** The buyer's no-login progress page (absolute http(s) URL). */
  readonly progress_url: string;
  readonly created_at: string;
}
