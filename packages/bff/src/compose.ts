/**
 * The BFF assembled from its features, once, when it is first used (handler.ts): the runtime (database, upstream
 * client and budget, background work; runtime.ts), each feature's routes (search/, siblings/, whois/, checkout/,
 * purchase/, brokerage/, console/, webhooks/, probes/, mcp/), the hot path of the cached search, and the request pipeline
 * (http/).
 */
import type { Logger } from 'pino';
import { brokerageFeature } from './brokerage/index.ts';
import { checkoutFeature } from './checkout/index.ts';
import { consoleFeature } from './console/index.ts';
import { hotPath } from './http/prepared.ts';
import { type HostContext, pipeline, type Pipeline, type PipelineOptions } from './http/pipeline.ts';
import { MemoryVisitorHitStore } from './http/visitor-limits.ts';
import { MCP_CONSENT_ROUTES, MCP_SHOP_ROUTES, mcpFeature, type ShopCaller } from './mcp/index.ts';
import { compileTrust, type TrustFn, type TrustProxySetting } from './http/proxy-trust.ts';
import { Routes, type RouteSpec } from './http/routes.ts';
import { SqlVisitorHitStore, visitorLimiters } from './http/visitor-limits.ts';
import type { BffMetrics } from './metrics.ts';
import { probeRoutes } from './probes/index.ts';
import { purchaseFeature } from './purchase/index.ts';
import type { ResolvedBffOptions } from './resolved-options.ts';
import { BffRuntime } from './runtime.ts';
import { searchFeature } from './search/index.ts';
import type { SearchService } from './search/index.ts';
import { siblingsFeature } from './siblings/index.ts';
import type { LearnedPrice } from './upstream/domain-changes.ts';
import { webhooksFeature } from './webhooks/index.ts';
import { whoisFeature } from './whois/index.ts';

/** A BFF's assembled parts. */
export interface ComposedBff {
  readonly runtime: BffRuntime;
  readonly routes: Routes;
  readonly serve: Pipeline;
  /** The hot path (http/prepared.ts). */
  readonly hot: ReturnType<typeof hotPath>;
  readonly search: SearchService;
  /** The trusted proxies (option `trustProxy`). */
  readonly trust: TrustFn | undefined;
}

/**
 * Assembles a BFF. Opens its database (in the background) and, unless background work runs on `scheduled()`,
 * starts its timers once the database is open.
 * @param logger - the contextual logger (lines carry the request id); `accessLogger` gets the access lines.
 */
export function composeBff(
  o: ResolvedBffOptions,
  logger: Logger,
  accessLogger: Logger,
  metrics: BffMetrics,
  trustProxy: TrustProxySetting,
): ComposedBff {
  const runtime = new BffRuntime(o, logger, metrics);
  const { database } = runtime;
  const search = searchFeature(o, runtime, logger);
  const shopRoutes = [
    ...search.routes,
    ...probeRoutes(o, runtime),
    ...siblingsFeature(o, runtime, logger),
    ...whoisFeature(o, runtime, logger),
    ...consoleFeature(o, runtime, logger),
    ...writeRoutes(o, runtime, logger),
  ];
  // On a shared PostgreSQL every process counts a visitor's requests together; else in this process's memory.
  // Either way on the BFF's clock, as the budgets and the agents' allowance are.
  const limits = visitorLimiters(
    o.visitorLimits,
    database.kind === 'postgres'
      ? (prefix) => new SqlVisitorHitStore({ db: () => database.db(), prefix, now: o.now, logger })
      : undefined,
    o.now,
  );
  const trust = compileTrust(trustProxy);
  const common: Omit<PipelineOptions, 'routes' | 'limits'> = {
    logger,
    accessLogger,
    metrics,
    allowedOrigins: o.allowedOrigins,
    keyGenerator: o.visitorLimits === false ? undefined : o.visitorLimits.keyGenerator,
    deadlineMs: o.requestDeadlineMs,
    trust,
    withRequest: (context, work) => runtime.withRequest(context, work),
  };
  const agentRoutes =
    o.mcp === undefined
      ? []
      : mcpFeature({
          settings: o.mcp,
          shop: shopCaller(shopRoutes, common, MCP_SHOP_ROUTES),
          consentShop: shopCaller(shopRoutes, common, MCP_CONSENT_ROUTES),
          brokerageOffer: o.brokerage && { currency: o.brokerage.currency, tier: o.brokerage.tier },
          consentSecret: o.marketplace?.secret,
          brokerage: shopRoutes.some((r) => r.path === '/brokerage'),
          publicApi: o.marketplace && {
            ...{ baseUrl: o.marketplace.baseUrl, dispatcher: o.marketplace.dispatcher },
            ...{ timeoutMs: o.upstream.timeoutMs, maxRetries: o.upstream.maxRetries },
            maxRetryAfterSeconds: o.publicApiMaxRetryAfterSeconds,
          },
          siblings: shopRoutes.some((r) => r.path === '/siblings'),
          orders: shopRoutes.some((r) => r.path === '/orders/:id'),
          hits:
            database.kind === 'postgres'
              ? new SqlVisitorHitStore({ db: () => database.db(), prefix: 'mcp:', now: o.now, logger })
              : new MemoryVisitorHitStore(o.now),
          ...{ allowedOrigins: o.allowedOrigins, metrics, now: o.now, logger },
        }).routes;
  const routes = new Routes([...shopRoutes, ...agentRoutes]);
  const serve = pipeline({ ...common, routes, limits });
  const hot = hotPath(
    new Map(search.hot === undefined ? [] : [['/search', search.hot]]),
    o.allowedOrigins,
    accessLogger,
  );
  return { runtime, routes, serve, hot, search: search.service, trust };
}

