/**
 * The options of {@link createBff}, validated once at creation with messages that teach (helmet's habit):
 * unknown keys are rejected with the likely intended name, missing ones are named with what to put there.
 * A secret's value is never part of a message.
 */
import type { Dispatcher } from '@domainkit/client';
import type { CheckoutReturn } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BudgetLimits } from './upstream/budget.ts';
import type { BffDatabase, BffDatabaseOptions } from './db/database.ts';
import { type EventHandler, type EventHandlerMap, HANDLER_TYPES } from './webhooks/index.ts';
import type { MarketplaceApi } from './upstream/marketplace-api.ts';
import { nodeEnv } from './platform.ts';
import { type FailedOrderReport, isTwoPhase, testPaymentsRefusal, type PaymentAdapter } from './purchase/index.ts';

export type { MarketplaceApi } from './upstream/marketplace-api.ts';

/** The Partner API credential and transport the BFF signs its upstream requests with (Partner API spec 5.1). */
export interface MarketplaceOptions {
  /** The service address, such as `https://marketplace.example` (the client adds `/api/partner/v1`). */
  readonly baseUrl: string;
  /** Public key id of the credential (`pk_…`). */
  readonly keyId: string;
  /** API secret of the credential (`sk_…`). Held server-side only: never sent to the browser, never logged. */
  readonly secret: string;
  /** Signing header prefix; default `X-Service-`. */
  readonly headerPrefix?: string | undefined;
  /** undici dispatcher for upstream requests (a proxy agent, or a MockAgent in tests). */
  readonly dispatcher?: Dispatcher | undefined;
  /** Limit of one upstream attempt in milliseconds; default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Upstream retries after the first attempt; default 2 (see the client's RETRY_RULES). */
  readonly maxRetries?: number | undefined;
}

/**
 * The search cache (Partner API spec 8: 60 searches per minute per credential, shared by every visitor). With a database,
 * answers are shared by every BFF process on it and survive restarts; each process keeps the hottest in memory.
 * Defaults below are for `GET /search`; `GET /siblings` keeps 30 s / 270 s / 600 s / 1 000 unless these are set.
 */
export interface SearchCacheOptions {
  /** How long an answer is served as fresh, in seconds; default 21 600 (6 h): changes evict it earlier. */
  readonly ttlSeconds?: number | undefined;
  /** Answers kept in each process's memory (least recently used dropped first); default 5 000. */
  readonly maxEntries?: number | undefined;
  /** After `ttlSeconds`, how long an answer is still served while a spare token may refresh it; default 64 800. */
  readonly staleWhileRevalidateSeconds?: number | undefined;
  /** After that, how long an answer is served when the marketplace is busy or failing; default 86 400. */
  readonly staleIfErrorSeconds?: number | undefined;
  /** Answer a search the budget cannot serve from the names seen recently (`source: "index"`); default true. */
  readonly index?: boolean | undefined;
  /** Milliseconds between reads of other processes' evictions, answers and listings (PostgreSQL); default 1 000. */
  readonly syncIntervalMs?: number | undefined;
  /**
   * `shared` (default): the budget model (shared answers, demand-ordered queue, listing index). `process`: the
   * earlier per-process cache (30 s fresh, 270 s stale, no queue, no index), for comparison.
   */
  readonly mode?: 'shared' | 'process' | undefined;
}

/** Receiving webhooks (Partner API spec 5.3, 6), and optionally registering where they go (Partner API spec 2.4). */
export interface WebhookOptions {
  /** The webhook secret (at least 16 characters) deliveries are signed with; keep it out of code and logs. */
  readonly secret: string;
  /**
   * The public HTTPS URL of this BFF's `POST /webhooks` (for example `https://shop.example/api/domains/webhooks`).
   * When given, the BFF registers it with `secret` at start (`PUT /api/partner/webhooks`).
   */
  readonly publicUrl?: string | undefined;
}

/** The upstream budget (Partner API spec 8), shared by every visitor and, on PostgreSQL, by every BFF process. */
export interface UpstreamBudgetOptions extends Partial<BudgetLimits> {
  /** Longest wait for a token before a visitor is answered 503 `busy`, in ms; default 1 500. */
  readonly maxWaitMs?: number | undefined;
  /** Longest wait of a search (`GET /search`) for a token, in ms; default `maxWaitMs` when set, else 300. */
  readonly searchMaxWaitMs?: number | undefined;
}

