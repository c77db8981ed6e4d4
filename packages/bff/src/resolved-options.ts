/**
 * The options of `createBff`, resolved once: every default filled in, every duration in milliseconds, frozen.
 * The rest of the BFF reads from this object and never applies a default of its own (helmet's habit: parse once,
 * at creation). Durations that are not `createBff` options yet are named here, with their default, so none hides
 * in the module that uses it.
 */
import type { Logger } from 'pino';
import { DEFAULT_BUDGET_LIMITS, type BudgetLimits } from './upstream/budget.ts';
import type { BffDatabase, BffDatabaseOptions } from './db/database.ts';
import type { DatabaseSource } from './db/handle.ts';
import { isWorkerd } from './platform.ts';
import {
  INBOX_TIMINGS,
  resolveEventHandlers,
  type EventHandler,
  type EventHandlerType,
  type InboxTimings,
} from './webhooks/index.ts';
import { resolveBrokerage, type ResolvedBrokerage } from './brokerage/index.ts';
import { resolveConsole, type ResolvedConsole } from './console/index.ts';
import { resolveCheckoutReturnOrigins } from './checkout/index.ts';
import { resolveMemoryCache, resolveSearch, type ResolvedSearch, type ResolvedSearchCache } from './search/index.ts';
import { resolveSiblings, resolveSiblingsCache } from './siblings/index.ts';
import { resolveMcp, type ResolvedMcp } from './mcp/index.ts';
import { resolveWhois, type ResolvedWhois } from './whois/index.ts';
import {
  resolveOrderTimings,
  type FailedOrderReport,
  type OrderTimings,
  type PaymentAdapter,
} from './purchase/index.ts';
import type {
  BffOptions,
  MarketplaceApi,
  MarketplaceOptions,
  ValidBffOptions,
  VisitorLimitOptions,
  WebhookOptions,
} from './options.ts';
import {
  DEFAULT_VISITOR_SEARCHES_PER_MINUTE,
  DEFAULT_VISITOR_WRITES_PER_MINUTE,
  type VisitorLimits,
} from './http/visitor-limits.ts';

/** How the BFF calls the marketplace (ms): tuned for a visitor waiting on the answer. */
export interface ResolvedUpstream {
  /** Limit of one upstream attempt; option `marketplace.timeoutMs`, default 10 000. */
  readonly timeoutMs: number;
  /** Retries after the first attempt; option `marketplace.maxRetries`, default 2. */
  readonly maxRetries: number;
  /** First back-off between attempts; default 250. */
  readonly initialRetryDelayMs: number;
  /** Longest back-off, and the longest `Retry-After` honoured before answering busy; default 2 000. */
  readonly maxRetryDelayMs: number;
}

/** Where the BFF's state lives. */
export interface ResolvedDatabase {
  /** `none` when no enabled feature (MoR, webhooks, `onCheckoutCompleted`, brokerage, an explicit `database`) needs one. */
  readonly kind: 'pglite' | 'postgres' | 'none';
  /** A handle passed in (the caller closes it), or the options to open one (the BFF closes it). */
  readonly source: BffDatabase | BffDatabaseOptions | undefined;
  /** Whether the BFF opened the database itself, and so closes it. */
  readonly owned: boolean;
}

/** The background work (ms). */
export interface ResolvedBackground {
  /** Run the start tasks and the timers; option `background.enabled`, default true. */
  readonly enabled: boolean;
  /** `timers` (start tasks and timers) or `scheduled` (no timer: the host calls `scheduled()`); default `scheduled` on workerd, else `timers`. */
  readonly mode: 'timers' | 'scheduled';
  /** Between recovery passes (0: only at start); option `background.recoveryIntervalSeconds`, default 30 s. */
  readonly recoveryIntervalMs: number;
  /** Between catch-ups (0: only at start); option `background.catchUpIntervalSeconds`, default 60 s. */
  readonly catchUpIntervalMs: number;
  /** How long `close()` lets background work in flight finish; default 10 s. */
  readonly closeGraceMs: number;
}

/**
 * Default overall deadline of one visitor request, in seconds: well under the 30 s that common proxies allow, and
 * under the widget's own deadline (20 s), so the visitor gets the BFF's answer rather than a proxy's or a timeout.
 */
export const DEFAULT_REQUEST_DEADLINE_SECONDS = 15;

export type { ResolvedSearch, ResolvedSearchCache } from './search/index.ts';

