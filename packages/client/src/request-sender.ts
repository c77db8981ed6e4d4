/**
 * The one place that talks to the marketplace: builds the request from an {@link Endpoint}, authenticates each
 * attempt through a {@link RequestAuth} (an HMAC signature for the Partner API, Partner API spec 5.1; a Bearer token for the
 * Public API, Public API spec 5.2), sends it (`transport.ts`: undici on Node, `fetch` elsewhere), applies the timeout and the retry rules, and turns the answer into a
 * parsed value or a {@link MarketplaceError}.
 */
import { headerNames, sha256Hex, type RequestSigner } from '@domainkit/protocol';
import type { Dispatcher } from 'undici';
import {
  MarketplaceConnectionError,
  type MarketplaceError,
  MarketplaceResponseError,
  MarketplaceValidationError,
  errorFromResponse,
} from './errors.ts';
import type { UpstreamBudget } from './budget.ts';
import { endpointLabel, type Endpoint, type RateClass } from './endpoint.ts';
import { IDEMPOTENT_METHODS, backoffDelayMs, retryRuleFor } from './retry.ts';
import { sendAttempt } from './transport.ts';
import { formatIssues } from './zod-issues.ts';
import type { z } from 'zod';

/** Waits `ms` milliseconds; rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What a {@link RequestAuth} is shown of one attempt. */
export interface AuthRequest {
  readonly method: string;
  /** The path as sent, percent-encoded, prefix included. */
  readonly path: string;
  /** Query pairs, unencoded, in the caller's order. */
  readonly query: ReadonlyArray<readonly [string, string]>;
  /** Lowercase hex SHA-256 of the body bytes (of the empty string without a body). */
  readonly bodySha256: string;
}

/** How one attempt is authenticated. */
export interface AuthorizedRequest {
  /** Headers to add to the attempt (signature headers, `authorization`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The encoded query to send, without `?` (`''` for none): exactly the one that was signed. */
  readonly query: string;
  /**
   * Present when the credential can be renewed: called once per call after a 401 `invalid_token` answer to this
   * attempt; true when a new credential was obtained and the request should be sent once more.
   */
  readonly renew?: (() => Promise<boolean>) | undefined;
}

/** The authentication seam of a {@link RequestSender}: asked once per attempt, retries included. */
export interface RequestAuth {
  authorize(request: AuthRequest): AuthorizedRequest | Promise<AuthorizedRequest>;
}

/**
 * Partner API authentication (Partner API spec 5.1): every attempt signed afresh with a new timestamp and nonce, the query sent
 * in the canonical order it was signed in.
 */
export function hmacAuth(signer: RequestSigner): RequestAuth {
  return {
    async authorize(req) {
      const signed = await signer.sign({
        method: req.method,
        path: req.path,
        query: req.query,
        bodySha256: req.bodySha256,
      });
      return { headers: signed.headers, query: signed.query };
    },
  };
}

/** Where a Bearer access token comes from (Public API spec 5.2): the sign-in helper's session implements it. */
export interface AccessTokenSource {
  /** The current access token (refreshed first when about to expire), or `undefined` to call anonymously. */
  getAccessToken(): Promise<string | undefined>;
  /**
   * Called when the service answered 401 `invalid_token` to a request that carried the token.
   * @returns true when a new token was obtained and the request should be sent once more.
   */
  handleInvalidToken?(): Promise<boolean>;
}

