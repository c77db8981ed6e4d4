/**
 * `createBff(options)`: the partner's backend-for-frontend as an Express `Router`, mountable at any path of an
 * existing app (docs/architecture.md "The widget ↔ BFF API"). It holds the Partner API secret and exposes only a narrow,
 * purpose-built API to the widget; it is never a generic signing proxy.
 */
import { PublicClient, type PublicDomainSearchResponseLenient } from '@domainkit/client';
import type { DomainSearchResponse } from '@domainkit/protocol';
import express, { type RequestHandler, type Router } from 'express';
import { requestDeadline } from './deadline.ts';
import type { LearnedPrice } from './upstream/domain-changes.ts';
import { environmentOf } from './upstream/environment.ts';
import { errorHandler } from './errors.ts';
import type { BackgroundReport } from './scheduled-round.ts';
import { type CatchUpReport, type EventHandler, type EventHandlerType, webhooksFeature } from './webhooks/index.ts';
import { bffLogger } from './logger.ts';
import type { CredentialStatus, ProbeOptions } from './upstream/credential-check.ts';
import * as promClient from 'prom-client';
import { BffMetrics } from './metrics.ts';
import { answerRequestId, contextualLogger, requestContext } from './request-context.ts';
import { unknownEventTypeProblem, validateBffOptions, type BffOptions } from './options.ts';
import { type RecoveryReport, purchaseFeature } from './purchase/index.ts';
import { checkoutFeature } from './checkout/index.ts';
import { methodNotAllowed } from './routes/context.ts';
import { domainRoute } from './routes/domain.ts';
import { healthRoute, readyRoute } from './routes/health.ts';
import { proxyTrust } from './proxy-trust.ts';
import { processCacheSearchRoute, searchHitRoute, searchRoute } from './routes/search.ts';
import { siblingsRoute } from './routes/siblings.ts';
import { expressRoute } from './express-route.ts';
import { resolveBffOptions } from './resolved-options.ts';
import { BFF_VERSION, BffRuntime } from './runtime.ts';
import { SearchCache, SqlAnswerStore, SearchService, type SearchStats } from './search/index.ts';
import {
  JSON_BODY_LIMIT_BYTES,
  applyNoStore,
  cors,
  refuseCrossSiteWrites,
  noStore,
  securityHeaders,
} from './security.ts';
import { SqlVisitorHitStore, visitorLimiters } from './visitor-limits.ts';

export { BFF_VERSION };

/** Every path the router may answer (relative to where it is mounted); which are on depends on the options. */
export const BFF_PATHS = [
  '/healthz',
  '/readyz',
  '/search',
  '/siblings',
  '/domains',
  '/checkout',
  '/quotes',
  '/orders',
  '/webhooks',
  '/metrics',
] as const;

/** The router `createBff` returns: an Express `Router` plus the BFF's lifecycle and event handlers. */
export interface BffRouter extends Router {
  /** Resolves when the database is open and migrated (at once when no database is used). */
  readonly ready: Promise<void>;
  /** `pglite`, `postgres`, or `none` when no enabled feature needs a database. */
  readonly databaseKind: 'pglite' | 'postgres' | 'none';
  /**
   * Adds an event handler for a type (`order.settled`, …; the handler receives exactly that event) or `*`; returns
   * the router.
   * @throws {TypeError} for an unknown event type (with the likely intended one) or a handler that is no function.
   */
  on<T extends EventHandlerType>(type: T, handler: EventHandler<T>): BffRouter;
  /** Runs one recovery pass of unfinished order intents now. */
  recover(): Promise<RecoveryReport>;
  /** Catches up with `GET /events` now, then handles the new events. */
  catchUp(): Promise<CatchUpReport>;
  /** Handles the due inbox events now. */
  processInbox(): Promise<void>;
  /**
   * One round of background work (webhook registration while pending, a recovery pass, a catch-up, the due inbox
   * events), for a cron when `background.mode` is `'scheduled'`; see `scheduled-round.ts`. Never rejects.
   */
  scheduled(): Promise<BackgroundReport>;
  /** Resolves when no background work is running. */
  idle(): Promise<void>;
  /**
   * Probes the marketplace credential now (signature and the scopes the options need; credential-check.ts) and
   * caches the outcome `/readyz` answers with. Never throws.
   */
  checkCredential(options?: ProbeOptions): Promise<CredentialStatus>;
  /** Whether `/readyz` proves the credential (option `checkCredential`). */
  readonly credentialChecked: boolean;
  /** The BFF's metrics (metrics.ts): `bff.metrics.handler()` serves them wherever you mount it. */
  readonly metrics: BffMetrics;
  /** Stops the background work and closes the database the BFF opened (not one passed in). */
  close(graceMs?: number): Promise<void>;
  /** What the search did so far (running totals, and visitors waiting now), for metrics. */
  searchStats(): SearchStats;
  /** Reads other processes' search evictions, answers and listings now (done every second by itself). */
  syncSearch(): Promise<void>;
}