/** Per-visitor request limits (express-rate-limit, in this process's memory), by client IP unless `keyGenerator`. */
export interface VisitorLimitOptions {
  /** `GET /search` and `GET /domains/:name` per visitor per minute (and, counted apart, `GET /siblings`); default 30. */
  readonly searchesPerMinute?: number | undefined;
  /** `POST /checkout`, `POST /quotes`, `POST /orders` per visitor per minute; default 10. */
  readonly writesPerMinute?: number | undefined;
  /**
   * The visitor's key; default the client IP through the trusted proxies only (the app's Express `trust proxy`, a
   * number of hops or addresses; `true` read as one hop), an IPv6 visitor by its /56.
   */
  readonly keyGenerator?: ((req: import('express').Request) => string) | undefined;
}

/** Timings of the background work: recovery of order intents, event catch-up, leases. */
export interface BackgroundOptions {
  /** Seconds between recovery passes (0: only at start); default 10 (a pass with nothing to do is one query). */
  readonly recoveryIntervalSeconds?: number | undefined;
  /** Seconds between catch-ups with `GET /events` (0: only at start); default 60. */
  readonly catchUpIntervalSeconds?: number | undefined;
  /** Seconds a process may work on an intent before another process's recovery takes it over; default 60. */
  readonly leaseSeconds?: number | undefined;
  /** Run the start tasks (registration, recovery, catch-up) and the timers; default true. */
  readonly enabled?: boolean | undefined;
  /**
   * How background work runs. `timers` (default on Node, Bun and Deno, where the process lives between requests):
   * start tasks when the BFF starts, then timers. `scheduled` (default on Cloudflare workerd; choose it on any
   * serverless host): no timer is ever set; the host's cron calls the handler's `scheduled()` (recovery pass,
   * catch-up, due inbox events), and a stored webhook's events are handled under the request's `waitUntil`.
   */
  readonly mode?: 'timers' | 'scheduled' | undefined;
}