/** RFC 3986 query encoding of pairs, in order (`encodeURIComponent` of each name and value). */
function encodeQuery(query: ReadonlyArray<readonly [string, string]>): string {
  return query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/**
 * Public API authentication (Public API spec 5.2, RFC 6750): `Authorization: Bearer <token>` when a token is given or the
 * source returns one, nothing (anonymous) otherwise. A source's `handleInvalidToken` is offered one renewal per call.
 */
export function bearerAuth(token: string | AccessTokenSource | undefined): RequestAuth {
  return {
    async authorize(req): Promise<AuthorizedRequest> {
      const value = token === undefined || typeof token === 'string' ? token : await token.getAccessToken();
      const query = encodeQuery(req.query);
      if (value === undefined) return { headers: {}, query };
      const renew =
        typeof token === 'object' && token.handleInvalidToken ? () => token.handleInvalidToken!() : undefined;
      return { headers: { authorization: `Bearer ${value}` }, query, renew };
    },
  };
}

/** Settings of a {@link RequestSender}. All durations in milliseconds. */
export interface RequestSenderOptions {
  /** Service address: origin plus an optional path prefix (`https://marketplace.example`). */
  readonly baseUrl: string;
  /** Authenticates one attempt: {@link hmacAuth} (Partner API) or {@link bearerAuth} (Public API). */
  readonly auth?: RequestAuth | undefined;
  /**
   * Signs one attempt; created once per credential (its HMAC key is a Web Crypto `CryptoKey` imported once).
   * Shorthand for `auth: hmacAuth(signer)`; one of `auth` and `signer` is required.
   */
  readonly signer?: RequestSigner | undefined;
  /** Header prefix of the signing headers, default `X-Service-` (only used to name them). */
  readonly headerPrefix?: string | undefined;
  /**
   * undici dispatcher (Agent, MockAgent, ProxyAgent...); default undici's global dispatcher on Node, the platform
   * `fetch` on workerd, Bun and Deno.
   */
  readonly dispatcher?: Dispatcher | undefined;
  /** Limit for one attempt, headers and body included. */
  readonly timeoutMs: number;
  /** Retries after the first attempt (0 disables retrying). */
  readonly maxRetries: number;
  /** Upper bound of the first back-off delay; doubles on each retry. */
  readonly initialRetryDelayMs: number;
  /**
   * Cap on any wait between attempts. A `Retry-After` longer than this is not waited for: the error is raised at
   * once with its `retryAfter`, so the caller can decide (a BFF answers its visitor "busy" instead of hanging).
   */
  readonly maxRetryDelayMs: number;
  readonly userAgent: string;
  /** Clock, ms since the epoch (reads HTTP-date `Retry-After`). */
  readonly now: () => number;
  readonly sleep?: Sleep | undefined;
  /** Jitter source in [0, 1). */
  readonly random?: (() => number) | undefined;
  /** Asked before every attempt and told about every 429 (Partner API spec 8); default none. */
  readonly budget?: UpstreamBudget | undefined;
  /**
   * The caller's request id, asked before every attempt and sent as `X-Request-Id` when it returns one, so the
   * marketplace's logs can be matched with the caller's (a BFF passes the id of the visitor request being served).
   */
  readonly requestId?: (() => string | undefined) | undefined;
  /** Told about every attempt once it ended (metrics, logs); must not throw. */
  readonly onAttempt?: ((attempt: AttemptReport) => void) | undefined;
}

/** One finished attempt, as {@link RequestSenderOptions.onAttempt} is told about it. */
export interface AttemptReport {
  /** `GET /api/partner/v1/domains/search`-style label. */
  readonly endpoint: string;
  /**
   * The Partner API spec 8 rate class of the endpoint (`search`, `write`, `reporting`, `read`, `manage`), or
   * `public` for a Public API call.
   */
  readonly rateClass: RateClass | 'public';
  /** The HTTP status, or 0 when no answer arrived (network error, timeout). */
  readonly status: number;
  /** From sending to the whole body, in milliseconds. */
  readonly durationMs: number;
  /** 0 for the first attempt of a call, then 1, 2… */
  readonly retry: number;
}

/**
 * What the client knows about the answer a result came from (stripe-node's `lastResponse`): the marketplace's
 * request id (`X-Request-Id`, quote it to support) and the HTTP status. Errors carry the same id as `requestId`.
 */
export interface LastResponse {
  readonly requestId: string | undefined;
  readonly status: number;
}

/**
 * The {@link LastResponse} of a value returned by a client call (also readable as the value's non-enumerable
 * `lastResponse` property), or undefined for any other value.
 */
export function lastResponseOf(result: unknown): LastResponse | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  return (result as { lastResponse?: LastResponse }).lastResponse;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call (every attempt and every wait); the call rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The Idempotency-Key of this logical write, reused across its retries (Partner API spec 4.1). Giving one also makes the
   * write safe to retry after a network error or a 5xx.
   */
  readonly idempotencyKey?: string | undefined;
  /**
   * True when the caller already took the budget for the first attempt (a BFF reserves the upstream write before
   * it charges the buyer); retries still ask the budget. Ignored without a budget.
   */
  readonly budgetAcquired?: boolean | undefined;
  /** An opaque value handed to the budget with every attempt of this call (`BudgetRequest.context`). */
  readonly context?: unknown;
  /** Sent as `X-Request-Id` on every attempt of this call (overrides the sender's `requestId`). */
  readonly requestId?: string | undefined;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (timers and `AbortSignal`, no `node:` import). */
const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

type ResponseHeaders = Record<string, string | string[] | undefined>;

type Attempt =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: ResponseHeaders;
      readonly bodyText: string;
      readonly renew: (() => Promise<boolean>) | undefined;
    }
  | { readonly kind: 'no_answer'; readonly error: MarketplaceConnectionError };

