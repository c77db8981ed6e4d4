/**
 * The widget's side of the widget ↔ BFF API (docs/architecture.md "The widget ↔ BFF API"):
 * URL building, the calls (`GET /search`, `GET /siblings`, `POST /checkout`, `POST /quotes`, `POST /orders`, `GET /orders/:id`)
 * and one error class for every failure.
 *
 * Every response is checked before use (this is a trust boundary): the widget never renders or navigates to
 * anything that does not have the documented shape. The checks are hand-written rather than zod so the
 * script-tag build stays small; they accept exactly the shapes in `types.ts`. A failed answer is read by
 * `api-errors.ts`, loaded on the first one (the search box's first load carries none of that code).
 *
 * `fetch` is read from `globalThis` at call time, so a page (or a test) may replace it.
 */
import type {
  CheckoutSession,
  WidgetDomain,
  WidgetOrderResponse,
  OrderDetails,
  WidgetOrderStatus,
  WidgetQuoteAnswer,
  WidgetQuoteResponse,
  SearchResponse,
  ExactDomain,
  Sibling,
  SiblingsAnswer,
  WhoisAnswer,
  WidgetBrokerageCase,
  WidgetBrokerageEligibility,
  WidgetBrokerageRequest,
} from './types.ts';
import type { Failure } from './api-errors.ts';
import { isCents, isRecord, type Json } from './json.ts';

/** The optional fields of a {@link DkApiError} (see its properties), and the `cause` of `Error`. */
export interface DkApiErrorOptions {
  readonly status?: number | undefined;
  readonly retryAfter?: number | undefined;
  readonly priceCents?: number | undefined;
  readonly fields?: Record<string, unknown> | undefined;
  readonly requestId?: string | undefined;
  readonly cause?: unknown;
}

/** Raised for every failed BFF call except an abort (which rethrows the platform's `AbortError`). */
export class DkApiError extends Error {
  override readonly name = 'DkApiError';
  /**
   * The BFF's `error.code` (`validation_error`, `not_found`, `conflict`, `busy`, `upstream_error`,
   * `quote_expired`, `price_mismatch`, `payment_declined`...), or, when the BFF sent none: `network_error` (no
   * HTTP answer), `bff_unreachable` (online, but a BFF on another origin cannot be read: down, or this page's
   * origin is not in its `allowedOrigins`; or a 5xx without JSON from a proxy in front of it),
   * `bff_misconfigured` (the `api` URL answered something that is not JSON, or a 404 that is not the BFF's:
   * it does not point at a BFF), `invalid_response` (an answer of the wrong shape), `http_<status>` (an error
   * status without a JSON error body).
   */
  declare readonly code: string;
  /** HTTP status of the answer; 0 when there was none. */
  declare readonly status: number;
  /** Seconds the BFF asked to wait before retrying (`error.retry_after` or `Retry-After`), if it said. */
  declare readonly retryAfter: number | undefined;
  /** With `price_mismatch`: the new price in minor units (`error.price_cents`). */
  declare readonly priceCents: number | undefined;
  /** The BFF's `X-Request-Id` of the failed answer (quote it when reporting a problem), when it sent one. */
  declare readonly requestId: string | undefined;
  /**
   * The BFF's `error` object as received (unchecked: read a field only after checking its type), e.g. `order_id`
   * and `status` of a `conflict` on `POST /orders` whose order is already in flight.
   */
  declare readonly fields: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: DkApiErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 0;
    this.retryAfter = options.retryAfter;
    this.priceCents = options.priceCents;
    this.requestId = options.requestId;
    this.fields = options.fields ?? {};
  }
}

/** Options of one BFF call. */
export interface RequestOptions {
  /** Aborts the call; the returned promise then rejects with an `AbortError` `DOMException`. */
  readonly signal?: AbortSignal | undefined;
  /** The call's own deadline in milliseconds; default {@link REQUEST_DEADLINE_MS}. */
  readonly deadlineMs?: number | undefined;
}

/**
 * The widget's deadline for one BFF call, in milliseconds: longer than the BFF's own (15 s by default, which then
 * answers 504 `upstream_timeout` or a purchase's status), so a visitor normally gets the BFF's answer; past it the
 * call fails with `upstream_timeout`.
 */
export const REQUEST_DEADLINE_MS = 20_000;

/**
 * Joins the BFF base URL (the `api` attribute: `/dk`, `/dk/` or `https://shop.example/dk`) and a route path
 * (`/search?q=…`). Relative bases resolve against the page, as `fetch` does.
 */
export function endpoint(api: string, path: string): string {
  return api.replace(/\/+$/, '') + path;
}