/** Options of {@link createBff}. */
export interface BffOptions {
  /** The Partner API credential. Required unless `client` is given. */
  readonly marketplace?: MarketplaceOptions | undefined;
  /** A ready client instead of `marketplace` (tests, or a client shared with other code). */
  readonly client?: MarketplaceApi | undefined;
  /** Where the hosted checkout sends the buyer after paying (absolute http(s) URL); passed as `return_url`. */
  readonly returnUrl?: string | undefined;
  /** Where the hosted checkout sends the buyer after cancelling (absolute http(s) URL); passed as `cancel_url`. */
  readonly cancelUrl?: string | undefined;
  /**
   * Origins a widget may name in `return_url` / `cancel_url` of `POST /checkout`; default `allowedOrigins` plus
   * the origins of `returnUrl` and `cancelUrl`. Any other URL is refused (no open redirect through the checkout).
   */
  readonly checkoutReturnOrigins?: readonly string[] | undefined;
  /**
   * Origins allowed to call the BFF from a browser (CORS), matched exactly, such as `https://shop.example`.
   * Default none: only same-origin pages can read the answers.
   */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** A pino logger (the BFF logs through a child of it, with redaction), or `false` for none. Default: JSON to stdout. */
  readonly logger?: Logger | false | undefined;
  /** Search cache settings. */
  readonly searchCache?: SearchCacheOptions | undefined;
  /**
   * Where state lives (order intents, the webhook inbox, the event cursor, shared budgets): an open
   * {@link BffDatabase} (the caller closes it), or options to open one: `{ url }` for PostgreSQL, `{ dataDir }`
   * for embedded PGlite. Default: embedded PGlite in `.data/bff`, opened only when MoR, webhooks or
   * `onCheckoutCompleted` are enabled.
   */
  readonly database?: BffDatabase | BffDatabaseOptions | undefined;
  /**
   * A payment-provider adapter: enables the MoR routes (`POST /quotes`, `POST /orders`, `GET /orders/:id`).
   * Two-phase (`authorizePayment`, `capturePayment`, `voidPayment`) where the provider offers manual capture, else
   * one-phase (`confirmPayment`, `refundPayment`).
   */
  readonly payments?: PaymentAdapter | undefined;
  /**
   * Lets a staging shop run the test-card adapter (`testCardPayments()`, or any adapter marked `test: true`) when
   * `NODE_ENV` is `production`, with a SANDBOX credential. Without it such an adapter is refused in production; with
   * a LIVE credential (`pk_live_…`) it is refused whatever this says: every order would be a real sale the partner
   * owes the marketplace, with no money collected. Default false. Environment: `DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION`.
   */
  readonly allowTestCardsInProduction?: boolean | undefined;
  /**
   * Called for every order whose payment was unwound: refused for good upstream, not recorded before the deadline
   * (`orderDeadlineSeconds`), or its capture refused (the order then refunded upstream). Also logged at error.
   */
  readonly onOrderFailed?: ((report: FailedOrderReport) => void | Promise<void>) | undefined;
  /**
   * Seconds after a payment within which its order must be recorded upstream; past it the recovery pass gives up,
   * voids (or refunds) the payment and reports the order. Default 30 (reported within about a minute).
   */
  readonly orderDeadlineSeconds?: number | undefined;
  /** Enables `POST /webhooks` (and, with `publicUrl`, registers it at start). */
  readonly webhook?: WebhookOptions | undefined;
  /**
   * Event handlers by type (`order.settled`, …, or `*`), each receiving its own event type; more can be added with
   * `bff.on(type, handler)`. An unknown type is refused at creation, with the likely intended one.
   */
  readonly onEvent?: EventHandlerMap | undefined;
  /**
   * Called once per checkout session when a buyer comes back from the hosted checkout with a result the BFF
   * verified (`GET /checkout/return`, signed with this credential's secret): the completed non-MoR sale, for
   * the partner's own records. The session is recorded in the database before the call (so it needs one: the
   * default embedded PGlite when `database` is not given), so it runs once per session across restarts and
   * replicas, whatever the signature's time: at most once (a failure is logged and kept with the session, never
   * retried, never shown to the buyer).
   */
  readonly onCheckoutCompleted?: ((sale: CheckoutReturn) => void | Promise<void>) | undefined;
  /** Upstream budget settings. */
  readonly upstreamBudget?: UpstreamBudgetOptions | undefined;
  /** Per-visitor limits, or `false` to turn them off (for example behind a gateway that limits already). */
  readonly visitorLimits?: VisitorLimitOptions | false | undefined;
  /** Background work timings. */
  readonly background?: BackgroundOptions | undefined;
  /**
   * `GET /siblings?q=`: the visitor's word under other TLDs, read anonymously through the marketplace's Public API
   * at `marketplace.baseUrl` and cached like searches (`searchCache`). Default on with `marketplace`; `false`
   * turns the route off (its path then passes through to your app). Not available with a ready `client`.
   */
  readonly siblings?: boolean | undefined;
  /**
   * `'test'`: the test profile for a partner's own end-to-end tests against the sandbox. Visitor limits become
   * 10 000 a minute (searches and writes), and the upstream write budget lets a whole minute's 20 writes go at once
   * (burst 19 instead of 2), so a test that quotes and orders several times in a row is not answered 503 `busy` or
   * 429. Explicit `visitorLimits` / `upstreamBudget` still win. Refused when `NODE_ENV` is `production`.
   * Default `'production'`.
   */
  readonly profile?: 'production' | 'test' | undefined;
  /**
   * Prove the marketplace credential (credential-check.ts): `/readyz` answers 503 with the reason until cheap
   * signed calls succeed (cached 5 minutes), and the standalone server probes at start. Default true; `false`
   * leaves `/readyz` to the database alone (tests against a stub marketplace that counts calls).
   */
  readonly checkCredential?: boolean | undefined;
  /**
   * `GET /metrics` in the Prometheus text format (metrics.ts): `true`, or `{token}` to require
   * `Authorization: Bearer <token>`. Default off: the figures are always kept and can be mounted elsewhere with
   * `bff.metrics.handler()`.
   */
  readonly metrics?: boolean | { readonly token?: string | undefined } | undefined;
  /**
   * Overall deadline of one visitor request (search, quotes, orders…), in seconds; default 15, at most 25 (under the
   * 30 s of common proxies, and under the widget's own 20 s). Past it the visitor is answered 504 `upstream_timeout`;
   * a purchase already under way is answered 202 `PROCESSING` with its order id and view token instead, and goes on
   * (its record is finished by the request or by the recovery pass).
   */
  readonly requestDeadlineSeconds?: number | undefined;
  /** Clock in ms since the epoch (cache, quotes, leases, budgets); default `Date.now`. For tests. */
  readonly now?: (() => number) | undefined;
}

