/**
 * The Partner API client (Partner API spec 4.1, 5.1): typed calls over HMAC-signed HTTP on undici.
 */
import {
  DEFAULT_HEADER_PREFIX,
  createRequestSigner,
  headerNames,
  type Availability,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type DomainDetail,
  type DomainSearchResponse,
  type Pricing,
} from '@domainkit/protocol';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { UpstreamBudget } from './budget.ts';
import { PARTNER_API_PREFIX } from './endpoint.ts';
import { RequestSender, hmacAuth, type AttemptReport, type CallOptions, type Sleep } from './request-sender.ts';
import { createCheckoutSessionEndpoint } from './resources/checkout.ts';
import {
  getAvailabilityEndpoint,
  getDomainEndpoint,
  getPricingEndpoint,
  searchDomainsEndpoint,
} from './resources/discovery.ts';
import { createResources, type PartnerResources } from './resources/index.ts';
import { runtimeProduct } from './transport.ts';
import { formatIssuePath } from './zod-issues.ts';

/** This package's version, sent in the default User-Agent. */
export const CLIENT_VERSION = '0.1.0';

/** Options of {@link PartnerClient}. Durations are in milliseconds. */
export interface PartnerClientOptions {
  /**
   * The service address, such as `https://marketplace.example` (an optional path prefix is kept); the client adds
   * `/api/partner/v1` itself (Partner API spec 4.1).
   */
  readonly baseUrl: string;
  /** The public key id of the credential, `pk_…` (Partner API spec 5.1). */
  readonly keyId: string;
  /** The API secret, `sk_…` (Partner API spec 5.1). Used once to create the HMAC key; never stored, sent or logged. */
  readonly secret: string;
  /** Prefix of the signing headers; default `X-Service-` (docs/architecture.md "Header brand"). */
  readonly headerPrefix?: string | undefined;
  /** undici dispatcher (Agent, ProxyAgent, MockAgent for tests); default undici's global dispatcher. */
  readonly dispatcher?: Dispatcher | undefined;
  /** Limit for one attempt, headers and body included; default 30 000. A timeout counts as a network error. */
  readonly timeoutMs?: number | undefined;
  /** Retries after the first attempt; default 2, 0 disables retrying. See `RETRY_RULES`. */
  readonly maxRetries?: number | undefined;
  /**
   * Cap on any wait between attempts; default 8 000. A `Retry-After` longer than this is not waited for: the error
   * is raised at once, carrying `retryAfter`.
   */
  readonly maxRetryDelayMs?: number | undefined;
  /** Upper bound of the first back-off delay, doubled on each retry (full jitter); default 500. */
  readonly initialRetryDelayMs?: number | undefined;
  /** User-Agent header; default `domainkit-client/<version> <runtime>/<version>` (`node/24.1.0`, `bun/…`, `deno/…`, `workerd`). */
  readonly userAgent?: string | undefined;
  /** Clock in ms since the epoch, for the signing timestamp; default `Date.now`. For tests. */
  readonly now?: (() => number) | undefined;
  /** Waits between attempts; default a real timer. For tests. */
  readonly sleep?: Sleep | undefined;
  /** Jitter source in [0, 1); default `Math.random`. For tests. */
  readonly random?: (() => number) | undefined;
  /**
   * Asked before every attempt (retries included) and told about every 429, to keep upstream traffic within the
   * Partner API spec 8 limits; default none. See {@link UpstreamBudget}.
   */
  readonly budget?: UpstreamBudget | undefined;
  /**
   * Returns the caller's request id before every attempt; when it returns one it is sent as `X-Request-Id`, so the
   * marketplace's logs can be matched with the caller's. Default none.
   */
  readonly requestId?: (() => string | undefined) | undefined;
  /** Told about every attempt once it ended: endpoint, rate class, status (0: no answer), duration. Default none. */
  readonly onAttempt?: ((attempt: AttemptReport) => void) | undefined;
}

const fn = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', { error: `must be a function (${what})` });