/** Whether `error` is the rejection of an aborted fetch. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * `error` as a {@link DkApiError} (anything else becomes `invalid_response`). An error named `DkApiError` is
 * taken as one too: the script-tag build's order-flow file carries its own copy of the class.
 */
export function toApiError(error: unknown): DkApiError {
  return error instanceof Error && error.name === 'DkApiError'
    ? (error as DkApiError)
    : new DkApiError('invalid_response', String(error), { cause: error });
}

/**
 * Kinds of checked fields: `s` a non-empty string, `b` a boolean, `c` integer minor units ≥ 0, `$` an
 * ISO 4217 code; a trailing `?` also accepts `null` or absence (read as `null`).
 */
type Kind = 's' | 'b' | 'c' | '$' | 's?' | 'c?' | '$?';
const KINDS: Record<string, (value: unknown) => boolean> = {
  s: (value) => typeof value === 'string' && value !== '',
  b: (value) => typeof value === 'boolean',
  c: isCents,
  $: (value) => typeof value === 'string' && /^[A-Z]{3}$/.test(value),
};

/** The error of an answer the widget cannot use; `what` names the problem for developers. */
const invalid = (what: string): DkApiError => new DkApiError('invalid_response', `Unexpected answer: ${what}`);

/**
 * Checks that `body` is an object with every field of `fields` of its kind and returns it typed (extra fields
 * kept, absent optional fields set to `null`).
 *
 * @throws DkApiError `invalid_response` naming the first field that is missing or malformed.
 */
function check<T>(body: unknown, fields: Record<string, Kind>): T {
  if (!isRecord(body)) throw invalid('not a JSON object');
  const out: Json = { ...body };
  for (const [field, kind] of Object.entries(fields)) {
    out[field] ??= kind[1] ? null : undefined;
    const value = out[field];
    if (!(value === null && kind[1]) && !KINDS[kind[0]!]!(value)) throw invalid(field);
  }
  return out as T;
}

/**
 * Sends one request (a JSON body when `body` is given, as a POST) and returns its parsed JSON body.
 *
 * @throws DkApiError `network_error` when no answer arrives (`bff_unreachable` from a BFF on another origin);
 *   for a 4xx/5xx, the BFF's `error.code` and `error.message` (with `retry_after`, `price_cents`), or
 *   `http_<status>` without a JSON error body; `bff_misconfigured` / `bff_unreachable` for an answer that is not
 *   JSON (see `failedAnswer` in `api-errors.ts`).
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
async function request(
  url: string,
  options: RequestOptions,
  body?: object,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let response: Response;
  let json: unknown;
  let parsed = false;
  // The caller's signal, or the call's own deadline, whichever comes first.
  const deadline = AbortSignal.timeout(options.deadlineMs ?? REQUEST_DEADLINE_MS);
  const outer = options.signal;
  try {
    response = await globalThis.fetch(url, {
      headers: { Accept: 'application/json', ...(body && { 'Content-Type': 'application/json' }), ...headers },
      ...(body && { method: 'POST', body: JSON.stringify(body) }),
      signal: outer ? AbortSignal.any([outer, deadline]) : deadline,
    });
    json = await response.json().then(
      (value: unknown) => {
        parsed = true;
        return value;
      },
      (error: unknown) => {
        if (isAbortError(error)) throw error;
      },
    );
  } catch (error) {
    if (deadline.aborted && !outer?.aborted)
      throw new DkApiError('upstream_timeout', 'The domain service did not answer in time.', { cause: error });
    if (isAbortError(error)) throw error;
    // Online, and the BFF is on another origin: a refused origin (CORS) looks exactly like this, so does a BFF
    // that is down. Either way it is the site's to fix, not the visitor's connection.
    if (globalThis.navigator?.onLine !== false && crossOrigin(url))
      throw await failure((errors) => errors.unreadable(url, error), 'bff_unreachable', 0, error);
    throw new DkApiError('network_error', 'Could not reach the domain service.', { cause: error });
  }
  if (parsed && response.ok) return json;
  throw await failure(
    (errors) => errors.failedAnswer(url, response, json, parsed),
    `http_${response.status}`,
    response.status,
  );
}

/**
 * The {@link DkApiError} of a failed call, as `api-errors.ts` reads it (loaded now, on the first failed answer), or
 * `fallback` with `status` and `cause` when even that file cannot be loaded.
 */
async function failure(
  read: (errors: typeof import('./api-errors.ts')) => Failure,
  fallback: string,
  status: number,
  cause?: unknown,
): Promise<DkApiError> {
  const [code, message, options] = await import('./api-errors.ts').then(
    read,
    (): Failure => [fallback, fallback, { status, cause }],
  );
  return new DkApiError(code, message, options);
}