/** Raised by {@link createBff} and `startBff` for bad options; `problems` holds one line per problem. */
export class BffOptionsError extends TypeError {
  /** Stable code. */
  readonly code = 'invalid_bff_options';
  /** One sentence per problem, each naming the option and what to fix. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[], where = 'createBff') {
    super(`${where}: invalid options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'BffOptionsError';
    this.problems = problems;
  }
}

const isFunction = (v: unknown) => typeof v === 'function';

/** `error` of a required string: says it is required when absent, else that it must be a string. */
const required = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`;

/** Checks an absolute http(s) URL. */
export const httpUrl = z
  .string({ error: 'must be an absolute http(s) URL such as "https://shop.example/thanks"' })
  .refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'must be an absolute http(s) URL such as "https://shop.example/thanks"',
  );

/**
 * Checks a service address: http(s), without a user name or password (the Partner API authenticates by signature,
 * and fetch refuses a URL carrying credentials), not ending in the API path the client adds.
 */
export const serviceUrl = z
  .string({ error: required('the marketplace\'s service address, such as "https://marketplace.example"') })
  .refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'must be an absolute http(s) URL such as "https://marketplace.example"',
  )
  .refine(
    (v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''),
    'must not carry a user name or password ("user:password@"): the key id and secret sign each request; remove them from the URL',
  )
  .refine(
    (v) => !/\/api\/partner(\/v1)?\/?$/.test(v),
    'is the service address only: drop the trailing "/api/partner/v1" (the client adds it)',
  );

/**
 * An origin as browsers send it in the `Origin` header: scheme, host and optional port, nothing else.
 * The message suggests the fix for the usual slips (a trailing slash or a path).
 */
export const originSchema = z.string().superRefine((v, ctx) => {
  if (v.includes('*')) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an exact origin: wildcards are not allowed, list each origin (such as "https://shop.example")',
    });
    return;
  }
  if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be an origin such as "https://shop.example"; received ${JSON.stringify(v)}`,
    });
    return;
  }
  const origin = new URL(v).origin;
  if (origin !== v)
    ctx.addIssue({
      code: 'custom',
      message: `must be an origin only (scheme, host, port); received ${JSON.stringify(v)}, did you mean ${JSON.stringify(origin)}?`,
    });
});

const marketplaceSchema = z.strictObject({
  baseUrl: serviceUrl,
  keyId: z
    .string({ error: required('the public key id of your Partner API credential (pk_…)') })
    .min(1, 'must not be empty (the pk_… key id)'),
  secret: z
    .string({
      error: required(
        'the API secret of your Partner API credential (sk_…); load it from the environment, never from code',
      ),
    })
    .min(1, 'must not be empty (the sk_… API secret)')
    .refine(
      (v) => !v.startsWith('pk_'),
      'looks like a key id (pk_…): use the API secret (sk_…) here and the pk_… value as `keyId`',
    ),
  headerPrefix: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]*-$/, 'must be letters, digits and dashes ending in "-", such as "X-Service-"')
    .optional(),
  dispatcher: z
    .custom<Dispatcher>(
      (v) => typeof v === 'object' && v !== null && isFunction((v as { dispatch?: unknown }).dispatch),
      {
        error: 'must be an undici Dispatcher (Agent, ProxyAgent, MockAgent)',
      },
    )
    .optional(),
  timeoutMs: z.number().int().positive('must be a positive number of milliseconds').optional(),
  maxRetries: z.number().int().min(0, 'must be 0 or more').max(10, 'must be at most 10').optional(),
});

const seconds = (what: string) =>
  z.number({ error: `must be a number of seconds (${what})` }).nonnegative('must be 0 or more seconds');
const perMinute = z
  .number({ error: 'must be a number of requests per minute' })
  .int('must be a whole number of requests per minute')
  .positive('must be at least 1 per minute');
