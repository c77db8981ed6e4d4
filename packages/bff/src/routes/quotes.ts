/**
 * `POST /quotes` with the JSON body `{"domain"}` → 201 `{"quote_id", "domain", "price_cents", "currency",
 * "expires_at"}` (MoR, Partner API spec 2.2, 4.1): locks the buy-now price upstream for 10 minutes and stores the
 * quote (`quotes/quote.ts`), the only source of the price `POST /orders` charges. Errors: 404 `not_found`, 409
 * `conflict` (sold or reserved), 503 `busy`; a 404 or 409 drops the cached searches listing the domain.
 */
import { widgetQuoteRequestSchema, type WidgetQuoteResponse } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import { requestQuote, type QuoteDeps } from '../quotes/quote.ts';
import { parseInput } from '../validate.ts';
import { noQuerySchema } from './context.ts';

const HELP = { domain: { label: '`domain`', hint: 'the domain name to buy', example: 'coffeehouse.com' } };

/** What the quote route uses: what asking for a quote needs. */
export type QuoteRouteDeps = QuoteDeps;

/** The quote route handler (after the JSON body checks). */
export function quoteRoute(deps: QuoteRouteDeps): RequestHandler {
  return async function domainkitBffQuote(req, res) {
    parseInput(noQuerySchema, req.query, 'query');
    const { domain } = parseInput(widgetQuoteRequestSchema, req.body, 'body', HELP);
    const quote = await requestQuote(deps, domain);
    const body: WidgetQuoteResponse = {
      quote_id: quote.quote_id,
      domain: quote.domain,
      price_cents: quote.price_cents,
      currency: quote.currency,
      expires_at: quote.expires_at,
    };
    res.status(201).json(body);
  };
}