/** Whether `url` (resolved against the page) is on another origin than the page. */
function crossOrigin(url: string): boolean {
  const page = globalThis.location;
  if (page === undefined) return false;
  try {
    return new URL(url, page.href).origin !== page.origin;
  } catch {
    return false;
  }
}

/**
 * `GET {api}/search?q=` (widget ↔ BFF API): the partner's domain search, at most 5 results, best first.
 *
 * @param api BFF base URL, e.g. `/dk`.
 * @param query the visitor's text, trimmed; sent URL-encoded.
 * @throws DkApiError (see `request`), `invalid_response` when the body is not `{query, results: [...]}`.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function searchDomains(api: string, query: string, options: RequestOptions = {}): Promise<SearchResponse> {
  const answer = await request(endpoint(api, `/search?q=${encodeURIComponent(query)}`), options);
  const body = check<{ query: string; results: unknown }>(answer, { query: 's' });
  if (!Array.isArray(body.results)) throw invalid('results');
  return {
    query: body.query,
    results: body.results.map((result) =>
      check<WidgetDomain>(result, { domain: 's', available: 'b', price_cents: 'c?', currency: '$?' }),
    ),
  };
}

/**
 * `GET {api}/domains/:name` (widget ↔ BFF API): one domain's availability and price now. The purchase flows ask it
 * after a `conflict`, to tell a domain sold (`available: false`) from one another buyer's price lock holds.
 *
 * @throws DkApiError (see `request`; 404 `not_found` when the domain is not listed), `invalid_response`.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function getDomain(api: string, domain: string, options: RequestOptions = {}): Promise<WidgetDomain> {
  const answer = await request(endpoint(api, `/domains/${encodeURIComponent(domain)}`), options);
  return check<WidgetDomain>(answer, { domain: 's', available: 'b', price_cents: 'c?', currency: '$?' });
}

/**
 * `GET {api}/siblings?q=` (widget ↔ BFF API): the query's label under other TLDs, at most 8, most popular first, and
 * when the query is a whole domain, where that name stands (`domain`: `available`, `for_sale`, `registered`; `null`
 * when the BFF does not say, an older BFF or a status it does not know).
 *
 * @throws DkApiError (see `request`; a BFF with siblings turned off answers 404), `invalid_response` when the body
 *   is not `{siblings: [...]}` with a domain, kind and price (or `null`) each.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function fetchSiblings(api: string, query: string, options: RequestOptions = {}): Promise<SiblingsAnswer> {
  const { siblings, domain } = check<{ siblings: unknown; domain?: unknown }>(
    await request(endpoint(api, `/siblings?q=${encodeURIComponent(query)}`), options),
    {},
  );
  if (!Array.isArray(siblings)) throw invalid('siblings');
  return {
    siblings: siblings.map((sibling) =>
      check<Sibling>(sibling, { domain: 's', kind: 's', price_cents: 'c?', currency: '$?' }),
    ),
    // A standing the widget cannot read is no standing: the verdict then says "not listed here", never a guess.
    domain:
      isRecord(domain) &&
      typeof domain.domain === 'string' &&
      /^(available|for_sale|registered)$/.test(String(domain.status))
        ? (domain as unknown as ExactDomain)
        : null,
  };
}

/**
 * `GET {api}/whois?domain=` (widget ↔ BFF API): who holds a registered domain, from WHOIS/RDAP through the BFF
 * (Public API spec 4.2 `POST /api/tools/whois`): its registrar's name and its registration date (ISO 8601), each
 * `null` when the record does not say.
 *
 * @throws DkApiError (see `request`; `validation_error` for a name that is not a domain; `busy` when the BFF's WHOIS
 *   budget is spent; 404 from a BFF without the route), `invalid_response` when `registered` is not a boolean.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function fetchWhois(api: string, domain: string, options: RequestOptions = {}): Promise<WhoisAnswer> {
  return check<WhoisAnswer>(await request(endpoint(api, `/whois?domain=${encodeURIComponent(domain)}`), options), {
    domain: 's',
    registered: 'b',
    registrar: 's?',
    registered_at: 's?',
  });
}

/**
 * `POST {api}/checkout` with `{"domain", "return_url"?, "cancel_url"?}` (widget ↔ BFF API): creates a hosted checkout
 * session (non-MoR, Partner API spec 2.3) and returns its `checkout_url`. `back.return_url` and `back.cancel_url`
 * (a path such as `/thanks`, or an absolute URL on the shop) say where the checkout sends the buyer; the BFF
 * accepts only the shop's own origins.
 *
 * @throws DkApiError the BFF's code (`not_found`, `busy`, `return_url_not_allowed`, `upstream_error`...),
 *   `network_error`, or `invalid_response` when `checkout_url` is not an absolute http(s) URL (so a broken or
 *   hostile answer can never make the widget navigate to `javascript:` or similar).
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function createCheckoutSession(
  api: string,
  domain: string,
  options: RequestOptions & {
    readonly back?: { readonly return_url?: string; readonly cancel_url?: string; readonly locale?: string };
  } = {},
): Promise<CheckoutSession> {
  const sent = { domain, ...options.back };
  const body = check<CheckoutSession>(await request(endpoint(api, '/checkout'), options, sent), {
    checkout_url: 's',
    expires_at: 's?',
    price_cents: 'c?',
    currency: '$?',
  });
  // Only an absolute http(s) URL: a broken or hostile answer must never navigate to `javascript:` or similar.
  if (!/^https?:\/\//i.test(body.checkout_url)) throw invalid('checkout_url');
  return body;
}

/**
 * `POST {api}/quotes` with `{"domain"}` (MoR order mode): locks the domain's price for 10 minutes. With
 * `purchase` (the visitor's current attempt to buy the domain: its key, sent as `Idempotency-Key`, and the quote it
 * was paid with, sent as `quote_id`), the BFF answers with that attempt's order instead when one is in flight or
 * placed (its status and one more `order_token`): tell the two apart with {@link isOrderAnswer}. The key alone
 * finds nothing: it is bound to its quote.
 *
 * @throws DkApiError `not_found`, `conflict` (sold or reserved), `busy`, `network_error`, `invalid_response`
 *   (no `quote_id`, price, currency or parseable `expires_at`; an order without its token or status).
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function createQuote(
  api: string,
  domain: string,
  options: RequestOptions & { readonly purchase?: { readonly key: string; readonly quoteId: string } | undefined } = {},
): Promise<WidgetQuoteAnswer> {
  const { purchase } = options;
  const headers: Record<string, string> = purchase ? { 'Idempotency-Key': purchase.key } : {};
  const payload = purchase ? { domain, quote_id: purchase.quoteId } : { domain };
  const body = await request(endpoint(api, '/quotes'), options, payload, headers);
  if (isRecord(body) && 'order_id' in body) return checkOrder(body);
  const quote = check<WidgetQuoteResponse>(body, {
    quote_id: 's',
    domain: 's',
    price_cents: 'c',
    currency: '$',
    expires_at: 's',
  });
  if (Number.isNaN(Date.parse(quote.expires_at))) throw invalid('expires_at');
  return quote;
}

/** Whether a `POST /quotes` answer is the visitor's order in flight rather than a new quote. */
export function isOrderAnswer(answer: WidgetQuoteAnswer): answer is WidgetOrderResponse {
  return 'order_id' in answer;
}

