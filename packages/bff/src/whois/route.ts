/**
 * `GET /whois?domain=` → 200 `{"domain", "registered", "registrar", "registered_at"}`: who holds a domain, from its
 * WHOIS/RDAP record, read anonymously through the Public API (Public API spec 4.2 `POST /api/tools/whois`), for the
 * widget's "Who holds it?" on a taken name.
 *
 * The domain is checked before anything goes upstream (400 `validation_error` naming `domain`). Answers are kept in a
 * {@link SearchCache} by domain (fresh for `whois.ttlSeconds`, then served stale while one call refreshes it, and
 * while the Public API fails) and identical lookups in flight share one call. Lookups that reach the Public API are
 * bounded per process by a token bucket (`whois.lookupsPerMinute`): when it is empty the visitor gets 503 `busy` with
 * `Retry-After`, and nothing is sent.
 */
import type { PublicClient, PublicWhoisRecordLenient } from '@domainkit/client';
import { PublicClient as Client } from '@domainkit/client';
import { widgetWhoisQuerySchema, type WidgetWhoisResponse } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { RouteHandler } from '../http/request.ts';
import { noteRequest } from '../http/request-context.ts';
import { json } from '../http/respond.ts';
import type { RouteSpec } from '../http/routes.ts';
import { type BffMetrics, cacheResultOf } from '../metrics.ts';
import type { ResolvedBffOptions } from '../resolved-options.ts';
import type { BffRuntime } from '../runtime.ts';
import { SearchCache } from '../search/index.ts';
import { UpstreamBusyError } from '../upstream/budget.ts';
import { parseInput } from '../validate.ts';
import type { ResolvedWhois } from './options.ts';

/** What the route needs. */
export interface WhoisDeps {
  /** The anonymous Public API client. */
  readonly client: Pick<PublicClient, 'whois'>;
  /** Answers by domain. */
  readonly cache: SearchCache<WidgetWhoisResponse>;
  /** Takes one lookup from the budget, or throws {@link UpstreamBusyError} (see {@link lookupBudget}). */
  readonly take: () => void;
  /** Where cache lookups are recorded (metrics.ts). */
  readonly metrics?: Pick<BffMetrics, 'cacheLookup'> | undefined;
}

/**
 * A per-process token bucket of `perMinute` lookups a minute (a burst of a quarter of them, at least 1), refilled
 * continuously. The returned function takes one token or throws {@link UpstreamBusyError} with the whole seconds until
 * the next one. The Public API's own limits are not stated (spec 8): this keeps one shop's visitors from spending them.
 * @param now - clock, ms since the epoch.
 */
export function lookupBudget(perMinute: number, now: () => number): () => void {
  const burst = Math.max(1, Math.floor(perMinute / 4));
  const perMs = perMinute / 60_000;
  let tokens = burst;
  let at = now();
  return () => {
    const t = now();
    tokens = Math.min(burst, tokens + (t - at) * perMs);
    at = t;
    if (tokens < 1) throw new UpstreamBusyError('search', Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)));
    tokens -= 1;
  };
}

/** A WHOIS/RDAP record as the widget shows it: the registrar's name and the registration date only. */
export function toWidgetWhois(record: PublicWhoisRecordLenient, domain: string): WidgetWhoisResponse {
  const registered = record.registered === true;
  const name = registered ? record.registrar?.name?.trim() : undefined;
  const date = registered ? record.dates.registered : null;
  return {
    domain,
    registered,
    registrar: name ? name : null,
    registered_at: date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : null,
  };
}

/** The WHOIS route handler. Raises (to the error handler) `validation_error`, `busy` and the upstream failures. */
export function whoisRoute(deps: WhoisDeps): RouteHandler {
  return async function domainkitBffWhois(req) {
    const { domain } = parseInput(widgetWhoisQuerySchema, req.query, 'query', {
      domain: { label: '`domain`', hint: 'the domain name to look up', example: 'coffee.com' },
    });
    const { value, source } = await deps.cache.get(domain, async () => {
      deps.take();
      return toWidgetWhois(await deps.client.whois(domain), domain);
    });
    noteRequest({ cache: cacheResultOf(source) });
    deps.metrics?.cacheLookup('whois', source);
    return json(value);
  };
}

/**
 * The WHOIS feature of one BFF (unless `whois: false` or no marketplace): `GET /whois` through an anonymous Public API
 * client of its own, created once, counted against each visitor's `siblings` limit (the same kind of extra read).
 */
export function whoisFeature(o: ResolvedBffOptions, runtime: BffRuntime, logger: Logger): RouteSpec[] {
  const m = o.marketplace;
  const settings: ResolvedWhois | undefined = o.whois;
  if (settings === undefined || m === undefined) return [];
  const client = new Client({
    baseUrl: m.baseUrl,
    dispatcher: m.dispatcher,
    timeoutMs: o.upstream.timeoutMs,
    maxRetries: o.upstream.maxRetries,
    maxRetryAfterSeconds: o.publicApiMaxRetryAfterSeconds,
  });
  const cache = new SearchCache<WidgetWhoisResponse>({
    ttlMs: settings.ttlMs,
    staleWhileRevalidateMs: settings.ttlMs,
    staleIfErrorMs: settings.ttlMs,
    maxEntries: settings.maxEntries,
    now: o.now,
    onBackgroundError: (_key, error) =>
      logger.debug(
        { error: error instanceof Error ? error.message : String(error) },
        'background WHOIS refresh failed; the stale answer stays',
      ),
  });
  const take = lookupBudget(settings.lookupsPerMinute, o.now);
  return [{ path: '/whois', GET: whoisRoute({ client, cache, take, metrics: runtime.metrics }), limit: 'siblings' }];
}
