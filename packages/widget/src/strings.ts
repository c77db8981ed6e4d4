/**
 * Every string the widget shows or announces, in one replaceable object. Each element has a `strings`
 * property taking a partial override, e.g. `el.strings = { buy: 'Kaufen' }`; what is not given keeps the
 * English default below. Prices and countdowns are passed in already formatted for the element's locale.
 */
export interface DkStrings {
  /** Label of the search box when neither the `label` attribute nor the `label` slot is given. */
  readonly searchLabel: string;
  /** Placeholder of the search box when the `placeholder` attribute is not set. */
  readonly searchPlaceholder: string;
  /** Accessible name of the results grid. */
  readonly resultsLabel: string;
  /** Shown (and announced) while the box holds text under the minimum length (`min`, in characters). */
  readonly tooShort: (min: number) => string;
  /** Shown while a search is in flight. */
  readonly searching: string;
  /** Announced (live region) when results arrive. */
  readonly resultCount: (count: number) => string;
  /** Shown and announced when a search matches nothing. */
  readonly noResults: (query: string) => string;
  /** Badge of a domain that can be bought. */
  readonly available: string;
  /** Badge of a domain that cannot be bought (sold or not listed). */
  readonly unavailable: string;
  /** The button that repeats a failed search or call. */
  readonly retry: string;
  /** Visible text of a buy button. */
  readonly buy: string;
  /** Accessible name of the buy button of one search result. */
  readonly buyDomain: (domain: string) => string;
  /** Title of the alternate-TLD list under the results (`siblings` attribute). */
  readonly siblingsTitle: string;
  /**
   * Status of an alternate-TLD name nobody registered: where it can be had (any registrar), since the shop sells
   * listed names only (no price is shown for it).
   */
  readonly siblingRegistration: string;
  /** Status of an alternate-TLD name listed for sale on the marketplace (the row has its Buy). */
  readonly siblingListing: string;
  /*
   * The verdict on a whole domain the visitor typed (`domain` is already isolated for a right-to-left page).
   */
  /** The typed domain is among the results and can be bought (its row is listed first, with its Buy). */
  readonly verdictListed: (domain: string) => string;
  /** The typed domain is listed on the marketplace but was not among the results (a Buy button follows). */
  readonly verdictForSale: (domain: string) => string;
  /** The typed domain is registered by someone (the Public API's search) or was just sold, and not for sale here. */
  readonly verdictTaken: (domain: string) => string;
  /** Nobody registered the typed domain: the shop cannot sell it, any registrar can register it. */
  readonly verdictUnregistered: (domain: string) => string;
  /** The typed domain is not listed here, and its standing is unknown (the BFF did not say). */
  readonly verdictUnlisted: (domain: string) => string;
  /** Under a verdict of a name not for sale here, above the results when every one of them can be bought. */
  readonly verdictAlternatives: string;
  /**
   * Under a verdict of a name not for sale here, above the results when some can be bought and others cannot (a
   * name sold or reserved since: its row says so), instead of {@link DkStrings.verdictAlternatives}.
   */
  readonly verdictSimilar: string;
  /** The button asking who holds a taken name (its WHOIS/RDAP record). */
  readonly whoisButton: string;
  /** That button while the lookup is in flight. */
  readonly whoisLoading: string;
  /** The lookup's answer: the registrar's name and the registration date (formatted; `''` when unknown). */
  readonly whoisHeld: (registrar: string, date: string) => string;
  /** The lookup's answer when the record names no registrar. */
  readonly whoisPrivate: string;
  /** The button that closes the full-screen search panel on a phone (focus goes back to the search box). */
  readonly closeSearch: string;
  /** Title of the visitor's recent searches, listed when the empty search box has focus. */
  readonly recentSearches: string;
  /** The button that removes every recent search (its accessible description is `recentSearches`). */
  readonly clearRecent: string;
  /** Accessible name of the button that removes one recent search. */
  readonly removeRecent: (query: string) => string;
  /** Announced when the recent searches are listed: how many, and how to reach them. */
  readonly recentCount: (count: number) => string;
  /** Announced when one recent search was removed. */
  readonly recentRemoved: (query: string) => string;
  /** Announced when the recent searches were all removed. */
  readonly recentCleared: string;
  /** Error shown when the BFF could not be reached. */
  readonly networkError: string;
  /**
   * Shown for `bff_unreachable` and `bff_misconfigured`: the site's domain service is set up wrong or down (the
   * details are in the browser console for the site's developer), nothing the visitor can fix.
   */
  readonly serviceUnavailable: string;
  /** Shown (state `offline`) when the browser says it has no network. */
  readonly offline: string;
  /** Shown (state `busy`) while waiting out the BFF's `retry_after`; `seconds` counts down. */
  readonly busy: (seconds: number) => string;
  /** Error shown when the BFF answered something the widget cannot read. */
  readonly invalidResponse: string;
  /*
   * The error strings below are keyed by the error's code in camelCase (`query_too_long` → `queryTooLong`), see
   * `errorMessage`; codes without a key of their own show `unknownError`.
   */
  /** `upstream_timeout`: no answer in time (the widget's own 20 s deadline, or the BFF's). Retry is offered. */
  readonly upstreamTimeout: string;
  /** `query_too_long`: the search is over 100 characters. No Retry (it would fail the same way). */
  readonly queryTooLong: string;
  /** `validation_error`: something the visitor entered cannot be used. No Retry. */
  readonly validationError: string;
  /** `not_found` (when buying): the domain is not, or no longer, listed. */
  readonly notFound: string;
  /** `conflict` (when buying): the domain was sold or reserved meanwhile. */
  readonly conflict: string;
  /**
   * `domain_reserved` (when buying): the marketplace refused the purchase (`conflict`) but still lists the domain:
   * another buyer's price lock holds it (Partner API spec 2.2: 10 minutes). Never "sold". Shown with the `reserved`
   * badge in place of "Available" and no Buy button.
   */
  readonly domainReserved: string;
  /** Badge of a domain another buyer's price lock holds (in place of `available`). */
  readonly reserved: string;
  /**
   * `rate_limited` or `busy` when buying, with the BFF's `retry_after` (`seconds`, at least 1): the visitor's purchase
   * limit or the shop's is met; says when to try again.
   */
  readonly rateLimitedFor: (seconds: number) => string;
  /**
   * @deprecated No longer shown: every met limit says when to try again (`rateLimitedFor` when buying, `busy` in the
   * search), from the BFF's `Retry-After` (5 seconds when an answer gives none). Kept so that existing string sets
   * still type-check.
   */
  readonly rateLimited?: string;
  /**
   * The generic error, for every code without a string of its own: server failures (`upstream_error`,
   * `internal_error`), a site's setup problems (`forbidden`, `method_not_allowed`...) and any code this version
   * does not know. Retry is offered only when the status says it can help.
   */
  readonly unknownError: string;
  /** `<dk-checkout-return>`: while the BFF verifies the checkout result. */
  readonly checkoutChecking: string;
  /** `<dk-checkout-return>`: the verified sale; `price` is formatted (and isolated for bidi). */
  readonly checkoutConfirmed: (domain: string, price: string) => string;
  /** `<dk-checkout-return>`: the page's checkout result could not be verified (nothing is confirmed). */
  readonly checkoutUnconfirmed: string;
  /**
   * `<dk-checkout-return>`: the buyer cancelled the hosted checkout. True on any page the checkout returns to (a
   * search box comes back empty, a product page has none): say nothing of what the page shows.
   */
  readonly checkoutCanceled: string;
  /** MoR: the quote's headline, e.g. "coffeehouse.com for $2,500". */
  readonly quoteTitle: (domain: string, price: string) => string;
  /** MoR: the live countdown of the price lock; `time` is `mm:ss`. */
  readonly lockedFor: (time: string) => string;
  /** MoR: announced once (a status message) when the price lock enters its last minute. */
  readonly lockEnding: string;
  /** MoR: shown when the price lock ran out. */
  readonly quoteExpired: string;
  /** MoR: the button that asks for a fresh quote. */
  readonly newQuote: string;
  /**
   * MoR: shown when the price changed since the quote (`price_mismatch`), followed by what became of the money
   * (one of the `money*` strings).
   */
  readonly priceChanged: (price: string) => string;
  /** MoR: the button that accepts the new price and places the order at it. */
  readonly confirmPrice: (price: string) => string;
  /** MoR: the payment was declined (`payment_declined`); followed by `moneyNotCharged`. */
  readonly paymentDeclined: string;
  /** MoR: the payment provider's answer never came (`payment_error`); followed by `moneyUnknown`. */
  readonly paymentUnconfirmed: string;
  /** MoR: no answer to the order (connection lost, timed out); followed by `moneyUnknown`. Paying again is safe. */
  readonly orderInterrupted: string;
  /** MoR: the domain was sold to someone else before the order was recorded (`conflict`); followed by the money. */
  readonly orderSold: (domain: string) => string;
  /** MoR: the marketplace refused the order for another reason (`upstream_error`); followed by the money. */
  readonly orderRefused: string;
  /** MoR, what became of the money, said once after a failed order: nothing was taken. */
  readonly moneyNotCharged: string;
  /** MoR, what became of the money: taken, then refunded. */
  readonly moneyRefunded: string;
  /** MoR, what became of the money: taken; the refund is still to be made. */
  readonly moneyRefundPending: string;
  /** MoR, what became of the money: not known yet (if it was taken, the order completes or it is refunded). */
  readonly moneyUnknown: string;
  /** MoR: shown while the order is being placed. */
  readonly placingOrder: string;
  /** MoR, the placed order: the heading of the view (focus moves to it), e.g. "Thank you for your order!". */
  readonly orderThanks: string;
  /** MoR, the placed order: what was bought for how much; `price` is formatted and isolated for bidi. */
  readonly orderPaid: (domain: string, price: string) => string;
  /**
   * MoR, the placed order while it is still being recorded (`PROCESSING`): what happens to the order and the money;
   * `price` is formatted and isolated for bidi.
   */
  readonly orderProcessing: (domain: string, price: string) => string;
  /**
   * MoR, the placed order: what happens now, by the order's status (Partner API spec 3): `EXTERNALLY_PAID` (the
   * transfer comes next), `TRANSFER_IN_PROGRESS`, `TRANSFER_COMPLETED`, `SETTLED`, or any other.
   */
  readonly orderNext: (status: string, domain: string) => string;
  /** MoR, the placed order: its reference for support, e.g. "Order reference: ord_123". */
  readonly orderReference: (orderId: string) => string;
  /** MoR: the heading when the purchase ended without an order (refunded or failed); followed by the money. */
  readonly orderFailed: string;
  /** MoR: the button that abandons the quote. */
  readonly cancel: string;
  /** MoR: the button that closes the order panel once the order is placed. */
  readonly done: string;
}