/** Checks an order answer (`POST /orders`, or `POST /quotes` for a purchase in flight). */
function checkOrder(body: unknown): WidgetOrderResponse {
  return check<WidgetOrderResponse>(body, {
    order_id: 's',
    order_token: 's',
    status: 's',
    domain: 's',
    sale_price_cents: 'c',
    currency: '$',
  });
}

/**
 * `POST {api}/orders` with `{"quote_id", "buyer", "payment"}` (MoR order mode): pays through the partner's
 * payment-provider adapter and records the order. The price is the quote's, taken server-side. With
 * `purchaseKey` (sent as `Idempotency-Key`), a retry of the same purchase attempt is answered with its status,
 * never paid twice.
 *
 * @throws DkApiError `quote_expired` (422), `price_mismatch` (422, {@link DkApiError.priceCents} is the new
 *   price), `payment_declined` (402), `validation_error`, `busy`, `network_error`, `invalid_response`.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function createOrder(
  api: string,
  quoteId: string,
  details: OrderDetails,
  options: RequestOptions & { readonly purchaseKey?: string | undefined } = {},
): Promise<WidgetOrderResponse> {
  const body = { quote_id: quoteId, buyer: details.buyer, payment: details.payment };
  const headers: Record<string, string> = options.purchaseKey ? { 'Idempotency-Key': options.purchaseKey } : {};
  return checkOrder(await request(endpoint(api, '/orders'), options, body, headers));
}

/**
 * `GET {api}/orders/:id` with `X-Order-Token` (MoR order mode): the order's current status.
 *
 * @throws DkApiError `not_found` (404, also when the token does not match), `network_error`, `invalid_response`.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function getOrder(
  api: string,
  orderId: string,
  token: string,
  options: RequestOptions = {},
): Promise<WidgetOrderStatus> {
  return check<WidgetOrderStatus>(
    await request(endpoint(api, `/orders/${encodeURIComponent(orderId)}`), options, undefined, {
      'X-Order-Token': token,
    }),
    { order_id: 's', status: 's' },
  );
}

/**
 * Long-polls an order (`GET {api}/orders/:id/status?after=&wait=` with `X-Order-Token`): the BFF answers when the
 * order's `version` differs from `after`, or after `waitSeconds` with the same one. `final` is true once it can no
 * longer change.
 * @throws {DkApiError} `not_found` for an unknown order or a wrong token (the same answer).
 */