/** A 401 that says the access token is not valid (Partner API spec 7 `invalid_token`, or RFC 6750 3.1's challenge). */
function isInvalidToken(error: MarketplaceError, answer: { status: number; headers: ResponseHeaders }): boolean {
  if (answer.status !== 401) return false;
  return (
    error.code === 'invalid_token' || /error="invalid_token"/.test(String(answer.headers['www-authenticate'] ?? ''))
  );
}

/**
 * Sends Partner API requests for one credential.
 *
 * Owns transport (undici `request` on Node or with an injected dispatcher, the platform `fetch` on workerd, Bun and
 * Deno: `transport.ts`), per-attempt timeouts, retries (see `RETRY_RULES`) and
 * the Idempotency-Key. Each attempt is signed afresh, with a new timestamp and nonce; the JSON body is serialised
 * once and the same bytes are hashed and sent.
 */
export class RequestSender {
  readonly #options: RequestSenderOptions;
  readonly #origin: string;
  readonly #pathPrefix: string;
  readonly #idempotencyHeader: string;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #auth: RequestAuth;

  /** @throws {TypeError} when neither `auth` nor `signer` is given. */
  constructor(options: RequestSenderOptions) {
    this.#options = options;
    const auth = options.auth ?? (options.signer ? hmacAuth(options.signer) : undefined);
    if (auth === undefined) throw new TypeError('RequestSender needs `auth` (or `signer`)');
    this.#auth = auth;
    const url = new URL(options.baseUrl);
    this.#origin = url.origin;
    this.#pathPrefix = url.pathname.replace(/\/+$/, '');
    this.#idempotencyHeader = headerNames(options.headerPrefix).idempotencyKey;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
  }