/** The strings of `<dk-checkout-return>` (they load with the checkout flow). */
export type DkReturnStringKey = 'checkoutChecking' | 'checkoutConfirmed' | 'checkoutUnconfirmed' | 'checkoutCanceled';

/** The strings of the verdict on a typed domain and the siblings list (they load with them, see `domain-search/siblings.ts`). */
export type DkSiblingStringKey =
  | 'siblingsTitle'
  | 'siblingRegistration'
  | 'siblingListing'
  | 'verdictListed'
  | 'verdictForSale'
  | 'verdictTaken'
  | 'verdictUnregistered'
  | 'verdictUnlisted'
  | 'verdictAlternatives'
  | 'verdictSimilar'
  | 'whoisButton'
  | 'whoisLoading'
  | 'whoisHeld'
  | 'whoisPrivate';

/** The strings of the popup: the phone's panel and the recent searches (they load with the result rows, see `domain-search/popup.ts`). */
export type DkRecentStringKey =
  | 'closeSearch'
  | 'recentSearches'
  | 'clearRecent'
  | 'removeRecent'
  | 'recentCount'
  | 'recentRemoved'
  | 'recentCleared';

/** The strings of a refused purchase, in both buying flows (they are loaded with them, see `purchase/purchase-strings.ts`). */
export type DkPurchaseStringKey = 'domainReserved' | 'reserved' | 'rateLimitedFor';

