/**
 * The options of {@link createBff}, validated once at creation with messages that teach (helmet's habit):
 * unknown keys are rejected with the likely intended name, missing ones are named with what to put there.
 * A secret's value is never part of a message.
 *
 * Each feature owns its options, their checks, defaults and environment variables (`search/options.ts`,
 * `siblings/options.ts`, `checkout/options.ts`, `purchase/options.ts`, `webhooks/options.ts`); this module composes
 * them with the options every feature shares (the credential, origins, logging, storage, budgets, limits,
 * background work) into the one `BffOptions` and its schema.
 */
import type { CheckoutReturn } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BudgetLimits } from './upstream/budget.ts';
import type { BffDatabase, BffDatabaseOptions } from './db/database.ts';
import type { MarketplaceApi } from './upstream/marketplace-api.ts';
import { nodeEnv } from './platform.ts';
import { marketplaceSchema, type MarketplaceOptions } from './upstream/options.ts';
import {
  BffOptionsError,
  bucketSchema,
  isFunction,
  originSchema,
  perMinute,
  plainHttpServiceUrlProblem,
  seconds,
} from './config/kit.ts';
import { brokerageOptionsShape, type BrokerageOptions } from './brokerage/index.ts';
import { consoleOptionsShape, type ConsoleOptions } from './console/index.ts';
import { checkoutOptionsShape } from './checkout/index.ts';
import {
  clientForPurchaseProblem,
  purchaseOptionsShape,
  testPaymentsProblem,
  type FailedOrderReport,
  type OrderStep,
  type PaymentAdapter,
} from './purchase/index.ts';
import { searchOptionsShape, type SearchCacheOptions } from './search/index.ts';
import { siblingsOptionsShape, siblingsProblem, type SiblingsOptions } from './siblings/index.ts';
import { mcpOptionsShape, type McpOptions } from './mcp/index.ts';
import { whoisOptionsShape, type WhoisOptions } from './whois/index.ts';
import { optionPath, unknownOptionProblems } from './option-names.ts';
import {
  clientForWebhooksProblem,
  webhookOptionsShape,
  webhookProblems,
  type EventHandlerMap,
  type WebhookOptions,
} from './webhooks/index.ts';

export type { MarketplaceApi } from './upstream/marketplace-api.ts';
export type { MarketplaceOptions } from './upstream/options.ts';
export type { SearchCacheOptions } from './search/index.ts';
export type { WebhookOptions } from './webhooks/index.ts';
export type { SiblingsOptions } from './siblings/index.ts';
export type { WhoisOptions } from './whois/index.ts';
export type { BrokerageOptions, BrokerageTier } from './brokerage/index.ts';
export type { ConsoleActor, ConsoleAuthorize, ConsoleOptions } from './console/index.ts';
export type { McpOptions } from './mcp/index.ts';
export {
  BffOptionsError,
  httpUrl,
  originSchema,
  serviceUrl,
  didYouMean,
  plainHttpServiceUrlProblem,
} from './config/kit.ts';
export { unknownEventTypeProblem } from './webhooks/index.ts';

/** The upstream budget (Partner API spec 8), shared by every visitor and, on PostgreSQL, by every BFF process. */
export interface UpstreamBudgetOptions extends Partial<BudgetLimits> {
  /** Longest wait for a token before a visitor is answered 503 `busy`, in ms; default 1 500. */
  readonly maxWaitMs?: number | undefined;
  /** Longest wait of a search (`GET /search`) for a token, in ms; default `maxWaitMs` when set, else 300. */
  readonly searchMaxWaitMs?: number | undefined;
}