/** Middleware run one after the other as one (an error, or `next('route')`, goes straight to the router). */
function inSequence(...handlers: RequestHandler[]): RequestHandler {
  return function domainkitBffCommon(req, res, next) {
    let i = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) {
        next(error);
        return;
      }
      const handler = handlers[i++];
      if (handler === undefined) {
        next();
        return;
      }
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * Creates the BFF router. Routes, relative to the mount path:
 *
 * | route | answer |
 * |---|---|
 * | `GET /search?q=` | 200 `{query, results: [{domain, available, price_cents, currency}]}` (≤ 5), cached and coalesced |
 * | `GET /siblings?q=` | 200 `{query, siblings: [{domain, tld, status, available, price_cents, currency, kind}]}` (≤ 8) through the Public API, cached and coalesced (unless `siblings: false`) |
 * | `GET /domains/:name` | 200 `{domain, available, price_cents, currency}`; 404 `not_found` |
 * | `POST /checkout` `{domain, return_url?, cancel_url?}` | 201 `{checkout_url, expires_at, price_cents, currency}` (non-MoR) |
 * | `GET /checkout/return?…&sig=` (the lander's signed result) | 200 `{checkout_session_id, status, domain, price_cents, currency}` |
 * | `POST /quotes` `{domain}` | 201 `{quote_id, domain, price_cents, currency, expires_at}` (with `payments`); 200 with the order when the purchase key's attempt has one in flight |
 * | `POST /orders` `{quote_id, buyer, payment}` | 201 order + `order_token`, or 202 `PROCESSING` (with `payments`) |
 * | `GET /orders/:id` + `X-Order-Token` | 200 `{order_id, status, domain, sale_price_cents, currency, updated_at}` |
 * | `POST /webhooks` | 200 `{received: true}` once stored (with `webhook`) |
 * | `GET /healthz`, `GET /readyz` | liveness; readiness (the database answers) |
 * | `GET /metrics` | Prometheus text format (with `metrics`; metrics.ts) |
 *
 * Errors are `{"error": {"code", "message"}}`. Every answer carries helmet's headers, `Cache-Control: no-store`
 * and, for configured origins, CORS headers. Any other path passes through to the partner's app.
 *
 * @throws {BffOptionsError} at creation, listing every bad option with the fix.
 */
export function createBff(options: BffOptions): BffRouter {
  const o = resolveBffOptions(validateBffOptions(options));
  const baseLogger = bffLogger(o.logger, o.headerPrefix);
  // Every line written while a request is served carries its req_id (request-context.ts).
  const logger = contextualLogger(baseLogger);
  // The Express router always records: `bff.metrics.handler()` may be mounted whatever the `metrics` option.
  const metrics = new BffMetrics(promClient);
  const runtime = new BffRuntime(o, logger, metrics);
  // The Express router starts at once, as it always has (a failure to open is logged by the runtime).
  runtime.start().catch(() => {});
  const { client, database, domainChanges, inbox } = runtime;
  const domainChanged = (domain: string) => domainChanges.changed(domain);
  const priceLearned = (price: LearnedPrice) => domainChanges.priced(price);
  const cacheSettings = (what: string, settings: typeof o.searchCache) => ({
    ...settings,
    now: o.now,
    onBackgroundError: (_key: string, error: unknown) =>
      logger.debug(
        { error: error instanceof Error ? error.message : String(error) },
        `background ${what} refresh failed; the stale answer stays`,
      ),
  });
  const ss = o.search;
  // `process` mode: the earlier per-process cache (no queue, no index), kept for comparison.
  const processCache =
    ss.mode === 'process' ? new SearchCache<DomainSearchResponse>(cacheSettings('search', o.searchCache)) : undefined;
  const search = new SearchService({
    budget: runtime.budget,
    fetch: (query, context) => client.searchDomains(query, { context }),
    // The shared answers, evictions and listings of this credential in its environment only (answer-store.ts).
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
  if (processCache === undefined && database.kind !== 'none') {
    runtime.ready.then(
      () =>
        search
          .start()
          .catch((error: unknown) =>
            logger.warn({ error: (error as Error).message }, 'search answers could not be read from the database'),
          ),
      () => {},
    );
  }
  runtime.onClose(() => search.close());
  // One reading of the proxies in front for the whole router: the visitor's address and the shop's own origin.
  const proxies = proxyTrust(logger);
  // On a shared PostgreSQL every process counts a visitor's requests together; else in this process's memory.
  const limits = visitorLimiters(
    o.visitorLimits,
    database.kind === 'postgres'
      ? (prefix) => new SqlVisitorHitStore({ db: () => database.db(), prefix, now: o.now, logger })
      : undefined,
    { clientAddress: proxies.clientAddress, logger },
  );
  const mor = o.payments !== undefined;
  const webhook = o.webhook;
  const m = o.marketplace;
  // The Public API is unsigned: an anonymous client of its own (no credential), created once.
  const siblings =
    !o.siblings || m === undefined
      ? undefined
      : {
          client: new PublicClient({
            baseUrl: m.baseUrl,
            dispatcher: m.dispatcher,
            timeoutMs: o.upstream.timeoutMs,
            maxRetries: o.upstream.maxRetries,
            // A visitor is waiting: a longer Retry-After is answered "busy" at once.
            maxRetryAfterSeconds: o.publicApiMaxRetryAfterSeconds,
          }),
          cache: new SearchCache<PublicDomainSearchResponseLenient>(cacheSettings('siblings', o.siblingsCache)),
          metrics,
        };

  // Whatever the BFF learns about a domain (an order, a 409/404 upstream, an order event, an unavailable detail)
  // drops every cached answer listing it, so no visitor keeps seeing a sold domain as available.
  // Whatever price the BFF learns (a quote, a checkout session, a domain detail; search answers inside the search
  // service) corrects every cached answer listing the domain, in every process.
  domainChanges.listenPrices((price) => search.priceLearned(price));
  domainChanges.listen((domain) => {
    search.domainChanged(domain);
    processCache?.evict((answer) => answer.domains.some((d) => d.domain.toLowerCase() === domain));
    siblings?.cache.evict(
      (answer) =>
        answer.domain?.domain.toLowerCase() === domain ||
        answer.siblings.some((d) => d.domain.toLowerCase() === domain),
    );
  });

  const dbOf = () => database.db();
  const router = express.Router();
  const paths = BFF_PATHS.filter((p) =>
    p === '/quotes' || p === '/orders'
      ? mor
      : p === '/webhooks'
        ? webhook !== undefined
        : p === '/siblings'
          ? siblings !== undefined
          : p === '/metrics'
            ? o.metrics.served
            : true,
  );
  const security = securityHeaders();
  const crossOrigin = cors(o.allowedOrigins, logger, proxies.ownOrigin);
  // The busiest answer first: a search whose fresh answer is in memory, with every BFF answer's headers, before any
  // other layer (routes/search.ts).
  if (processCache === undefined && security.apply !== undefined) {
    const applySecurity = security.apply;
    router.use(
      '/search',
      searchHitRoute({
        search,
        accepts: crossOrigin.accepts,
        answerHeaders(req, res) {
          const id = answerRequestId(req, res);
          applySecurity(req, res);
          crossOrigin.apply(req, res);
          applyNoStore(res);
          return id;
        },
        logger: baseLogger,
        metrics,
      }),
    );
  }
  // One router layer for the four (each layer costs a path match per request).
  router.use(paths, inSequence(requestContext(baseLogger, metrics), security, crossOrigin, noStore));
  // Visitor requests have an overall deadline; webhook deliveries and health checks answer at once anyway.
  const visitorPaths = paths.filter(
    (p) => p !== '/webhooks' && p !== '/healthz' && p !== '/readyz' && p !== '/metrics',
  );
  router.use(visitorPaths, requestDeadline(o.requestDeadlineMs, logger));
  const sameSite = refuseCrossSiteWrites(o.allowedOrigins, proxies.ownOrigin);
  // The web-standard routes (checkout/, purchase/, webhooks/) read their own bodies (http/body.ts).
  const bridge = { logger, clientAddress: proxies.clientAddress, ownOrigin: proxies.ownOrigin };
  // The busiest route first: a visitor's search passes no other route's path match.
  const searchHandler =
    processCache === undefined
      ? searchRoute(search, metrics)
      : processCacheSearchRoute({ client, searchCache: processCache, maxWaitMs: ss.maxWaitMs, metrics });
  router.route('/search').get(limits.search, searchHandler).all(methodNotAllowed('GET'));
  router.route('/healthz').get(healthRoute).all(methodNotAllowed('GET'));
  router
    .route('/readyz')
    .get(readyRoute(database, o.readiness.checkCredential ? runtime.credential : undefined))
    .all(methodNotAllowed('GET'));
  if (o.metrics.served) router.route('/metrics').get(metrics.handler(o.metrics.token)).all(methodNotAllowed('GET'));
  if (siblings !== undefined)
    router.route('/siblings').get(limits.siblings, siblingsRoute(siblings)).all(methodNotAllowed('GET'));
  router
    .route('/domains/:name')
    .get(limits.search, domainRoute({ client, maxWaitMs: o.budgetMaxWaitMs, domainChanged, priceLearned }))
    .all(methodNotAllowed('GET'));
  // The web-standard features (checkout/, purchase/, webhooks/): each route mounted with the checks its spec names.
  const features = [
    checkoutFeature({
      client,
      returnUrl: o.returnUrl,
      cancelUrl: o.cancelUrl,
      checkoutReturnOrigins: o.checkoutReturnOrigins,
      secret: o.marketplace?.secret,
      keyId: o.keyId,
      db: dbOf,
      now: o.now,
      onCheckoutCompleted: o.onCheckoutCompleted,
      logger,
      domainChanged,
      priceLearned,
    }),
    ...(mor
      ? [
          purchaseFeature({
            db: dbOf,
            client,
            now: o.now,
            domainChanged,
            priceLearned,
            orderFlow: () => runtime.orderFlow(),
          }),
        ]
      : []),
    ...(webhook === undefined
      ? []
      : [
          webhooksFeature({
            secret: webhook.secret,
            headerPrefix: o.headerPrefix,
            db: dbOf,
            keyId: o.keyId,
            now: o.now,
            logger,
            metrics,
            domainChanged,
            eventsStored: () => inbox.kick(),
          }),
        ]),
  ];
  for (const spec of features.flatMap((feature) => feature.routes)) {
    const checks = [
      ...(spec.sameSiteWrite ? [sameSite] : []),
      ...(spec.limit === undefined ? [] : [limits[spec.limit]]),
    ];
    const route = router.route(spec.path);
    // The webhook receiver checks a signature on the exact bytes: a body parsed before cannot stand in for them.
    const raw = spec.path === '/webhooks';
    if (spec.GET) route.get(...checks, expressRoute(spec.GET, bridge, raw));
    if (spec.POST) route.post(...checks, expressRoute(spec.POST, bridge, raw));
    route.all(methodNotAllowed(spec.POST ? 'POST' : 'GET'));
  }
  router.use(paths, errorHandler(logger, { bodyLimitKb: JSON_BODY_LIMIT_BYTES / 1024 }));

  const bff = router as BffRouter;
  Object.defineProperties(bff, {
    ready: { value: database.ready },
    metrics: { value: metrics },
    databaseKind: { get: () => database.kind },
  });
  return Object.assign(bff, {
    on(type: string, handler: EventHandler) {
      const unknownType = unknownEventTypeProblem(String(type));
      if (unknownType) throw new TypeError(`bff.on(${JSON.stringify(type)}, handler): ${unknownType}`);
      if (typeof handler !== 'function')
        throw new TypeError(
          `bff.on(${JSON.stringify(type)}, handler): handler must be a function (event, context) => void`,
        );
      runtime.on(type as EventHandlerType, handler);
      return bff;
    },
    recover: () => runtime.recover(),
    checkCredential: (options?: ProbeOptions) => runtime.credential.refresh(options),
    credentialChecked: o.readiness.checkCredential,
    catchUp: () => runtime.catchUp(),
    scheduled: () => runtime.scheduled(),
    processInbox: async () => {
      await inbox.kick();
      await runtime.jobs.idle();
    },
    idle: () => runtime.jobs.idle(),
    close: (graceMs?: number) => runtime.close(graceMs),
    searchStats: () => search.stats,
    syncSearch: () => search.sync(),
  });
}