const optionsSchema = z.strictObject({
  baseUrl: z
    .string({
      error:
        'is required: the service address, such as "https://marketplace.example" (the client adds /api/partner/v1)',
    })
    .refine(
      (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
      'must be an absolute http(s) URL, such as "https://marketplace.example"',
    )
    .refine(
      (v) => !URL.canParse(v) || (new URL(v).search === '' && new URL(v).hash === ''),
      'must not carry a query or a fragment',
    )
    .refine(
      (v) => !/\/api\/partner(\/v1)?\/?$/.test(v),
      'is the service address only: drop the trailing "/api/partner/v1", the client adds it',
    ),
  keyId: z
    .string({ error: 'is required: the public key id of the credential (pk_…)' })
    .min(1, 'must not be empty (the pk_… key id)'),
  secret: z
    .string({ error: 'is required: the API secret of the credential (sk_…)' })
    .min(1, 'must not be empty (the sk_… API secret)'),
  headerPrefix: z.string().optional(),
  dispatcher: z
    .custom<Dispatcher>(
      (v) => typeof v === 'object' && v !== null && typeof (v as Dispatcher).dispatch === 'function',
      {
        error: 'must be an undici Dispatcher (Agent, Pool, MockAgent...)',
      },
    )
    .optional(),
  timeoutMs: z.number().int().positive('must be a positive number of milliseconds').optional(),
  maxRetries: z.number().int().min(0).max(10, 'must be at most 10').optional(),
  maxRetryDelayMs: z.number().int().nonnegative().optional(),
  initialRetryDelayMs: z.number().int().nonnegative().optional(),
  userAgent: z.string().min(1).optional(),
  now: fn<() => number>('() => milliseconds since the epoch').optional(),
  sleep: fn<Sleep>('(ms, signal) => Promise<void>').optional(),
  random: fn<() => number>('() => a number in [0, 1)').optional(),
  requestId: fn<() => string | undefined>('() => the request id to send, or undefined').optional(),
  onAttempt: fn<(attempt: AttemptReport) => void>('(attempt) => void').optional(),
  budget: z
    .custom<UpstreamBudget>(
      (v) => typeof v === 'object' && v !== null && typeof (v as UpstreamBudget).acquire === 'function',
      {
        error: 'must be an object with an acquire(request) method (see UpstreamBudget)',
      },
    )
    .optional(),
});

const OPTION_ALIASES: Readonly<Record<string, string>> = {
  apiSecret: 'secret',
  api_secret: 'secret',
  secretKey: 'secret',
  apiKey: 'keyId',
  key: 'keyId',
  key_id: 'keyId',
  baseURL: 'baseUrl',
  base_url: 'baseUrl',
  url: 'baseUrl',
  timeout: 'timeoutMs',
  retries: 'maxRetries',
  maxNetworkRetries: 'maxRetries',
};

function closest(key: string, known: readonly string[]): string | undefined {
  if (OPTION_ALIASES[key]) return OPTION_ALIASES[key];
  const lower = key.toLowerCase();
  return known.find(
    (k) => k.toLowerCase() === lower || k.toLowerCase().startsWith(lower) || lower.startsWith(k.toLowerCase()),
  );
}

function validateOptions(options: unknown): z.output<typeof optionsSchema> {
  const parsed = optionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const known = Object.keys(optionsSchema.shape);
  const messages = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys
        .map((k) => {
          const hint = closest(k, known);
          return `received unknown option \`${k}\`${hint ? `; did you mean \`${hint}\`?` : ` (known options: ${known.join(', ')})`}`;
        })
        .join('; ');
    }
    if (issue.path.length === 0) return 'options must be an object such as { baseUrl, keyId, secret }';
    return `\`${formatIssuePath(issue.path)}\` ${issue.message}`;
  });
  throw new TypeError(`PartnerClient: ${messages.join('; ')}.`);
}

/**
 * A client of the Partner API for one credential: every endpoint of Partner API spec 4.1 and the webhook registration.
 *
 * Discovery and checkout sessions are methods (`searchDomains`, `getDomain`, `getAvailability`, `getPricing`,
 * `createCheckoutSession`); the rest are grouped by resource: `quotes`, `orders`, `refunds`, `settlements`,
 * `transactions`, `payouts`, `brokerage`, `links`, `me`, `analytics`, `events`, `webhooks`. Every cursor list is an
 * async iterable (`for await (const order of client.orders.list({ status: 'SETTLED' }))`).
 *
 * Every attempt is signed afresh (Partner API spec 5.1) by a signer created once (its HMAC key is a Web Crypto
 * `CryptoKey`, imported once). Responses are parsed with the protocol's zod schemas; unknown fields are kept. The secret is not kept on the instance: it
 * appears in no property, `toString`, `util.inspect` or JSON of the client.
 *
 * @example
 * const client = new PartnerClient({ baseUrl: 'https://marketplace.example', keyId: 'pk_test_…', secret: process.env.API_SECRET! });
 * const { domains } = await client.searchDomains('coffee');
 */
export class PartnerClient {
  /** The service address as given (without `/api/partner/v1`). */
  readonly baseUrl: string;
  /** The public key id (`pk_…`). */
  readonly keyId: string;
  /** `POST /quotes`. */
  declare readonly quotes: PartnerResources['quotes'];
  /** `POST /orders`, `GET /orders`, `GET /orders/{public_id}`. */
  declare readonly orders: PartnerResources['orders'];
  /** `POST /refunds`. */
  declare readonly refunds: PartnerResources['refunds'];
  /** `GET /settlements`. */
  declare readonly settlements: PartnerResources['settlements'];
  /** `GET /transactions`. */
  declare readonly transactions: PartnerResources['transactions'];
  /** `GET /payouts`. */
  declare readonly payouts: PartnerResources['payouts'];
  /** `GET /brokerage/eligibility`, `POST /brokerage`, `GET /brokerage/{case_id}`, `GET /brokerage`. */
  declare readonly brokerage: PartnerResources['brokerage'];
  /** `POST /links`, `GET /links`. */
  declare readonly links: PartnerResources['links'];
  /** `GET /me/clicks`, `/me/sales`, `/me/commissions`, `/me/payouts`. */
  declare readonly me: PartnerResources['me'];
  /** `GET /analytics`. */
  declare readonly analytics: PartnerResources['analytics'];
  /** `GET /events?after_id=`. */
  declare readonly events: PartnerResources['events'];
  /** `PUT /api/partner/webhooks`. */
  declare readonly webhooks: PartnerResources['webhooks'];
  readonly #sender: RequestSender;