const bucketSchema = z
  .strictObject({ perMinute, burst: z.number().int().positive('must be at least 1') })
  .refine(
    (b) => b.burst < b.perMinute,
    'burst must be less than perMinute (burst + refill over a minute must stay within the limit)',
  );

const databaseSchema = z.union(
  [
    z.custom<BffDatabase>(
      (v) => typeof v === 'object' && v !== null && 'db' in v && isFunction((v as { close?: unknown }).close),
      'a database handle from openBffDatabase()',
    ),
    z
      .strictObject({
        url: z
          .string()
          .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL')
          .optional(),
        schema: z
          .string()
          .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be lowercase letters, digits and "_"')
          .optional(),
        dataDir: z.string().min(1).optional(),
        memory: z.boolean().optional(),
        perRequest: z.boolean({ error: 'must be true or false (PostgreSQL: one connection per request)' }).optional(),
      })
      .refine((d) => d.perRequest !== true || d.url !== undefined, {
        error: 'perRequest applies to PostgreSQL (a url) only',
        path: ['perRequest'],
      }),
  ],
  {
    error:
      'must be { url } (PostgreSQL), { dataDir } (embedded PGlite), { memory: true }, or a handle from openBffDatabase()',
  },
);

const optionsSchema = z.strictObject({
  marketplace: marketplaceSchema.optional(),
  client: z
    .custom<MarketplaceApi>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        ['searchDomains', 'getDomain', 'createCheckoutSession'].every((m) =>
          isFunction((v as Record<string, unknown>)[m]),
        ),
      { error: 'must be a PartnerClient (with searchDomains, getDomain and createCheckoutSession)' },
    )
    .optional(),
  returnUrl: httpUrl.optional(),
  cancelUrl: httpUrl.optional(),
  checkoutReturnOrigins: z
    .array(originSchema, { error: 'must be an array of origins such as ["https://shop.example"]' })
    .optional(),
  allowedOrigins: z
    .array(originSchema, { error: 'must be an array of origins such as ["https://shop.example"]' })
    .optional(),
  logger: z
    .custom<Logger | false>(
      (v) =>
        v === false ||
        (typeof v === 'object' &&
          v !== null &&
          ['info', 'warn', 'error', 'child'].every((m) => isFunction((v as Record<string, unknown>)[m]))),
      {
        error: 'must be a pino logger, or false for no logging',
      },
    )
    .optional(),
  searchCache: z
    .strictObject({
      ttlSeconds: z.number().nonnegative('must be 0 (no caching) or more seconds').optional(),
      maxEntries: z.number().int().positive().optional(),
      staleWhileRevalidateSeconds: seconds('how long a stale answer is served while it is refreshed').optional(),
      staleIfErrorSeconds: seconds(
        'how long a stale answer is served when the marketplace is busy or failing',
      ).optional(),
      index: z.boolean().optional(),
      syncIntervalMs: z.number().int().positive().optional(),
      mode: z.enum(['shared', 'process'], { error: 'must be "shared" or "process"' }).optional(),
    })
    .optional(),
  database: databaseSchema.optional(),
  payments: z
    .custom<PaymentAdapter>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        (isFunction((v as PaymentAdapter).confirmPayment) || isTwoPhase(v as PaymentAdapter)) &&
        typeof (v as PaymentAdapter).name === 'string',
      {
        error:
          'must be a payment adapter { name, authorizePayment, capturePayment, voidPayment } or { name, confirmPayment } (such as testCardPayments())',
      },
    )
    .optional(),
  allowTestCardsInProduction: z
    .boolean({ error: 'must be true or false (true lets a staging shop take test cards when NODE_ENV is production)' })
    .optional(),
  onOrderFailed: z
    .custom<(report: FailedOrderReport) => void>(isFunction, { error: 'must be a function (report) => void' })
    .optional(),
  orderDeadlineSeconds: z
    .number({ error: 'must be a number of seconds, such as 30' })
    .min(5, 'must be at least 5 seconds')
    .max(600, 'must be at most 600 seconds (a quote lives 10 minutes)')
    .optional(),
  webhook: z
    .strictObject({
      secret: z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? 'is required: the webhook secret deliveries are signed with (at least 16 characters)'
              : 'must be a string',
        })
        .min(16, 'must be at least 16 characters'),
      publicUrl: z
        .string()
        .refine(
          (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
          "must be the absolute https URL of this BFF's POST /webhooks",
        )
        .optional(),
    })
    .optional(),
  onCheckoutCompleted: z
    .custom<(sale: CheckoutReturn) => void>(isFunction, { error: 'must be a function (sale) => void' })
    .optional(),
  onEvent: z
    .record(
      z.string(),
      z.union([z.custom<EventHandler>(isFunction), z.array(z.custom<EventHandler>(isFunction))], {
        error: 'must be a function (event, context) => void, or an array of them',
      }),
      { error: 'must be an object of handlers by event type, such as { "order.settled": (event) => … }' },
    )
    .optional(),
  upstreamBudget: z
    .strictObject({
      search: bucketSchema.optional(),
      write: bucketSchema.optional(),
      maxWaitMs: z.number().int().nonnegative().optional(),
      searchMaxWaitMs: z.number().int().nonnegative().optional(),
    })
    .optional(),
  visitorLimits: z
    .union([
      z.literal(false),
      z.strictObject({
        searchesPerMinute: perMinute.optional(),
        writesPerMinute: perMinute.optional(),
        keyGenerator: z.custom<(req: unknown) => string>(isFunction).optional(),
      }),
    ])
    .optional(),
  background: z
    .strictObject({
      recoveryIntervalSeconds: seconds('0 runs recovery only at start').optional(),
      catchUpIntervalSeconds: seconds('0 catches up only at start').optional(),
      leaseSeconds: z.number().positive().optional(),
      enabled: z.boolean().optional(),
      mode: z.enum(['timers', 'scheduled'], { error: 'must be "timers" or "scheduled"' }).optional(),
    })
    .optional(),
  siblings: z.boolean({ error: 'must be true or false (false turns GET /siblings off)' }).optional(),
  checkCredential: z.boolean({ error: 'must be true or false' }).optional(),
  profile: z.enum(['production', 'test'], { error: 'must be "production" or "test"' }).optional(),
  metrics: z
    .union([z.boolean(), z.strictObject({ token: z.string().min(16, 'must be at least 16 characters').optional() })], {
      error: 'must be true, false, or { token } (a bearer token of 16 characters or more that GET /metrics requires)',
    })
    .optional(),
  requestDeadlineSeconds: z
    .number({ error: 'must be a number of seconds, such as 15' })
    .positive('must be more than 0 seconds')
    .max(25, 'must be at most 25 seconds, under the 30 s that common proxies allow')
    .optional(),
  now: z
    .custom<() => number>(isFunction, { error: 'must be a function returning milliseconds since the epoch' })
    .optional(),
});

