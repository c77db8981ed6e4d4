/**
 * `GET /siblings?q=` → 200 `{"query", "siblings": [{"domain", "tld", "status", "available", "price_cents",
 * "currency", "kind"}], "domain"?: {"domain", "status"} | null}`: the visitor's word under other TLDs, and when the
 * query is a whole domain, where that very name stands (`available`, `for_sale`, `registered`) (its alternate-TLD siblings), read anonymously
 * through the Public API (Public API spec 4.2 `POST /api/domain/search`). Registry prices are public; marketplace listing
 * prices are masked for anonymous callers (Public API spec 5.2), so a listing's price is `null`.
 *
 * The query is normalised as `GET /search` does, then reduced to one domain label (see {@link siblingLabel}); the
 * Public API's answer is kept in a {@link SearchCache} by label (fresh, stale-while-revalidate, stale-if-error) and
 * identical calls in flight share one upstream request. A query that cannot be a label answers no siblings without
 * calling upstream.
 */
import { named } from '../http/widget.ts';
import type { PublicDomainResultLenient, PublicDomainSearchResponseLenient } from '@domainkit/client';
import {
  WIDGET_SIBLINGS_MAX,
  widgetSiblingsQuerySchema,
  type WidgetExactDomain,
  type WidgetSibling,
  type WidgetSiblingsResponse,
} from '@domainkit/protocol';
import { PublicClient } from '@domainkit/client';
import type { Logger } from 'pino';
import type { RouteHandler } from '../http/request.ts';
import { noteRequest } from '../http/request-context.ts';
import { json } from '../http/respond.ts';
import type { RouteSpec } from '../http/routes.ts';
import { type BffMetrics, cacheResultOf } from '../metrics.ts';
import type { ResolvedBffOptions } from '../resolved-options.ts';
import type { BffRuntime } from '../runtime.ts';
import { normaliseQuery, SearchCache } from '../search/index.ts';
import { parseInput, SEARCH_QUERY_HELP } from '../validate.ts';

/** A DNS label (RFC 1035 2.3.1, lowercase LDH): what the Public API takes as a bare label. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** What the route needs. */
export interface SiblingsDeps {
  /** The anonymous Public API client (created once from `marketplace.baseUrl`). */
  readonly client: Pick<PublicClient, 'searchDomain'>;
  /** Public API answers by label. */
  readonly cache: SearchCache<PublicDomainSearchResponseLenient>;
  /** Where cache lookups are recorded (metrics.ts). */
  readonly metrics?: Pick<BffMetrics, 'cacheLookup'> | undefined;
}

/**
 * The domain label whose siblings are looked up for a normalised query, or `undefined` when it cannot be one:
 * a leading `www.` and everything from the first dot on are dropped, inner spaces removed
 * (`"coffee shop"` → `"coffeeshop"`, `"www.coffee.io"` → `"coffee"`, `"café"` → `undefined`).
 */
export function siblingLabel(query: string): string | undefined {
  const label = query
    .replace(/\s+/g, '')
    .replace(/^www\./, '')
    .split('.', 1)[0]!;
  return LABEL.test(label) ? label : undefined;
}

/**
 * The whole domain name a normalised query names (`"www.Live-Site.com"` → `"live-site.com"`), or `undefined` for a
 * bare word or anything that is not one label and a TLD: the name whose own standing the answer carries.
 */
export function exactDomain(query: string): string | undefined {
  const parts = query.replace(/^www\./, '').split('.');
  return parts.length === 2 && parts.every((part) => LABEL.test(part)) && /^[a-z]{2,}$/.test(parts[1]!)
    ? parts.join('.')
    : undefined;
}

/**
 * Where `domain` stands in a label's answer (its `domain`, else among its `siblings`: a label's answer lists it under
 * every TLD the service knows), or `null` when the answer does not list it or gives a status this BFF does not know.
 */
export function toExactDomain(answer: PublicDomainSearchResponseLenient, domain: string): WidgetExactDomain | null {
  const found = [answer.domain, ...answer.siblings].find((d) => d?.domain.toLowerCase() === domain);
  const status = found?.status;
  return status === 'available' || status === 'for_sale' || status === 'registered'
    ? { ...named(domain), status }
    : null;
}