/** The strings of the MoR order flow (they are loaded with it, see `purchase/order-strings.ts`). */
export type DkOrderStringKey =
  | 'quoteTitle'
  | 'lockedFor'
  | 'lockEnding'
  | 'quoteExpired'
  | 'newQuote'
  | 'priceChanged'
  | 'confirmPrice'
  | 'paymentDeclined'
  | 'paymentUnconfirmed'
  | 'orderInterrupted'
  | 'orderSold'
  | 'orderRefused'
  | 'moneyNotCharged'
  | 'moneyRefunded'
  | 'moneyRefundPending'
  | 'moneyUnknown'
  | 'placingOrder'
  | 'orderThanks'
  | 'orderPaid'
  | 'orderProcessing'
  | 'orderNext'
  | 'orderReference'
  | 'orderFailed'
  | 'cancel'
  | 'done';

/**
 * The English defaults of everything but the order flow's, the siblings list's and the popup's strings (which load
 * with them; the package's `defaultStrings` export has all).
 */
export const baseStrings: Omit<
  DkStrings,
  DkOrderStringKey | DkSiblingStringKey | DkReturnStringKey | DkPurchaseStringKey | DkRecentStringKey
> = {
  searchLabel: 'Find your domain',
  searchPlaceholder: 'Try “coffee” or “studio”',
  resultsLabel: 'Matching domains',
  searching: 'Searching…',
  tooShort: (min) => `Type at least ${min} characters to search.`,
  resultCount: (count) => `${count} domain${count === 1 ? '' : 's'} found`,
  noResults: (query) => `No domains match “${query}”.`,
  available: 'Available',
  unavailable: 'Taken',
  retry: 'Retry',
  buy: 'Buy',
  buyDomain: (domain) => `Buy ${domain}`,
  networkError: 'Could not reach the domain service. Check your connection.',
  serviceUnavailable: 'Domain search is unavailable on this site right now. Please try again later.',
  offline: 'You are offline. The search resumes once you are back.',
  busy: (seconds) => `Busy right now. Trying again in ${seconds} s…`,
  invalidResponse: 'The domain service sent an unexpected answer. Please retry.',
  upstreamTimeout: 'No answer in time. Please try again.',
  queryTooLong: 'Your search is too long: 100 characters at most.',
  validationError: 'Please check what you entered.',
  notFound: 'This domain is not for sale.',
  conflict: 'This domain was just sold.',
  unknownError: 'Something went wrong. Please try again later.',
};

