/**
 * `GET /search?q=` → 200 `{"query", "results": [{"domain", "available", "price_cents", "currency"}]}` (at most 5),
 * with `"source": "index"` when the answer comes from the listing index. The query is normalised (trimmed,
 * lowercased, inner whitespace collapsed) and answered by the {@link SearchService}: this process's memory, the
 * shared answers, the demand-ordered miss queue (Partner API spec 4.1, 8), then the listing index; else 503 `busy` with the
 * seconds to wait. The `Cache-Status` header (RFC 9211) says which.
 */
import { widgetSearchQuerySchema, type DomainSearchResponse, type WidgetSearchResponse } from '@domainkit/protocol';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import { normaliseQuery, type SearchCache } from '../search/index.ts';
import { type BffMetrics, cacheResultOf } from '../metrics.ts';
import { logAnswered, noteRequest } from '../request-context.ts';
import type { SearchAnswer, SearchService } from '../search/index.ts';
import { parseInput, SEARCH_QUERY_HELP } from '../validate.ts';
import { toWidgetDomain } from './context.ts';

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

/**
 * Sends a 200 JSON answer of `length` bytes, as every search answer is sent (from memory or not): no `ETag`, which
 * nothing could use on a `no-store` answer. A string, not a Buffer: Node writes it with the headers at once.
 */
function sendJsonText(res: Response, text: string, length: number): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', length);
  res.end(text, 'utf8');
}

/** What {@link searchHitRoute} needs from the router. */
export interface SearchHitDeps {
  readonly search: Pick<SearchService, 'peek'>;
  /** Whether the request may be answered here: false sends it through the BFF's middleware (a refused origin). */
  readonly accepts: (req: Request) => boolean;
  /** Sets the headers every BFF answer carries (request id, security, CORS, `Cache-Control`); returns the request id. */
  readonly answerHeaders: (req: Request, res: Response) => string;
  /** Where the access line is written (at `info`). */
  readonly logger: Logger;
  readonly metrics?: Pick<BffMetrics, 'cacheLookup'> | undefined;
}

/**
 * The cached path of `GET /search`, the BFF's busiest answer: a well-formed query whose fresh answer is held in this
 * process's memory is answered at once, with the headers of every BFF answer and `Cache-Status: hit`, before any
 * other middleware runs (no request state, deadline or visitor limit: nothing is spent, neither a token nor a
 * database query). Anything else passes to the full route ({@link searchRoute}). Mounted with `router.use` at
 * `/search`.
 */
export function searchHitRoute(deps: SearchHitDeps): RequestHandler {
  const { search, accepts, answerHeaders, logger, metrics } = deps;
  // The serialised answer of each cached upstream answer, made once: a hit writes it as it is.
  const bodies = new WeakMap<DomainSearchResponse, { key: string; body: string; length: number }>();
  return function domainkitBffSearchHit(req, res, next) {
    if (req.method !== 'GET' || req.path !== '/') {
      next();
      return;
    }
    const raw = req.query.q;
    // Only `q`, within the schema's 100 characters even untrimmed: anything else is the full route's to validate.
    if (typeof raw !== 'string' || raw.length > 100 || Object.keys(req.query).length !== 1 || !accepts(req)) {
      next();
      return;
    }
    const key = normaliseQuery(raw);
    const hit = key === '' ? undefined : search.peek(key);
    if (hit === undefined) {
      next();
      return;
    }
    const logged = logger.isLevelEnabled('info');
    const started = logged ? Date.now() : 0;
    const id = answerHeaders(req, res);
    metrics?.cacheLookup('search', 'cache');
    let made = bodies.get(hit);
    if (made === undefined || made.key !== key) {
      const body: WidgetSearchResponse = { query: key, results: hit.domains.map(toWidgetDomain) };
      const text = JSON.stringify(body);
      made = { key, body: text, length: Buffer.byteLength(text) };
      bodies.set(hit, made);
    }
    res.setHeader('Cache-Status', CACHE_STATUS.hit);
    sendJsonText(res, made.body, made.length);
    if (logged)
      logAnswered(logger, {
        req_id: id,
        method: 'GET',
        route: '/search',
        status: 200,
        ms: Date.now() - started,
        cache: 'hit',
        upstream_calls: 0,
      });
  };
}

/**
 * The search route handler (after the BFF's middleware and the visitor limit; a fresh answer in memory was
 * answered by {@link searchHitRoute} already); lookups are recorded in `metrics` when given.
 */
export function searchRoute(search: SearchService, metrics?: Pick<BffMetrics, 'cacheLookup'>): RequestHandler {
  return async function domainkitBffSearch(req, res) {
    const { q } = parseInput(widgetSearchQuerySchema, req.query, 'query', SEARCH_QUERY_HELP);
    const query = normaliseQuery(q);
    // A visitor that goes away while waiting for a token leaves the queue: no token is taken for it.
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort();
    };
    res.once('close', onClose);
    let answer: SearchAnswer;
    try {
      answer = await search.search(query, gone.signal);
    } catch (error) {
      if (gone.signal.aborted) return;
      throw error;
    } finally {
      res.off('close', onClose);
    }
    noteRequest({ cache: cacheResultOf(METRIC_SOURCE[answer.source]) });
    metrics?.cacheLookup('search', METRIC_SOURCE[answer.source]);
    res.setHeader('Cache-Status', CACHE_STATUS[answer.source]);
    const body: WidgetSearchResponse =
      answer.source === 'index'
        ? { query, results: answer.listings.map(toWidgetDomain), source: 'index' }
        : { query, results: answer.value.domains.map(toWidgetDomain) };
    const text = JSON.stringify(body);
    sendJsonText(res, text, Buffer.byteLength(text));
  };
}

/** What the per-process search route uses. */
export interface ProcessCacheSearchRouteDeps {
  readonly client: Pick<MarketplaceApi, 'searchDomains'>;
  /** Upstream answers by normalised query. */
  readonly searchCache: SearchCache<DomainSearchResponse>;
  /** How long a visitor's search waits for the upstream budget (ms) before answering 503 `busy`. */
  readonly maxWaitMs: number;
  /** Where cache lookups are recorded (metrics.ts). */
  readonly metrics?: Pick<BffMetrics, 'cacheLookup'> | undefined;
}

/**
 * The per-process search cache (`searchCache.mode: "process"`): fresh, then stale while one background call
 * refreshes it, each process alone; a miss waits for a token up to `maxWaitMs`, else 503 `busy`. Kept for
 * comparison (the benchmark's baseline).
 */
export function processCacheSearchRoute(ctx: ProcessCacheSearchRouteDeps): RequestHandler {
  return async function domainkitBffSearch(req, res) {
    const { q } = parseInput(widgetSearchQuerySchema, req.query, 'query', SEARCH_QUERY_HELP);
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
