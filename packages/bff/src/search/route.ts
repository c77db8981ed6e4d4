/**
 * The search feature's entry: `GET /search?q=` → 200 `{"query", "results": [{"domain", "available", "price_cents",
 * "currency"}]}` (at most 5), with `"source": "index"` when the answer comes from the listing index, and
 * `GET /domains/:name` (domain-route.ts). The query is normalised (trimmed, lowercased, inner whitespace collapsed)
 * and answered by the {@link SearchService}: this process's memory, the shared answers, the demand-ordered miss
 * queue (Partner API spec 4.1, 8), then the listing index; else 503 `busy` with the seconds to wait. The
 * `Cache-Status` header (RFC 9211) says which. A fresh answer in memory is answered on the hot path
 * (http/prepared.ts): no request state, deadline or visitor limit, nothing spent.
 */
import { type DomainSearchResponse, type WidgetSearchResponse, widgetSearchQuerySchema } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { LearnedPrice } from '../upstream/domain-changes.ts';
import { environmentOf } from '../upstream/environment.ts';
import { BffHttpError } from '../errors.ts';
import { UPSTREAM_TIMEOUT_MESSAGE } from '../http/deadline.ts';
import type { RouteHandler } from '../http/request.ts';
import { jsonText } from '../http/respond.ts';
import type { RouteSpec } from '../http/routes.ts';
import type { HotRoute, PreparedBody } from '../http/prepared.ts';
import { noteRequest } from '../http/request-context.ts';
import { type BffMetrics, cacheResultOf } from '../metrics.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import type { ResolvedBffOptions } from '../resolved-options.ts';
import type { BffRuntime } from '../runtime.ts';
import { SearchCache, normaliseQuery } from './search-cache.ts';
import { parseInput, SEARCH_QUERY_HELP } from '../validate.ts';
import { SqlAnswerStore } from './answer-store.ts';
import { domainRoute } from './domain-route.ts';
import { type SearchAnswer, SearchService } from './search-service.ts';
import { toWidgetDomain } from '../http/widget.ts';

/** `Cache-Status` (RFC 9211) of each source. */
const CACHE_STATUS: Record<SearchAnswer['source'] | 'hit', string> = {
  hit: 'domainkit-bff; hit',
  cache: 'domainkit-bff; hit',
  stale: 'domainkit-bff; hit; detail=stale',
  stale_if_error: 'domainkit-bff; fwd=miss; detail=stale-if-error',
  queue: 'domainkit-bff; fwd=miss; stored',
  index: 'domainkit-bff; fwd=miss; detail=index',
};

/** The `source` a metric's `result` label is derived from (metrics.ts `cacheResultOf`), per answer source. */
const METRIC_SOURCE: Record<SearchAnswer['source'], string> = {
  cache: 'cache',
  stale: 'stale',
  stale_if_error: 'stale_if_error',
  queue: 'upstream',
  index: 'index',
};