/** One Public API result as the widget shows it, or `undefined` when it cannot be bought. */
function toSibling(result: PublicDomainResultLenient): WidgetSibling | undefined {
  if (!result.available || (result.status !== 'available' && result.status !== 'for_sale')) return undefined;
  const kind = result.status === 'available' ? 'registration' : 'listing';
  const price = kind === 'registration' ? result.registration : result.listing;
  const priced =
    price != null &&
    price.price_cents !== null &&
    Number.isSafeInteger(price.price_cents) &&
    price.price_cents >= 0 &&
    CURRENCY.test(price.currency);
  return {
    ...named(result.domain),
    tld: result.tld,
    status: result.status,
    available: true,
    price_cents: priced ? price.price_cents : null,
    currency: priced ? price.currency : null,
    kind,
  };
}

/**
 * The siblings of an answer the widget shows for `query`: those that can be bought (registered names are left
 * out), never the very domain the visitor typed, in the Public API's order (most popular TLD first), at most
 * {@link WIDGET_SIBLINGS_MAX}.
 */
export function toWidgetSiblings(answer: PublicDomainSearchResponseLenient, query: string): WidgetSibling[] {
  const typed = query.replace(/\s+/g, '').replace(/^www\./, '');
  const out: WidgetSibling[] = [];
  for (const result of answer.siblings) {
    const sibling = result.domain === typed ? undefined : toSibling(result);
    if (sibling !== undefined) out.push(sibling);
    if (out.length === WIDGET_SIBLINGS_MAX) break;
  }
  return out;
}

/** The siblings route handler. Raises (to the error handler) `validation_error` and the upstream failures. */
export function siblingsRoute(deps: SiblingsDeps): RouteHandler {
  return async function domainkitBffSiblings(req) {
    const { q } = parseInput(widgetSiblingsQuerySchema, req.query, 'query', SEARCH_QUERY_HELP);
    const query = normaliseQuery(q);
    const label = siblingLabel(query);
    const exact = exactDomain(query);
    let siblings: WidgetSibling[] = [];
    let domain: WidgetExactDomain | null | undefined;
    if (label !== undefined) {
      const { value, source } = await deps.cache.get(label, () => deps.client.searchDomain(label));
      noteRequest({ cache: cacheResultOf(source) });
      deps.metrics?.cacheLookup('siblings', source);
      siblings = toWidgetSiblings(value, query);
      // The very name typed: its own standing, read from its label's answer (one upstream call for both).
      if (exact !== undefined) domain = toExactDomain(value, exact);
    }
    const body: WidgetSiblingsResponse = domain === undefined ? { query, siblings } : { query, siblings, domain };
    return json(body);
  };
}

/**
 * The siblings feature of one BFF (unless `siblings: false` or no marketplace): `GET /siblings` through an
 * anonymous Public API client of its own (the Public API is unsigned), created once; every domain change drops the
 * cached answers listing it.
 */
export function siblingsFeature(o: ResolvedBffOptions, runtime: BffRuntime, logger: Logger): RouteSpec[] {
  const m = o.marketplace;
  if (!o.siblings || m === undefined) return [];
  const client = new PublicClient({
    baseUrl: m.baseUrl,
    dispatcher: m.dispatcher,
    timeoutMs: o.upstream.timeoutMs,
    maxRetries: o.upstream.maxRetries,
    // A visitor is waiting: a longer Retry-After is answered "busy" at once.
    maxRetryAfterSeconds: o.publicApiMaxRetryAfterSeconds,
  });
  const cache = new SearchCache<PublicDomainSearchResponseLenient>({
    ...o.siblingsCache,
    now: o.now,
    onBackgroundError: (_key, error) =>
      logger.debug(
        { error: error instanceof Error ? error.message : String(error) },
        'background siblings refresh failed; the stale answer stays',
      ),
  });
  runtime.domainChanges.listen((domain) =>
    cache.evict(
      (answer) =>
        answer.domain?.domain.toLowerCase() === domain ||
        answer.siblings.some((d) => d.domain.toLowerCase() === domain),
    ),
  );
  return [{ path: '/siblings', GET: siblingsRoute({ client, cache, metrics: runtime.metrics }), limit: 'siblings' }];
}