export async function trackOrder(
  api: string,
  orderId: string,
  token: string,
  follow: { readonly after?: string | undefined; readonly waitSeconds: number },
  options: RequestOptions = {},
): Promise<WidgetOrderStatus & { readonly version: string; readonly final: boolean }> {
  const query = `?wait=${follow.waitSeconds}${follow.after === undefined ? '' : `&after=${encodeURIComponent(follow.after)}`}`;
  return check(
    await request(endpoint(api, `/orders/${encodeURIComponent(orderId)}/status${query}`), options, undefined, {
      'X-Order-Token': token,
    }),
    { order_id: 's', status: 's', version: 's' },
  );
}

/**
 * Body of `GET {api}/checkout/return` (200): the hosted-checkout sale the BFF verified. Pinned to protocol's
 * `widgetCheckoutReturnResponseSchema` by `test-node/wire-types.test-d.ts`.
 */
export interface CheckoutResult {
  readonly checkout_session_id: string;
  /** Always `paid`: a cancelled checkout returns to `cancel_url`, unsigned. */
  readonly status: 'paid';
  readonly domain: string;
  /** The name as a person reads it, when not `domain` (see `WidgetDomain.display_name`). */
  readonly display_name?: string | undefined;
  readonly price_cents: number;
  readonly currency: string;
}

/**
 * `GET {api}/checkout/return?…` with the return page's query (the marketplace's signed result): the BFF verifies it.
 *
 * @throws DkApiError `validation_error` (400) when the result is not one the marketplace signed, `network_error`,
 *   `invalid_response`.
 */
export async function verifyCheckoutReturn(
  api: string,
  query: string,
  options: RequestOptions = {},
): Promise<CheckoutResult> {
  return check<CheckoutResult>(await request(endpoint(api, `/checkout/return${query}`), options), {
    checkout_session_id: 's',
    status: 's',
    domain: 's',
    price_cents: 'c',
    currency: '$',
  });
}

/**
 * `GET {api}/brokerage/eligibility?domain=` (a shop with brokerage on): whether the shop's brokers can try to acquire
 * `domain`, why not (`reason`: `live_site`, `listed`, `open_case`), and the offer (tier, currency, smallest budget).
 *
 * @throws DkApiError (see `request`; `not_found` from a BFF without brokerage), `invalid_response` for another body.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function checkBrokerage(
  api: string,
  domain: string,
  options: RequestOptions = {},
): Promise<WidgetBrokerageEligibility> {
  const url = `${endpoint(api, '/brokerage/eligibility')}?domain=${encodeURIComponent(domain)}`;
  return check<WidgetBrokerageEligibility>(await request(url, options), {
    domain: 's',
    eligible: 'b',
    reason: 's?',
    tier: 's',
    currency: '$',
    min_budget_cents: 'c',
  });
}

/**
 * `POST {api}/brokerage` with the visitor's request and `key` (one random key per attempt, sent as
 * `Idempotency-Key`: a retry answers the same case).
 *
 * @throws DkApiError the BFF's code (`validation_error`, `conflict` when the name is no longer eligible, `busy`,
 *   `rate_limited`...), `network_error`, or `invalid_response` when `progress_url` is not an absolute http(s) URL.
 * @throws DOMException `AbortError` when `options.signal` aborts.
 */
export async function requestBrokerage(
  api: string,
  body: WidgetBrokerageRequest,
  key: string,
  options: RequestOptions = {},
): Promise<WidgetBrokerageCase> {
  const answer = check<WidgetBrokerageCase>(
    await request(endpoint(api, '/brokerage'), options, body, { 'Idempotency-Key': key }),
    { case_id: 's', domain: 's', status: 's', tier: 's', budget_cents: 'c', currency: '$', progress_url: 's' },
  );
  // The buyer opens this link: only an absolute http(s) URL, never `javascript:` or similar.
  if (!/^https?:\/\//i.test(answer.progress_url)) throw invalid('progress_url');
  return answer;
}