/** The options once validated. */
export type ValidBffOptions = z.output<typeof optionsSchema>;

/** Likely intended names for keys people type (`apiSecret` → `secret`), by the object they sit in. */
const ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '': {
    secret: 'marketplace.secret',
    apiSecret: 'marketplace.secret',
    keyId: 'marketplace.keyId',
    baseUrl: 'marketplace.baseUrl',
    headerPrefix: 'marketplace.headerPrefix',
    dispatcher: 'marketplace.dispatcher',
    credential: 'marketplace',
    credentials: 'marketplace',
    origins: 'allowedOrigins',
    corsOrigins: 'allowedOrigins',
    allowOrigins: 'allowedOrigins',
    allowedOrigin: 'allowedOrigins',
    cors: 'allowedOrigins',
    return_url: 'returnUrl',
    returnURL: 'returnUrl',
    successUrl: 'returnUrl',
    cancel_url: 'cancelUrl',
    cancelURL: 'cancelUrl',
    cache: 'searchCache',
    db: 'database',
    databaseUrl: 'database',
    paymentAdapter: 'payments',
    payment: 'payments',
    webhooks: 'webhook',
    webhookSecret: 'webhook',
    handlers: 'onEvent',
    on: 'onEvent',
    events: 'onEvent',
    rateLimits: 'visitorLimits',
    budget: 'upstreamBudget',
  },
  marketplace: {
    apiSecret: 'secret',
    api_secret: 'secret',
    secretKey: 'secret',
    apiKey: 'keyId',
    key: 'keyId',
    key_id: 'keyId',
    keyID: 'keyId',
    baseURL: 'baseUrl',
    base_url: 'baseUrl',
    url: 'baseUrl',
    prefix: 'headerPrefix',
    timeout: 'timeoutMs',
    retries: 'maxRetries',
  },
  searchCache: {
    ttl: 'ttlSeconds',
    ttlMs: 'ttlSeconds',
    max: 'maxEntries',
    size: 'maxEntries',
    swr: 'staleWhileRevalidateSeconds',
  },
  webhook: { url: 'publicUrl', webhookUrl: 'publicUrl', webhookSecret: 'secret', signingSecret: 'secret' },
};

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length]!;
}