  /**
   * Calls an endpoint and returns its parsed answer.
   *
   * @throws {MarketplaceValidationError} when `input` breaks the endpoint's input schema (nothing is sent).
   * @throws {MarketplaceError} for an error answer (Partner API spec 7) once retries are exhausted or not allowed.
   * @throws {MarketplaceConnectionError} when no answer arrived (network error, timeout).
   * @throws {MarketplaceResponseError} when a 2xx body is not JSON or breaks the response schema.
   * @throws the signal's reason when `options.signal` aborts.
   */
  async send<TInput extends z.ZodType, TResponse extends z.ZodType>(
    endpoint: Endpoint<TInput, TResponse>,
    input: z.input<TInput>,
    options: CallOptions = {},
  ): Promise<z.output<TResponse>> {
    const label = endpointLabel(endpoint);
    const parsedInput = endpoint.input.safeParse(input);
    if (!parsedInput.success) {
      throw new MarketplaceValidationError({
        endpoint: label,
        message: `${endpoint.name}: ${formatIssues(parsedInput.error)}. Nothing was sent.`,
      });
    }
    const { path, query, body } = this.#build(endpoint, parsedInput.data as Record<string, unknown>);
    const bodySha256 = await sha256Hex(body);
    const idempotencyKey =
      options.idempotencyKey ?? (endpoint.idempotencyKey === 'required' ? crypto.randomUUID() : undefined);
    const safeToRepeat =
      endpoint.safe === true || IDEMPOTENT_METHODS.has(endpoint.method) || idempotencyKey !== undefined;
    const { signal } = options;
    const o = this.#options;

    // The budget shapes traffic to the Partner API's rate classes; a Public API call has no class, so no budget.
    const { rateClass } = endpoint;
    let renewed = false;
    for (let retry = 0; ; retry++) {
      signal?.throwIfAborted();
      const budgetRequest =
        rateClass === undefined
          ? undefined
          : { rateClass, endpoint: label, attempt: retry, signal, context: options.context };
      if (budgetRequest && o.budget !== undefined && !(retry === 0 && options.budgetAcquired === true)) {
        await o.budget.acquire(budgetRequest);
      }
      const started = performance.now();
      const attempt = await this.#attempt({
        method: endpoint.method,
        path,
        query,
        body,
        bodySha256,
        idempotencyKey,
        label,
        signal,
        requestId: options.requestId ?? o.requestId?.(),
      });
      try {
        if (budgetRequest) o.budget?.settled?.(budgetRequest, { answered: attempt.kind === 'answer' });
      } catch {
        // A budget's bookkeeping never fails the call.
      }
      o.onAttempt?.({
        endpoint: label,
        rateClass: rateClass ?? 'public',
        status: attempt.kind === 'answer' ? attempt.status : 0,
        durationMs: performance.now() - started,
        retry,
      });
      if (attempt.kind === 'answer' && attempt.status >= 200 && attempt.status < 300) {
        return this.#parse(endpoint, label, attempt);
      }
      const error = attempt.kind === 'answer' ? errorFromResponse(attempt, label, o.now()) : attempt.error;
      if (attempt.kind === 'answer' && !renewed && attempt.renew !== undefined && isInvalidToken(error, attempt)) {
        renewed = true;
        if (await attempt.renew()) continue;
      }
      if (error.status === 429 && rateClass !== undefined)
        await o.budget?.onRateLimited?.({ rateClass, endpoint: label, retryAfter: error.retryAfter });
      const rule = retryRuleFor({ status: error.status, code: error.code }, safeToRepeat);
      if (rule === undefined || retry >= o.maxRetries) throw error;
      let waitMs: number;
      if (error.retryAfter !== undefined) {
        waitMs = error.retryAfter * 1000;
        if (waitMs > o.maxRetryDelayMs) throw error;
      } else {
        waitMs = backoffDelayMs(retry, {
          initialDelayMs: o.initialRetryDelayMs,
          maxDelayMs: o.maxRetryDelayMs,
          random: this.#random,
        });
      }
      try {
        await this.#sleep(waitMs, signal);
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        throw cause;
      }
    }
  }

  #build(
    endpoint: Endpoint,
    input: Record<string, unknown>,
  ): { path: string; query: Array<[string, string]>; body: string | undefined } {
    const rest: Record<string, unknown> = { ...input };
    const relative = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = rest[name];
      delete rest[name];
      if (value === undefined || value === null)
        throw new TypeError(`${endpoint.name}: path parameter ${name} is missing`);
      // RFC 3986 unreserved characters stay; everything else is percent-encoded, so the signed path is the sent one.
      return encodeURIComponent(String(value)).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    });
    const path = this.#pathPrefix + relative;
    const bodyMethod = endpoint.method === 'POST' || endpoint.method === 'PUT';
    if (bodyMethod) {
      // Serialised once: this text's UTF-8 bytes are hashed for the signature and sent (Partner API spec 5.1 line 6).
      // JSON.stringify output is well-formed UTF-16 (lone surrogates are escaped), so its UTF-8 encoding is exact.
      return { path, query: [], body: JSON.stringify(rest) };
    }
    const query: Array<[string, string]> = [];
    for (const [key, value] of Object.entries(rest)) {
      if (value === undefined || value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) query.push([key, String(v)]);
    }
    return { path, query, body: undefined };
  }

  async #attempt(req: {
    method: string;
    path: string;
    query: Array<[string, string]>;
    body: string | undefined;
    bodySha256: string;
    idempotencyKey: string | undefined;
    label: string;
    signal: AbortSignal | undefined;
    requestId: string | undefined;
  }): Promise<Attempt> {
    const o = this.#options;
    // A fresh timestamp and nonce for every attempt, retries included (Partner API spec 5.1 "Replay protection").
    const signed = await this.#auth.authorize({
      method: req.method,
      path: req.path,
      query: req.query,
      bodySha256: req.bodySha256,
    });
    const headers: Record<string, string> = {
      ...signed.headers,
      accept: 'application/json',
      'user-agent': o.userAgent,
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (req.idempotencyKey !== undefined) headers[this.#idempotencyHeader] = req.idempotencyKey;
    if (req.requestId !== undefined) headers['x-request-id'] = req.requestId;
    // The canonical query is sent as the URL's query, so what is signed is exactly what is sent.
    const url = `${this.#origin}${req.path}${signed.query === '' ? '' : `?${signed.query}`}`;
    const timeout = AbortSignal.timeout(o.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    try {
      const res = await sendAttempt({
        url,
        method: req.method,
        headers,
        body: req.body,
        signal,
        dispatcher: o.dispatcher,
      });
      return { kind: 'answer', status: res.status, headers: res.headers, bodyText: res.bodyText, renew: signed.renew };
    } catch (cause) {
      if (req.signal?.aborted) throw req.signal.reason;
      const reason = timeout.aborted
        ? `timed out after ${o.timeoutMs} ms`
        : `failed: ${(cause instanceof Error ? cause.message : String(cause)).replace(/\.+$/, '')}`;
      return {
        kind: 'no_answer',
        error: new MarketplaceConnectionError({
          endpoint: req.label,
          message: `Could not reach the marketplace at ${this.#origin}: ${req.label} ${reason}.`,
          cause,
        }),
      };
    }
  }

  #parse<TResponse extends z.ZodType>(
    endpoint: Endpoint<z.ZodType, TResponse>,
    label: string,
    answer: { status: number; headers: ResponseHeaders; bodyText: string },
  ): z.output<TResponse> {
    const header = answer.headers['x-request-id'];
    const requestId = Array.isArray(header) ? header[0] : header;
    let json: unknown;
    try {
      json = JSON.parse(answer.bodyText);
    } catch (cause) {
      throw new MarketplaceResponseError({
        status: answer.status,
        endpoint: label,
        requestId,
        message: `${label} answered HTTP ${answer.status} with a body that is not JSON.`,
        cause,
      });
    }
    const parsed = endpoint.response.safeParse(json);
    if (!parsed.success) {
      throw new MarketplaceResponseError({
        status: answer.status,
        endpoint: label,
        requestId,
        message: `${label} (${endpoint.name}) answered a body that breaks its schema: ${formatIssues(parsed.error)}.`,
        cause: parsed.error,
      });
    }
    const value = parsed.data as unknown;
    // Non-enumerable: JSON, equality checks and spreads of a result see only the marketplace's fields.
    if (typeof value === 'object' && value !== null && Object.isExtensible(value))
      Object.defineProperty(value, 'lastResponse', {
        value: { requestId, status: answer.status } satisfies LastResponse,
        enumerable: false,
        configurable: true,
      });
    return parsed.data;
  }
}