/**
 * How the MCP tools call the shop's own routes (mcp/ `ShopCaller`): a route table of `allowed` alone
 * ({@link MCP_SHOP_ROUTES} for the tools, {@link MCP_CONSENT_ROUTES} for the person's consent page),
 * served by a pipeline of its own without the visitor limits (the agent's allowance was counted already), in the
 * MCP request's database scope, under its request id, client address and origin.
 */
function shopCaller(
  specs: readonly RouteSpec[],
  common: Omit<PipelineOptions, 'routes' | 'limits'>,
  allowed: readonly string[],
): ShopCaller {
  const reachable = new Set<string>(allowed);
  const routes = new Routes(
    specs.flatMap((spec) => {
      const GET = reachable.has(`GET ${spec.path}`) ? spec.GET : undefined;
      const POST = reachable.has(`POST ${spec.path}`) ? spec.POST : undefined;
      return GET || POST ? [{ ...spec, GET, POST, limit: undefined }] : [];
    }),
  );
  const serve = pipeline({
    ...common,
    routes,
    metrics: undefined,
    limits: { search: undefined, siblings: undefined, write: undefined },
    withRequest: (context, work) => work(context.waitUntil ?? ((promise) => void promise.catch(() => {}))),
  });
  return async (parent, method, path, options = {}) => {
    const [below = '/', query] = path.split('?', 2);
    const match = routes.match(below);
    if (match === undefined) throw new Error(`MCP tools cannot reach ${method} ${below}`);
    const base = parent.url.pathname.slice(0, parent.url.pathname.length - parent.path.length);
    const url = new URL(`${base}${below}${query === undefined ? '' : `?${query}`}`, parent.ownOrigin);
    const headers = new Headers({ ...options.headers, 'X-Request-Id': parent.id });
    if (options.body !== undefined) headers.set('Content-Type', 'application/json');
    const request = new Request(url, {
      method,
      headers,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    const context: HostContext = {
      ...{ clientAddress: parent.clientAddress, trust: null, waitUntil: parent.waitUntil },
      mountPath: parent.mountPath,
    };
    const response = await serve(request, url, below, match, context);
    return { status: response.status, body: await response.json().catch(() => null) };
  };
}

/**
 * The write routes and their reads (checkout/; purchase/ with `payments`; brokerage/ with `brokerage`, whose own
 * `brokerage.case_completed` handler joins the inbox's; webhooks/ with `webhook`: no visitor limit or deadline, the
 * exact bytes of the body).
 */
function writeRoutes(o: ResolvedBffOptions, runtime: BffRuntime, logger: Logger): RouteSpec[] {
  const { client, database, domainChanges, inbox, metrics } = runtime;
  const domainChanged = (domain: string) => domainChanges.changed(domain);
  const priceLearned = (price: LearnedPrice) => domainChanges.priced(price);
  const db = () => database.db();
  const { now, keyId } = o;
  const checkout = checkoutFeature({
    ...{ client, returnUrl: o.returnUrl, cancelUrl: o.cancelUrl, checkoutReturnOrigins: o.checkoutReturnOrigins },
    ...{ secret: o.marketplace?.secret, keyId, db, now, onCheckoutCompleted: o.onCheckoutCompleted },
    ...{ logger, domainChanged, priceLearned },
  });
  const orderFlow = () => runtime.orderFlow();
  const purchase =
    o.payments === undefined
      ? undefined
      : purchaseFeature({
          ...{ db, client, now, domainChanged, priceLearned, orderFlow, logger },
          ...{ deadlineMs: o.requestDeadlineMs, onOrderEvent: o.onOrderEvent },
        });
  if (purchase) runtime.on('*', purchase.onEvent);
  const brokerage =
    o.brokerage === undefined
      ? undefined
      : brokerageFeature({
          ...{ client, db, budget: runtime.budget, settings: o.brokerage, keyId, now, logger },
          reserveWaitMs: o.orders.reserveWaitMs,
        });
  if (brokerage) runtime.on('brokerage.case_completed', brokerage.onCaseCompleted);
  const webhook = o.webhook;
  const webhooks =
    webhook === undefined
      ? undefined
      : webhooksFeature({
          ...{ secret: webhook.secret, headerPrefix: o.headerPrefix, db, keyId, now, logger, metrics },
          ...{ domainChanged, eventsStored: () => inbox.kick() },
        });
  return [...checkout.routes, ...(purchase?.routes ?? []), ...(brokerage?.routes ?? []), ...(webhooks?.routes ?? [])];
}