/** The name the caller probably meant, or `undefined`. */
export function didYouMean(
  key: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  if (Object.hasOwn(aliases, key)) return aliases[key];
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(1, Math.floor(key.length / 4)) ? best : undefined;
}

function pathString(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function shapeAt(path: ReadonlyArray<PropertyKey>): readonly string[] {
  const top = Object.keys(optionsSchema.shape);
  if (path.length === 0) return top;
  if (path[0] === 'marketplace') return Object.keys(marketplaceSchema.shape);
  const nested: Record<string, readonly string[]> = {
    searchCache: [
      'ttlSeconds',
      'maxEntries',
      'staleWhileRevalidateSeconds',
      'staleIfErrorSeconds',
      'index',
      'syncIntervalMs',
      'mode',
    ],
    webhook: ['secret', 'publicUrl'],
    upstreamBudget: ['search', 'write', 'maxWaitMs', 'searchMaxWaitMs'],
    visitorLimits: ['searchesPerMinute', 'writesPerMinute', 'keyGenerator'],
    background: ['recoveryIntervalSeconds', 'catchUpIntervalSeconds', 'leaseSeconds', 'enabled', 'mode'],
    database: ['url', 'schema', 'dataDir', 'memory', 'perRequest'],
    metrics: ['token'],
  };
  return nested[String(path[0])] ?? [];
}

/**
 * Validates the options of `createBff` once.
 * @throws {BffOptionsError} listing every problem, each naming the option and what to fix.
 */
export function validateBffOptions(options: unknown, where = 'createBff'): ValidBffOptions {
  const parsed = optionsSchema.safeParse(options);
  const problems: string[] = [];
  if (!parsed.success) {
    // Unknown keys first: "did you mean" usually explains the "is required" that follows.
    const issues = [...parsed.error.issues].sort(
      (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
    );
    for (const issue of issues) {
      const at = pathString(issue.path);
      if (issue.code === 'unrecognized_keys') {
        const scope = issue.path.map(String).join('.');
        const known = shapeAt(issue.path);
        for (const key of issue.keys) {
          const name = scope ? `${scope}.${key}` : key;
          const hint = didYouMean(key, known, ALIASES[scope] ?? {});
          const full = hint === undefined ? undefined : hint.includes('.') || !scope ? hint : `${scope}.${hint}`;
          problems.push(
            full
              ? `received \`${name}\`; did you mean \`${full}\`?`
              : `received unknown option \`${name}\`; known options${scope ? ` of \`${scope}\`` : ''}: ${known.join(', ')}`,
          );
        }
      } else if (at === '') {
        problems.push('options must be an object such as { marketplace: { baseUrl, keyId, secret } }');
      } else {
        problems.push(`\`${at}\` ${issue.message}`);
      }
    }
  }
  const value = (typeof options === 'object' && options !== null ? options : {}) as Record<string, unknown>;
  if (value.marketplace === undefined && value.client === undefined) {
    problems.push(
      '`marketplace` is required: { baseUrl, keyId, secret } of your Partner API credential (or pass a ready `client`)',
    );
  }
  if (value.marketplace !== undefined && value.client !== undefined) {
    problems.push('pass either `marketplace` (a credential) or `client` (a ready PartnerClient), not both');
  }
  const client = value.client as Record<string, unknown> | undefined;
  if (
    client !== undefined &&
    value.payments !== undefined &&
    (typeof client.quotes !== 'object' || typeof client.orders !== 'object')
  ) {
    problems.push('`client` must have `quotes` and `orders` (a PartnerClient) when `payments` enables the MoR routes');
  }
  if (
    client !== undefined &&
    value.webhook !== undefined &&
    (typeof client.events !== 'object' || typeof client.webhooks !== 'object')
  ) {
    problems.push('`client` must have `events` and `webhooks` (a PartnerClient) when `webhook` is set');
  }
  if (value.siblings === true && value.marketplace === undefined && value.client !== undefined) {
    problems.push(
      '`siblings` needs `marketplace` (the Public API is called at `marketplace.baseUrl`): with a ready `client`, leave `siblings` out',
    );
  }
  if (value.profile === 'test' && nodeEnv() === 'production') {
    problems.push(
      '`profile: "test"` is refused when NODE_ENV is "production": the test profile lifts the visitor limits that protect your shared upstream budget',
    );
  }
  const plainHttp = plainHttpServiceUrlProblem(
    (value.marketplace as { baseUrl?: unknown } | undefined)?.baseUrl,
    nodeEnv(),
  );
  if (plainHttp) problems.push(`\`marketplace.baseUrl\` ${plainHttp}`);
  const testPayments = testPaymentsProblem(value);
  if (testPayments) problems.push(testPayments);
  const secret = (value.marketplace as { secret?: unknown } | undefined)?.secret;
  const webhookSecret = (value.webhook as { secret?: unknown } | undefined)?.secret;
  if (typeof secret === 'string' && secret === webhookSecret) {
    problems.push('`webhook.secret` must differ from `marketplace.secret`: choose a separate webhook signing secret');
  }
  if (typeof value.onEvent === 'object' && value.onEvent !== null) {
    for (const type of Object.keys(value.onEvent)) {
      const problem = unknownEventTypeProblem(type);
      if (problem) problems.push(`\`onEvent\` ${problem}`);
    }
  }
  if (problems.length > 0) throw new BffOptionsError(problems, where);
  return parsed.data!;
}

/** Whether `hostname` (as `URL` gives it) is the local machine: `localhost`, 127.0.0.0/8 or `[::1]`. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Why the marketplace address `baseUrl` is refused under `nodeEnv`, or `undefined`: with NODE_ENV=production it must
 * be `https://` (the signed requests, and the webhook secret sent at start, would cross the network in clear), except
 * to a loopback address (a marketplace or TLS proxy on the same machine).
 */
export function plainHttpServiceUrlProblem(baseUrl: unknown, nodeEnv: string | undefined): string | undefined {
  if (nodeEnv !== 'production' || typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) return undefined;
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return 'must be https:// when NODE_ENV is "production": over plain http the signed requests and the webhook secret cross the network in clear (http:// is accepted only to a loopback address)';
}

/** Why a test payment adapter is refused here (purchase/payments.ts `testPaymentsRefusal`), as an options problem. */
function testPaymentsProblem(value: Record<string, unknown>): string | undefined {
  const payments = value.payments as PaymentAdapter | undefined;
  const client = value.client as { keyId?: unknown } | undefined;
  const keyId = (value.marketplace as { keyId?: unknown } | undefined)?.keyId ?? client?.keyId;
  const refusal = testPaymentsRefusal({
    adapter: typeof payments === 'object' && payments !== null ? payments : undefined,
    keyId: typeof keyId === 'string' ? keyId : undefined,
    nodeEnv: nodeEnv(),
    allowInProduction: value.allowTestCardsInProduction === true,
  });
  if (refusal === 'live_credential')
    return '`payments` is the test-card adapter, refused with a LIVE credential (pk_live_…): every order would be a real sale you owe the marketplace, with no money collected. Plug in your payment provider, or use a SANDBOX credential';
  if (refusal === 'production')
    return '`payments` is the test-card adapter, refused when NODE_ENV is "production": plug in your payment provider, or, for a staging shop on a SANDBOX credential, set `allowTestCardsInProduction: true`';
  return undefined;
}

/**
 * Why `type` cannot take an event handler (it is neither a known event type of Partner API spec 6 nor `*`), with the likely
 * intended type, or `undefined` when it can.
 */
export function unknownEventTypeProblem(type: string): string | undefined {
  if ((HANDLER_TYPES as readonly string[]).includes(type)) return undefined;
  const hint = didYouMean(type, HANDLER_TYPES);
  return hint
    ? `received event type \`${type}\`; did you mean \`${hint}\`?`
    : `received unknown event type \`${type}\`; known types: ${HANDLER_TYPES.join(', ')}`;
}