/** Per-visitor request limits (in this process's memory, or shared on PostgreSQL), by client IP unless `keyGenerator`. */
export interface VisitorLimitOptions {
  /** `GET /search` and `GET /domains/:name` per visitor per minute (and, counted apart, `GET /siblings`); default 30. */
  readonly searchesPerMinute?: number | undefined;
  /**
   * `POST /checkout`, `POST /quotes`, `POST /orders`, `POST /brokerage` and the console's sign-in and writes (not its
   * reads) per visitor per minute; default 10.
   */
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
   * Called once per step of each MoR order (`order.recorded`, `order.held_for_review`, `order.transfer_started`,
   * `order.transfer_completed`, `order.refunded`, …; Partner API spec 3, 6) with the order, its new status and the
   * buyer it was placed for ({@link OrderStep}), so the shop can e-mail the buyer. Runs from the webhook inbox after
   * the event moved the order: an event delivered twice, or older than what the order already shows, is not a new
   * step. A throw makes the BFF call it again later (with the event's retries). Needs `webhook` (or catch-up).
   */
  readonly onOrderEvent?: ((step: OrderStep) => void | Promise<void>) | undefined;
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
   * at `marketplace.baseUrl` and cached in each process's memory (30 s fresh by default). Default on with
   * `marketplace`; `false` turns the route off (its path then passes through to your app); an object turns it on
   * with its own cache settings ({@link SiblingsOptions}). Not available with a ready `client`.
   */
  readonly siblings?: boolean | SiblingsOptions | undefined;
  /**
   * `GET /whois?domain=`: who holds a domain (its registrar and registration date, from WHOIS/RDAP), read anonymously
   * through the marketplace's Public API (`POST /api/tools/whois`) for the widget's "Who holds it?". Default on with
   * `marketplace`; `false` turns it off; an object sets its cache and budget ({@link WhoisOptions}).
   */
  readonly whois?: boolean | WhoisOptions | undefined;
  /**
   * `GET /brokerage/eligibility` and `POST /brokerage`: visitors ask the marketplace's brokers to acquire a name that
   * is not listed (Partner API spec 2.6, 4.1 "Brokerage"; the credential needs scope `broker`), and get the case's
   * no-login progress link. `true` turns it on with the defaults (tier `managed`, smallest budget 10 000 cents of
   * USD); an object sets the tier and the minimum ({@link BrokerageOptions}). Cases are kept in the database, and
   * `brokerage.case_completed` reaches `onEvent` once per case. Default off. Environment: `DOMAINKIT_BROKERAGE`,
   * `DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS`.
   */
  readonly brokerage?: boolean | BrokerageOptions | undefined;
  /**
   * The partner's back-office console (docs/console-api.md): `POST /console/session` mints a short-lived console
   * session token when the partner's `authorize(request)` hook accepts, and the `/console/…` routes read orders,
   * settlements, transactions, payouts, commissions, brokerage, links and events (cached, within the marketplace's
   * 30 reporting calls a minute) and refund or create links. Default off ({@link ConsoleOptions}).
   */
  readonly console?: ConsoleOptions | undefined;
  /**
   * The shop's tools for AI agents: MCP Streamable HTTP at `POST /mcp` (search, one domain with its WHOIS, a
   * checkout link a person opens and pays, an order's status) and `GET /llms.txt` describing them. Default off;
   * `true` turns it on; an object sets the agents' allowance and the hosts it answers on ({@link McpOptions}). No
   * tool moves money or records an order.
   */
  readonly mcp?: boolean | McpOptions | undefined;
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
  returnUrl: checkoutOptionsShape.returnUrl,
  cancelUrl: checkoutOptionsShape.cancelUrl,
  checkoutReturnOrigins: checkoutOptionsShape.checkoutReturnOrigins,
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
  searchCache: searchOptionsShape.searchCache,
  database: databaseSchema.optional(),
  ...purchaseOptionsShape,
  webhook: webhookOptionsShape.webhook,
  onCheckoutCompleted: checkoutOptionsShape.onCheckoutCompleted,
  onEvent: webhookOptionsShape.onEvent,
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
  ...siblingsOptionsShape,
  ...whoisOptionsShape,
  ...brokerageOptionsShape,
  ...consoleOptionsShape,
  ...mcpOptionsShape,
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
      const at = optionPath(issue.path);
      if (issue.code === 'unrecognized_keys') {
        problems.push(...unknownOptionProblems(issue.path, issue.keys, Object.keys(optionsSchema.shape)));
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
  const clientForPurchase = clientForPurchaseProblem(value);
  if (clientForPurchase) problems.push(clientForPurchase);
  const clientForWebhooks = clientForWebhooksProblem(value);
  if (clientForWebhooks) problems.push(clientForWebhooks);
  const siblings = siblingsProblem(value);
  if (siblings) problems.push(siblings);
  if (
    value.brokerage !== undefined &&
    value.brokerage !== false &&
    typeof value.client === 'object' &&
    value.client !== null &&
    typeof (value.client as { brokerage?: unknown }).brokerage !== 'object'
  )
    problems.push('`brokerage` needs a client with `brokerage` (a PartnerClient): this `client` has none');
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
  problems.push(...webhookProblems(value));
  if (problems.length > 0) throw new BffOptionsError(problems, where);
  return parsed.data!;
}
