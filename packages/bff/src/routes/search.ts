/**
 * `GET /search?q=` → 200 `{"query", "results": [{"domain", "available", "price_cents", "currency"}]}` (at most 5).
 * The query is normalised (trimmed, lowercased, inner whitespace collapsed) and answered from the search cache
 * (fresh, or stale while one background call refreshes it); identical searches in flight share one upstream
 * `GET /domains/search` (Partner API spec 4.1, 8); when the upstream budget is spent, a stale answer is served if one is kept,
 * else 503 `busy` with the seconds to wait.
 */
import { widgetSearchQuerySchema, type WidgetSearchResponse } from '@domainkit/protocol';
import type { DomainSearchResponse } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import type { MarketplaceApi } from '../marketplace-api.ts';
import { normaliseQuery, type SearchCache } from '../search-cache.ts';
import { type BffMetrics, cacheResultOf } from '../metrics.ts';
import { noteRequest } from '../request-context.ts';
import { parseInput } from '../validate.ts';
import { toWidgetDomain } from './context.ts';

const HELP = { q: { label: '`q`', hint: 'a word or a domain to search for, 1–100 characters', example: 'coffee' } };

/** What the search route uses. */
export interface SearchRouteDeps {
  readonly client: Pick<MarketplaceApi, 'searchDomains'>;
  /** Upstream answers by normalised query. */
  readonly searchCache: SearchCache<DomainSearchResponse>;
  /** How long a visitor's search waits for the upstream budget (ms) before answering 503 `busy`. */
  readonly maxWaitMs: number;
  /** Where cache lookups are recorded (metrics.ts). */
  readonly metrics?: Pick<BffMetrics, 'cacheLookup'> | undefined;
}

/** The search route handler. */
export function searchRoute(ctx: SearchRouteDeps): RequestHandler {
  return async function domainkitBffSearch(req, res) {
    const { q } = parseInput(widgetSearchQuerySchema, req.query, 'query', HELP);
    const query = normaliseQuery(q);
    const { value, source } = await ctx.searchCache.get(query, (mode) =>
      // A refresh in the background never waits for a token: it takes one if there is one, else keeps the stale answer.
      ctx.client.searchDomains(query, { context: { maxWaitMs: mode === 'background' ? 0 : ctx.maxWaitMs } }),
    );
    noteRequest({ cache: cacheResultOf(source) });
    ctx.metrics?.cacheLookup('search', source);
    const body: WidgetSearchResponse = { query, results: value.domains.map(toWidgetDomain) };
    res.json(body);
  };
}