/** The options of `createBff` with every default applied. Frozen. */
export interface ResolvedBffOptions {
  /** Clock in ms since the epoch; default `Date.now`. */
  readonly now: () => number;
  readonly logger: Logger | false | undefined;
  /** The credential, when the BFF creates its own client. */
  readonly marketplace: MarketplaceOptions | undefined;
  /** A ready client passed in instead of `marketplace`. */
  readonly client: MarketplaceApi | undefined;
  /** The credential's key id (order intents, the inbox and the event cursor are kept per credential). */
  readonly keyId: string;
  /** Signing header prefix, when set (the client's default otherwise). */
  readonly headerPrefix: string | undefined;
  readonly upstream: ResolvedUpstream;
  /** The Public API client's longest honoured `Retry-After` (s) before answering busy; default 2. */
  readonly publicApiMaxRetryAfterSeconds: number;
  /** The cache of `GET /search` in `process` mode (options `searchCache.*`, the same defaults as `search`). */
  readonly searchCache: ResolvedSearchCache;
  /** The cache of `GET /siblings` (option `siblings` as an object). */
  readonly siblingsCache: ResolvedSearchCache;
  readonly search: ResolvedSearch;
  /** Token buckets of Partner API spec 8; option `upstreamBudget`. */
  readonly budgetLimits: BudgetLimits;
  /** Longest wait for an upstream token before a visitor is answered 503 `busy`; option `upstreamBudget.maxWaitMs`, default 1 500. */
  readonly budgetMaxWaitMs: number;
  /** Overall deadline of one visitor request (ms); option `requestDeadlineSeconds`, default 15 s. */
  readonly requestDeadlineMs: number;
  readonly visitorLimits: VisitorLimits;
  readonly allowedOrigins: readonly string[];
  readonly returnUrl: string | undefined;
  readonly cancelUrl: string | undefined;
  /** Origins a widget may name in `return_url` / `cancel_url`; default `allowedOrigins` plus those of the two URLs. */
  readonly checkoutReturnOrigins: ReadonlySet<string>;
  readonly database: DatabaseSource;
  /** The payment adapter: MoR routes on when set. */
  readonly payments: PaymentAdapter | undefined;
  /** Told of every order whose payment was unwound (option `onOrderFailed`). */
  readonly onOrderFailed: ((report: FailedOrderReport) => void | Promise<void>) | undefined;
  /** Told once per step of each MoR order (option `onOrderEvent`). */
  readonly onOrderEvent: BffOptions['onOrderEvent'];
  /** Webhook receiving: `POST /webhooks` on when set. */
  readonly webhook: WebhookOptions | undefined;
  /** Option `onCheckoutCompleted`. */
  readonly onCheckoutCompleted: BffOptions['onCheckoutCompleted'];
  /** Event handlers given as `onEvent`, flattened. */
  readonly eventHandlers: ReadonlyArray<readonly [type: EventHandlerType, handler: EventHandler]>;
  /** `GET /siblings` on (needs `marketplace`). */
  readonly siblings: boolean;
  /** `GET /whois` with these settings (option `whois`; needs `marketplace`), or off. */
  readonly whois: ResolvedWhois | undefined;
  /** `GET /brokerage/eligibility` and `POST /brokerage` with these settings (option `brokerage`), or off. */
  readonly brokerage: ResolvedBrokerage | undefined;
  /** The back-office console with these settings (option `console`), or off. */
  readonly console: ResolvedConsole | undefined;
  /** The MCP endpoint (`POST /mcp`, `GET /llms.txt`); undefined when option `mcp` is off. */
  readonly mcp: ResolvedMcp | undefined;
  /** How long `/readyz` trusts a credential probe (credential-check.ts): a success, a failure (ms). */
  readonly readiness: { readonly checkCredential: boolean; readonly okTtlMs: number; readonly failedTtlMs: number };
  /** `GET /metrics` on, and the bearer token it requires (option `metrics`). */
  readonly metrics: { readonly served: boolean; readonly token: string | undefined };
  readonly orders: OrderTimings;
  readonly inbox: InboxTimings;
  readonly background: ResolvedBackground;
}

function isHandle(value: unknown): value is BffDatabase {
  return (
    typeof value === 'object' && value !== null && 'db' in value && typeof (value as BffDatabase).close === 'function'
  );
}

function resolveDatabase(o: ValidBffOptions): DatabaseSource {
  // `onCheckoutCompleted` runs once per checkout session across restarts and replicas: the sessions are recorded.
  const needed =
    o.payments !== undefined ||
    o.webhook !== undefined ||
    o.onCheckoutCompleted !== undefined ||
    (o.brokerage !== undefined && o.brokerage !== false) ||
    o.database !== undefined;
  const source = o.database as BffDatabase | BffDatabaseOptions | undefined;
  if (!needed) return { kind: 'none', source: undefined, owned: false };
  if (isHandle(source)) return { kind: source.kind, source, owned: false };
  return { kind: source?.url ? 'postgres' : 'pglite', source: source ?? {}, owned: true };
}

/** The test profile's settings (option `profile: 'test'`). */
export const TEST_PROFILE = {
  /** Visitor searches and writes a minute. */
  visitorPerMinute: 10_000,
  /** The upstream write budget: still the Partner API spec 8 limit of 20 a minute, but all of them may go at once. */
  write: { perMinute: 20, burst: 19 },
} as const;