/** The value of a query string that is exactly `q=…` (else undefined: the full route validates it). */
function onlyQ(search: string): string | undefined {
  if (!search.startsWith('q=') || search.includes('&')) return undefined;
  const value = search.slice(2);
  // Nothing escaped (a single word as most searches are): the value as it stands.
  if (!value.includes('%') && !value.includes('+')) return value;
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Query strings whose cache key the hot path keeps (see {@link searchHit}). */
const QUERY_KEYS_KEPT = 1024;

/**
 * The hot path of `GET /search`: a well-formed `q` (within the schema's 100 characters even untrimmed) whose fresh
 * answer is held in this process's memory is answered from its serialised body (made once per cached answer).
 */
export function searchHit(
  search: Pick<SearchService, 'peek'>,
  metrics?: Pick<BffMetrics, 'cacheLookup'> | undefined,
): HotRoute {
  const bodies = new WeakMap<DomainSearchResponse, PreparedBody & { readonly key: string }>();
  // Lower-case, as every host sends header names (a plain record takes it as it is).
  const headers = [['cache-status', CACHE_STATUS.hit]] as const;
  // The cache key of each query string seen lately ('' for none: the full route answers it), so a repeated search
  // is not parsed and normalised again; cleared when full (visitor input: bounded).
  const keys = new Map<string, string>();
  return (query) => {
    let key = keys.get(query);
    if (key === undefined) {
      const raw = onlyQ(query);
      key = raw === undefined || raw.length > 100 ? '' : normaliseQuery(raw);
      if (keys.size >= QUERY_KEYS_KEPT) keys.clear();
      keys.set(query, key);
    }
    const hit = key === '' ? undefined : search.peek(key);
    if (hit === undefined) return undefined;
    metrics?.cacheLookup('search', 'cache');
    let made = bodies.get(hit);
    if (made === undefined || made.key !== key) {
      const body: WidgetSearchResponse = { query: key, results: hit.domains.map(toWidgetDomain) };
      const text = JSON.stringify(body);
      made = { key, text, length: new TextEncoder().encode(text).byteLength, headers, cache: 'hit' };
      bodies.set(hit, made);
    }
    return made;
  };
}

/** The full `GET /search` (after the visitor limit); lookups are recorded in `metrics` when given. */
export function searchRoute(search: SearchService, metrics?: Pick<BffMetrics, 'cacheLookup'>): RouteHandler {
  return async function domainkitBffSearch(req) {
    const { q } = parseInput(widgetSearchQuerySchema, req.query, 'query', SEARCH_QUERY_HELP);
    const query = normaliseQuery(q);
    // A visitor that goes away (or whose deadline passes) while waiting for a token leaves the queue: no token is
    // taken for it, and its answer (if anyone still reads it) is the deadline's.
    let answer: SearchAnswer;
    try {
      answer = await search.search(query, req.deadline);
    } catch (error) {
      if (req.deadline.aborted) throw new BffHttpError('upstream_timeout', UPSTREAM_TIMEOUT_MESSAGE);
      throw error;
    }
    noteRequest({ cache: cacheResultOf(METRIC_SOURCE[answer.source]) });
    metrics?.cacheLookup('search', METRIC_SOURCE[answer.source]);
    const body: WidgetSearchResponse =
      answer.source === 'index'
        ? { query, results: answer.listings.map(toWidgetDomain), source: 'index' }
        : { query, results: answer.value.domains.map(toWidgetDomain) };
    return jsonText(JSON.stringify(body), 200, { 'Cache-Status': CACHE_STATUS[answer.source] });
  };
}

/**
 * The per-process search cache (`searchCache.mode: "process"`): fresh, then stale while one background call
 * refreshes it, each process alone; a miss waits for a token up to `maxWaitMs`, else 503 `busy`. Kept for
 * comparison (the benchmark's baseline).
 */
function processCacheSearchRoute(
  client: Pick<MarketplaceApi, 'searchDomains'>,
  cache: SearchCache<DomainSearchResponse>,
  maxWaitMs: number,
  metrics: Pick<BffMetrics, 'cacheLookup'>,
): RouteHandler {
  return async function domainkitBffSearch(req) {
    const { q } = parseInput(widgetSearchQuerySchema, req.query, 'query', SEARCH_QUERY_HELP);
    const query = normaliseQuery(q);
    const { value, source } = await cache.get(query, (mode) =>
      // A refresh in the background never waits for a token: it takes one if there is one, else keeps the stale answer.
      client.searchDomains(query, { context: { maxWaitMs: mode === 'background' ? 0 : maxWaitMs } }),
    );
    noteRequest({ cache: cacheResultOf(source) });
    metrics.cacheLookup('search', source);
    const body: WidgetSearchResponse = { query, results: value.domains.map(toWidgetDomain) };
    return jsonText(JSON.stringify(body));
  };
}

/** The search feature of one BFF: its routes, hot path and service. */
export interface SearchFeature {
  readonly routes: RouteSpec[];
  /** The hot path of `GET /search` (none in `process` mode). */
  readonly hot: HotRoute | undefined;
  readonly service: SearchService;
}

/**
 * Builds the search feature: the shared answers, evictions and listings of this credential in its environment
 * (answer-store.ts), read once the database is open; every domain change drops, every learned price corrects, the
 * cached answers listing it.
 */
export function searchFeature(o: ResolvedBffOptions, runtime: BffRuntime, logger: Logger): SearchFeature {
  const { client, database, domainChanges, metrics } = runtime;
  const ss = o.search;
  const service = new SearchService({
    budget: runtime.budget,
    fetch: (query, context) => client.searchDomains(query, { context }),
    store:
      database.kind === 'none'
        ? undefined
        : new SqlAnswerStore(() => database.db(), { keyId: o.keyId, environment: environmentOf(o.keyId) }),
    shared: database.kind === 'postgres',
    freshMs: ss.freshMs,
    staleMs: ss.staleMs,
    staleIfErrorMs: ss.staleIfErrorMs,
    maxEntries: ss.memoryEntries,
    maxWaitMs: ss.maxWaitMs,
    reserve: ss.reserve,
    index: ss.index,
    syncIntervalMs: ss.syncIntervalMs,
    now: o.now,
    logger,
  });
  // `process` mode: the earlier per-process cache (30 s fresh, 270 s stale), kept for comparison.
  const processCache =
    ss.mode === 'process'
      ? new SearchCache<DomainSearchResponse>({
          ...o.searchCache,
          now: o.now,
          onBackgroundError: (_key, error) =>
            logger.debug(
              { error: error instanceof Error ? error.message : String(error) },
              'background search refresh failed; the stale answer stays',
            ),
        })
      : undefined;
  if (processCache === undefined && database.kind !== 'none') {
    runtime.ready.then(
      () =>
        service
          .start()
          .catch((error: unknown) =>
            logger.warn({ error: (error as Error).message }, 'search answers could not be read from the database'),
          ),
      () => {},
    );
  }
  runtime.onClose(() => service.close());
  domainChanges.listenPrices((price: LearnedPrice) => service.priceLearned(price));
  domainChanges.listen((domain) => {
    service.domainChanged(domain);
    processCache?.evict((answer) => answer.domains.some((d) => d.domain.toLowerCase() === domain));
  });
  const search =
    processCache === undefined
      ? searchRoute(service, metrics)
      : processCacheSearchRoute(client, processCache, ss.maxWaitMs, metrics);
  const domains = domainRoute({
    client,
    maxWaitMs: o.budgetMaxWaitMs,
    domainChanged: (domain) => domainChanges.changed(domain),
    priceLearned: (price) => domainChanges.priced(price),
  });
  return {
    routes: [
      { path: '/search', GET: search, limit: 'search' },
      { path: '/domains/:name', GET: domains, limit: 'search' },
    ],
    hot: processCache === undefined ? searchHit(service, metrics) : undefined,
    service,
  };
}
