/**
 * `POST /quotes` with the JSON body `{"domain"}` → 201 `{"quote_id", "domain", "price_cents", "currency",
 * "expires_at"}` (MoR, Partner API spec 2.2, 4.1): locks the buy-now price upstream for 10 minutes and stores the
 * quote (`quote.ts`), the only source of the price `POST /orders` charges. Errors: 404 `not_found`, 409
 * `conflict` (sold or reserved), 503 `busy`; a 404 or 409 drops the cached searches listing the domain.
 *
 * A request carrying the visitor's purchase key (`Idempotency-Key`, as on `POST /orders`) and, as `quote_id`, the
 * quote of that attempt, whose attempt to buy this domain has an order in flight or placed, gets 200 with that
 * order instead (`{"order_id", "order_token", "status", "domain", "sale_price_cents", "currency", "created_at"}`,
 * one more `order_token`; earlier ones keep working), and no quote is asked for upstream: the visitor follows the
 * order they may have paid for rather than paying again. The key without its quote, or with another, is answered
 * as any quote request (docs/spec-decisions.md "Purchase keys and deadlines").
 */
import { named } from '../http/widget.ts';
import { widgetQuoteRequestSchema, type WidgetQuoteResponse } from '@domainkit/protocol';
import { type BffRequest, JSON_BODY_LIMIT_BYTES, json, readJson, type RouteHandler } from '../http/index.ts';
import type { OrderFlowDeps } from './deps.ts';
import { purchaseInFlight } from './views.ts';
import { requestQuote, type QuoteDeps } from './quote.ts';
import { noQuerySchema, parseInput } from '../validate.ts';
import { purchaseKeyOf } from './purchase-key.ts';

const HELP = {
  domain: { label: '`domain`', hint: 'the domain name to buy', example: 'coffeehouse.com' },
  quote_id: {
    label: '`quote_id`',
    hint: 'the quote of the purchase attempt still open',
    example: 'qt_…',
    optional: true,
  },
};

/** What the quote route uses: what asking for a quote needs, and the order flow to find a purchase in flight. */
export interface QuoteRouteDeps extends QuoteDeps {
  /** What the order flow needs. @throws {BffHttpError} 503 `unavailable` when the database is not available. */
  readonly orderFlow: () => Promise<OrderFlowDeps>;
}

/** The quote route (`POST /quotes`; the cross-site and visitor-limit checks run before it). */
export function quoteRoute(deps: QuoteRouteDeps): RouteHandler {
  return async function domainkitBffQuote(req: BffRequest): Promise<Response> {
    // The body checks first (415, 413, 400 for unreadable JSON), then the query, the key and the fields.
    const sent = await readJson(req, JSON_BODY_LIMIT_BYTES);
    parseInput(noQuerySchema, req.query, 'query');
    const purchaseKey = purchaseKeyOf(req);
    const { domain, quote_id } = parseInput(widgetQuoteRequestSchema, sent, 'body', HELP);
    if (purchaseKey !== undefined && quote_id !== undefined) {
      const order = await purchaseInFlight(await deps.orderFlow(), { key: purchaseKey, quoteId: quote_id, domain });
      if (order !== undefined) return json(order, 200);
    }
    const quote = await requestQuote(deps, domain);
    const body: WidgetQuoteResponse = {
      quote_id: quote.quote_id,
      ...named(quote.domain),
      price_cents: quote.price_cents,
      currency: quote.currency,
      expires_at: quote.expires_at,
    };
    return json(body, 201);
  };
}