/**
 * The message to show for a failed call, always one of `strings`, never the BFF's English `message`: the string
 * keyed by its code in camelCase (`query_too_long` → `queryTooLong`, `network_error` → `networkError`; the
 * order flow's, such as `paymentDeclined`, once it is loaded, which is before any order call can fail), the
 * shared one of `bff_unreachable`, `bff_misconfigured` and `unavailable` (`serviceUnavailable`; `unavailable` would
 * read the availability badge's "Taken"), else {@link DkStrings.unknownError}. A met limit (`rate_limited`, `busy`)
 * always says when to try again (defect 6 of issue 23): its `retryAfter` (whole seconds, the BFF's `Retry-After`;
 * 5 when absent, as the search waits) in `rateLimitedFor` once a buying flow is loaded, else in the search's `busy`.
 */
export function errorMessage(error: { code: string; retryAfter?: number | undefined }, strings: DkStrings): string {
  const { code, retryAfter } = error;
  if (code === 'busy' || code === 'rate_limited') return (strings.rateLimitedFor ?? strings.busy)(retryAfter || 5);
  const text = (strings as unknown as Record<string, unknown>)[
    /^(bff_|unavailable$)/.test(code) ? 'serviceUnavailable' : code.replace(/_(.)/g, (_, c: string) => c.toUpperCase())
  ];
  return typeof text === 'string' ? text : strings.unknownError;
}

/**
 * Whether sending the same request again can help, so a Retry is worth offering: no HTTP answer at all (network,
 * offline, the widget's own deadline), 408, 429 and 5xx. Never for another 4xx (`query_too_long`,
 * `validation_error`, `not_found`...), which would fail the same way. Matches the `retry` column of protocol's
 * `WIDGET_ERROR_CODES`.
 */
export function canRetry(error: { status: number }): boolean {
  const { status } = error;
  return status < 400 || status > 499 || status === 408 || status === 429;
}