/**
 * Resolves validated options once (see {@link ResolvedBffOptions} for each default).
 * @param o - the output of `validateBffOptions`.
 */
export function resolveBffOptions(o: ValidBffOptions): ResolvedBffOptions {
  const injectedKeyId = (o.client as { keyId?: unknown } | undefined)?.keyId;
  const seconds = (value: number | undefined, fallback: number) => (value ?? fallback) * 1000;
  const visitor = o.visitorLimits;
  // The test profile (option `profile`): limits for a partner's own e2e tests; explicit settings still win.
  const testProfile = o.profile === 'test';
  const visitorDefault = testProfile ? TEST_PROFILE.visitorPerMinute : undefined;
  const searchBucket = o.upstreamBudget?.search ?? DEFAULT_BUDGET_LIMITS.search;
  const search = resolveSearch(o.searchCache, { ...o.upstreamBudget, search: searchBucket });
  const resolved: ResolvedBffOptions = {
    now: o.now ?? Date.now,
    logger: o.logger,
    onCheckoutCompleted: o.onCheckoutCompleted,
    marketplace: o.marketplace,
    client: o.client,
    keyId: o.marketplace?.keyId ?? (typeof injectedKeyId === 'string' ? injectedKeyId : 'injected-client'),
    headerPrefix: o.marketplace?.headerPrefix,
    upstream: {
      timeoutMs: o.marketplace?.timeoutMs ?? 10_000,
      maxRetries: o.marketplace?.maxRetries ?? 2,
      initialRetryDelayMs: 250,
      maxRetryDelayMs: 2_000,
    },
    publicApiMaxRetryAfterSeconds: 2,
    searchCache: resolveMemoryCache(search),
    siblingsCache: resolveSiblingsCache(o.siblings),
    search,
    budgetLimits: {
      search: searchBucket,
      write: o.upstreamBudget?.write ?? (testProfile ? TEST_PROFILE.write : DEFAULT_BUDGET_LIMITS.write),
    },
    budgetMaxWaitMs: o.upstreamBudget?.maxWaitMs ?? 1_500,
    requestDeadlineMs: seconds(o.requestDeadlineSeconds, DEFAULT_REQUEST_DEADLINE_SECONDS),
    visitorLimits:
      visitor === false
        ? false
        : {
            searchesPerMinute: visitor?.searchesPerMinute ?? visitorDefault ?? DEFAULT_VISITOR_SEARCHES_PER_MINUTE,
            writesPerMinute: visitor?.writesPerMinute ?? visitorDefault ?? DEFAULT_VISITOR_WRITES_PER_MINUTE,
            keyGenerator: visitor?.keyGenerator as VisitorLimitOptions['keyGenerator'],
            windowMs: 60_000,
          },
    allowedOrigins: o.allowedOrigins ?? [],
    returnUrl: o.returnUrl,
    cancelUrl: o.cancelUrl,
    checkoutReturnOrigins: resolveCheckoutReturnOrigins(o),
    database: resolveDatabase(o),
    payments: o.payments,
    onOrderFailed: o.onOrderFailed,
    onOrderEvent: o.onOrderEvent,
    webhook: o.webhook,
    eventHandlers: resolveEventHandlers(o.onEvent),
    siblings: resolveSiblings(o),
    whois: resolveWhois(o),
    brokerage: resolveBrokerage(o.brokerage),
    console: resolveConsole(o.console),
    mcp: resolveMcp(o),
    readiness: { checkCredential: o.checkCredential !== false, okTtlMs: 5 * 60_000, failedTtlMs: 10_000 },
    metrics: {
      served: o.metrics !== undefined && o.metrics !== false,
      token: typeof o.metrics === 'object' ? o.metrics.token : undefined,
    },
    orders: resolveOrderTimings({
      leaseSeconds: o.background?.leaseSeconds,
      budgetMaxWaitMs: o.upstreamBudget?.maxWaitMs,
      orderDeadlineSeconds: o.orderDeadlineSeconds,
    }),
    inbox: INBOX_TIMINGS,
    background: {
      enabled: o.background?.enabled !== false,
      mode: o.background?.mode ?? (isWorkerd() ? 'scheduled' : 'timers'),
      recoveryIntervalMs: seconds(o.background?.recoveryIntervalSeconds, 10),
      catchUpIntervalMs: seconds(o.background?.catchUpIntervalSeconds, 60),
      closeGraceMs: 10_000,
    },
  };
  // The BFF's own settings are frozen; what belongs to the caller (handles, adapters, loggers, clients) is not.
  for (const part of [
    resolved.upstream,
    resolved.searchCache,
    resolved.search,
    resolved.orders,
    resolved.inbox,
    resolved.background,
  ])
    Object.freeze(part);
  Object.freeze(resolved.database);
  Object.freeze(resolved.eventHandlers);
  if (resolved.visitorLimits !== false) Object.freeze(resolved.visitorLimits);
  return Object.freeze(resolved);
}