  /**
   * @throws {TypeError} for a missing or malformed option (the message names it and, for a misspelt one, the
   *   right name), or a secret that looks like a key id. The secret's value is never part of a message.
   */
  constructor(options: PartnerClientOptions) {
    const o = validateOptions(options);
    const headerPrefix = o.headerPrefix ?? DEFAULT_HEADER_PREFIX;
    headerNames(headerPrefix); // throws a TypeError that teaches, for a bad prefix
    const now = o.now ?? Date.now;
    this.baseUrl = o.baseUrl;
    this.keyId = o.keyId;
    this.#sender = new RequestSender({
      baseUrl: o.baseUrl,
      // Created once per client: the HMAC key is derived here, and the secret is not kept anywhere else.
      auth: hmacAuth(createRequestSigner({ keyId: o.keyId, secret: o.secret, headerPrefix, now })),
      headerPrefix,
      dispatcher: o.dispatcher,
      timeoutMs: o.timeoutMs ?? 30_000,
      maxRetries: o.maxRetries ?? 2,
      initialRetryDelayMs: o.initialRetryDelayMs ?? 500,
      maxRetryDelayMs: o.maxRetryDelayMs ?? 8_000,
      userAgent: o.userAgent ?? `domainkit-client/${CLIENT_VERSION} ${runtimeProduct()}`,
      now,
      sleep: o.sleep,
      random: o.random,
      budget: o.budget,
      requestId: o.requestId,
      onAttempt: o.onAttempt,
    });
    // Resource groups are non-enumerable: JSON and inspection of a client show only baseUrl and keyId.
    for (const [name, resource] of Object.entries(createResources(this.#sender))) {
      Object.defineProperty(this, name, { value: resource, enumerable: false, writable: false, configurable: false });
    }
  }

  /**
   * `GET /api/partner/v1/domains/search?q=` (Partner API spec 4.1, scope `search`): up to 5 ranked listed domains.
   * @param q - a word or a domain, 1–100 characters after trimming.
   * @throws {MarketplaceError} (see {@link RequestSender.send}); `validation_error` before sending for a blank q.
   */
  searchDomains(q: string, options?: CallOptions): Promise<DomainSearchResponse> {
    return this.#sender.send(searchDomainsEndpoint, { q }, options);
  }

  /**
   * `GET /api/partner/v1/domains/{name}` (Partner API spec 4.1, scope `search`): one domain with price (cents), availability,
   * status and metadata.
   * @throws {MarketplaceError} `not_found` (404) when the domain is not listed.
   */
  getDomain(name: string, options?: CallOptions): Promise<DomainDetail> {
    return this.#sender.send(getDomainEndpoint, { name }, options);
  }

  /**
   * `GET /api/partner/v1/availability?domain=` (Partner API spec 4.1, scope `search`): `available` plus the price in cents;
   * an unlisted domain answers `available: false` with a null price (not 404).
   */
  getAvailability(domain: string, options?: CallOptions): Promise<Availability> {
    return this.#sender.send(getAvailabilityEndpoint, { domain }, options);
  }

  /**
   * `GET /api/partner/v1/pricing?domain=` (Partner API spec 4.1, scope `search`): buy-now and floor price in cents.
   * @throws {MarketplaceError} `not_found` (404) when the domain is not listed.
   */
  getPricing(domain: string, options?: CallOptions): Promise<Pricing> {
    return this.#sender.send(getPricingEndpoint, { domain }, options);
  }

  /**
   * `POST /api/partner/v1/checkout-session` (Partner API spec 2.3, 4.1, scope `embed`): a hosted lander URL for the buyer,
   * valid 7 days. Not retried after a network error or 5xx (no Idempotency-Key); retried after 429.
   * @param input - `{ domain, return_url?, cancel_url? }` (absolute http(s) URLs).
   * @throws {MarketplaceError} `not_found` (404) for an unlisted domain, `conflict` (409) when it is sold.
   */
  createCheckoutSession(input: CheckoutSessionRequest, options?: CallOptions): Promise<CheckoutSession> {
    return this.#sender.send(createCheckoutSessionEndpoint, input, options);
  }

  /** `{ baseUrl, keyId }`: what JSON shows of a client (never the secret). */
  toJSON(): { baseUrl: string; keyId: string } {
    return { baseUrl: this.baseUrl, keyId: this.keyId };
  }

  /** `PartnerClient(pk_… @ https://…)`. */
  toString(): string {
    return `PartnerClient(${this.keyId} @ ${this.baseUrl})`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PartnerClient { baseUrl: ${JSON.stringify(this.baseUrl)}, keyId: ${JSON.stringify(this.keyId)}, api: ${JSON.stringify(PARTNER_API_PREFIX)} }`;
  }
}

export type { CallOptions };
