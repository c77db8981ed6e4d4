/**
 * `PublicClient`: the marketplace's unsigned Public API (Public API spec 4.2) on undici — domain search with alternate-TLD
 * siblings, WHOIS, TLD pricing and metadata, aftermarket listings (an async iterator over `page.next_cursor`),
 * batching (chunked at 20 operations, Partner API spec 8), the signed-in bulk operations (chunked at 1,000 domains) and the
 * OpenAPI document.
 *
 * Anonymous by default (marketplace prices masked); give it an access token, or a {@link AccessTokenSource} such
 * as the sign-in helper's session, to see real prices (Public API spec 5.2). A 401 `invalid_token` is never swallowed: the
 * source may refresh once, otherwise the error is raised as a `MarketplaceError` (code `invalid_token`).
 *
 * ```ts
 * const client = new PublicClient({ baseUrl: 'http://127.0.0.1:4010' });
 * const { domain, siblings } = await client.searchDomain('coffee.io');
 * for await (const listing of client.listings({ tld: 'io' })) console.log(listing.domain);
 * ```
 */
import { BATCH_MAX_OPERATIONS, BULK_MAX_DOMAINS } from '@domainkit/protocol';
import { setTimeout as delay } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { z } from 'zod';
import {
  MarketplaceConnectionError,
  MarketplaceResponseError,
  MarketplaceValidationError,
  errorFromResponse,
  parseRetryAfter,
} from '../errors.ts';
import { PageIterator } from '../pagination.ts';
import {
  publicApiIndexLenientSchema,
  publicBatchCatalogueLenientSchema,
  publicBatchResponseLenientSchema,
  publicBulkResponseLenientSchema,
  publicDomainSearchResponseLenientSchema,
  publicListingsPageLenientSchema,
  publicOwnedDomainsPageLenientSchema,
  publicTldMetadataLenientSchema,
  publicTldPriceLenientSchema,
  publicWhoisRecordLenientSchema,
  type PublicApiIndexLenient,
  type PublicBatchCatalogueLenient,
  type PublicBatchResultLenient,
  type PublicBulkResponseLenient,
  type PublicDomainSearchResponseLenient,
  type PublicListingLenient,
  type PublicListingsPageLenient,
  type PublicOwnedDomainLenient,
  type PublicTldMetadataLenient,
  type TldOperation,
  type PublicTldPriceLenient,
  type PublicWhoisRecordLenient,
} from '@domainkit/protocol';

/** The OpenAPI document, as far as the client checks it. */
const openApiSchema = z.looseObject({ openapi: z.string() });

/** Where an access token comes from: the sign-in helper's session implements it (refresh with rotation). */
export interface AccessTokenSource {
  /** The current access token (refreshed first when about to expire), or `undefined` to call anonymously. */
  getAccessToken(): Promise<string | undefined>;
  /**
   * Called when the service answered 401 `invalid_token` to a request that carried the token.
   * @returns true when a new token was obtained and the request should be sent once more.
   */
  handleInvalidToken?(): Promise<boolean>;
}

/** Options of {@link PublicClient}. */
export interface PublicClientOptions {
  /** The service's base URL, `https://marketplace.example` (the Public API is under `{baseUrl}/api`). */
  readonly baseUrl: string;
  /** A Bearer access token, or a source of them. Default: anonymous. */
  readonly accessToken?: string | AccessTokenSource | undefined;
  /** undici dispatcher (Agent, MockAgent...); default undici's global dispatcher. */
  readonly dispatcher?: Dispatcher | undefined;
  /** Per-attempt timeout in milliseconds; default 10,000. */
  readonly timeoutMs?: number | undefined;
  /** Retries of a failed attempt (network error, 5xx for reads, 429 for all); default 2. */
  readonly maxRetries?: number | undefined;
  /** Longest wait honoured for a `Retry-After`, in seconds; longer ones are raised at once. Default 60. */
  readonly maxRetryAfterSeconds?: number | undefined;
  /** Waits between retries (tests record instead of sleeping). */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
}

/** One batch operation (Public API spec 4.2): `id` is yours and ties the result to it. */
export interface BatchOperation {
  readonly id: string;
  /** `search_domain`, `tld_registration_price` or `whois_lookup` (see {@link PublicClient.batchCatalogue}). */
  readonly op: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** Bulk operations of the sandbox (the spec leaves `{op}` open). */
export type BulkOperation =
  | 'lock'
  | 'unlock'
  | 'renew'
  | 'set_nameservers'
  | 'enable_auto_renew'
  | 'disable_auto_renew';

interface Call<S extends z.ZodType> {
  readonly method: 'GET' | 'POST';
  /** Path and query, beginning with `/`. */
  readonly path: string;
  readonly body?: unknown;
  readonly schema: S;
  /** Repeating it after an ambiguous failure does no harm (reads). */
  readonly safe: boolean;
}

function normaliseBase(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL; received ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError(`baseUrl must be http(s); received ${url.protocol}`);
  return url.href.replace(/\/+$/, '');
}

function query(params: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined);
  return pairs.length === 0
    ? ''
    : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}`;
}

/** Splits a list into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A client of the Public API. Each method raises `MarketplaceError` (or a subclass) when a call fails. */
export class PublicClient {
  readonly baseUrl: string;
  readonly #token: string | AccessTokenSource | undefined;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryAfter: number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: PublicClientOptions) {
    this.baseUrl = normaliseBase(options.baseUrl);
    this.#token = options.accessToken;
    this.#dispatcher = options.dispatcher;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#maxRetryAfter = options.maxRetryAfterSeconds ?? 60;
    this.#sleep = options.sleep ?? ((ms) => delay(ms));
  }

  async #accessToken(): Promise<string | undefined> {
    if (this.#token === undefined || typeof this.#token === 'string') return this.#token;
    return this.#token.getAccessToken();
  }

  async #send<S extends z.ZodType>(call: Call<S>): Promise<z.output<S>> {
    const endpoint = `${call.method} ${call.path.split('?')[0]}`;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const token = await this.#accessToken();
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      let status: number;
      let responseHeaders: Record<string, string | string[] | undefined>;
      let text: string;
      try {
        const res = await request(`${this.baseUrl}${call.path}`, {
          method: call.method,
          headers,
          body: call.body === undefined ? null : JSON.stringify(call.body),
          ...(this.#dispatcher ? { dispatcher: this.#dispatcher } : {}),
          headersTimeout: this.#timeoutMs,
          bodyTimeout: this.#timeoutMs,
        });
        status = res.statusCode;
        responseHeaders = res.headers;
        text = await res.body.text();
      } catch (cause) {
        if (call.safe && attempt < this.#maxRetries) {
          await this.#sleep(Math.min(8_000, 250 * 2 ** attempt));
          continue;
        }
        throw new MarketplaceConnectionError({
          message: `${endpoint} failed: could not reach ${this.baseUrl} (${(cause as Error).message}).`,
          endpoint,
          cause,
        });
      }
      if (status >= 200 && status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (cause) {
          throw new MarketplaceResponseError({
            status,
            message: `${endpoint} answered a body that is not JSON.`,
            endpoint,
            cause,
          });
        }
        const parsed = call.schema.safeParse(json);
        if (!parsed.success)
          throw new MarketplaceResponseError({
            status,
            message: `${endpoint} answered an unexpected body: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
            endpoint,
            cause: parsed.error,
          });
        return parsed.data;
      }
      const error = errorFromResponse({ status, headers: responseHeaders, bodyText: text }, endpoint, Date.now());
      const invalidToken =
        status === 401 &&
        (error.code === 'invalid_token' ||
          /error="invalid_token"/.test(String(responseHeaders['www-authenticate'] ?? '')));
      if (
        invalidToken &&
        token !== undefined &&
        !refreshed &&
        typeof this.#token === 'object' &&
        this.#token.handleInvalidToken
      ) {
        refreshed = true;
        if (await this.#token.handleInvalidToken()) continue;
      }
      if (attempt < this.#maxRetries) {
        if (status === 429) {
          const wait = parseRetryAfter(responseHeaders['retry-after'], Date.now()) ?? 1;
          if (wait <= this.#maxRetryAfter) {
            await this.#sleep(wait * 1000);
            continue;
          }
        } else if (status >= 500 && call.safe) {
          await this.#sleep(Math.min(8_000, 250 * 2 ** attempt));
          continue;
        }
      }
      throw error;
    }
  }

  /**
   * Availability of a domain (`coffee.io`) or a label (`coffee`) with its alternate-TLD siblings
   * (`POST /api/domain/search`). Marketplace prices are masked (`price_cents: null`) unless signed in.
   */
  async searchDomain(q: string): Promise<PublicDomainSearchResponseLenient> {
    if (q.trim() === '')
      throw new MarketplaceValidationError({
        message: 'searchDomain needs a domain or a label',
        endpoint: 'POST /api/domain/search',
      });
    return this.#send({
      method: 'POST',
      path: '/api/domain/search',
      body: { q },
      schema: publicDomainSearchResponseLenientSchema,
      safe: true,
    });
  }

  /** WHOIS/RDAP details of a domain (`POST /api/tools/whois`). */
  whois(domain: string): Promise<PublicWhoisRecordLenient> {
    return this.#send({
      method: 'POST',
      path: '/api/tools/whois',
      body: { domain },
      schema: publicWhoisRecordLenientSchema,
      safe: true,
    });
  }

  /** The USD price of an operation under a TLD (`GET /api/pricing/tld`), in cents. */
  tldPrice(tld: string, op: TldOperation = 'register'): Promise<PublicTldPriceLenient> {
    return this.#send({
      method: 'GET',
      path: `/api/pricing/tld${query({ tld, op })}`,
      schema: publicTldPriceLenientSchema,
      safe: true,
    });
  }

  /** Term range, organisation rules and nameserver rules of a TLD (`GET /api/tlds/{tld}/metadata`). */
  tldMetadata(tld: string): Promise<PublicTldMetadataLenient> {
    return this.#send({
      method: 'GET',
      path: `/api/tlds/${encodeURIComponent(tld.replace(/^\./, ''))}/metadata`,
      schema: publicTldMetadataLenientSchema,
      safe: true,
    });
  }

  /** One page of aftermarket listings (`GET /api/market/listings`): by `cursor` (stable) or by `offset`. */
  listingsPage(
    options: { tld?: string; limit?: number; cursor?: string; offset?: number } = {},
  ): Promise<PublicListingsPageLenient> {
    return this.#send({
      method: 'GET',
      path: `/api/market/listings${query({ tld: options.tld, limit: options.limit, cursor: options.cursor, offset: options.offset })}`,
      schema: publicListingsPageLenientSchema,
      safe: true,
    });
  }

  /** Every aftermarket listing, newest first, fetched page by page through `page.next_cursor` as you iterate. */
  listings(
    options: { tld?: string; pageSize?: number; signal?: AbortSignal } = {},
  ): PageIterator<PublicListingLenient, PublicListingsPageLenient> {
    return new PageIterator<PublicListingLenient, PublicListingsPageLenient>(
      async (cursor) => {
        const page = await this.listingsPage({
          ...(options.tld ? { tld: options.tld } : {}),
          ...(options.pageSize ? { limit: options.pageSize } : {}),
          ...(cursor ? { cursor } : {}),
        });
        return { items: page.listings, nextCursor: page.page.next_cursor ?? null, raw: page };
      },
      undefined,
      options.signal,
    );
  }

  /** The batchable operations and their params (`GET /api/batch`). */
  batchCatalogue(): Promise<PublicBatchCatalogueLenient> {
    return this.#send({ method: 'GET', path: '/api/batch', schema: publicBatchCatalogueLenientSchema, safe: true });
  }

  /**
   * Runs any number of operations through `POST /api/batch`, in chunks of 20 (Partner API spec 8), one chunk after another.
   * @returns one result per operation, in the order given (a failed operation is a result with `ok: false`).
   * @throws {MarketplaceValidationError} for duplicate ids (nothing is sent); when a chunk
   *   fails as a whole (`MarketplaceError`; results of earlier chunks are lost: the reads are safe to repeat).
   */
  async batch(operations: readonly BatchOperation[]): Promise<PublicBatchResultLenient[]> {
    const ids = new Set<string>();
    for (const { id } of operations) {
      if (ids.has(id))
        throw new MarketplaceValidationError({
          message: `batch operation ids must be unique: ${JSON.stringify(id)} appears twice`,
          endpoint: 'POST /api/batch',
        });
      ids.add(id);
    }
    const byId = new Map<string, PublicBatchResultLenient>();
    for (const part of chunk(operations, BATCH_MAX_OPERATIONS)) {
      const answer = await this.#send({
        method: 'POST',
        path: '/api/batch',
        body: { operations: part },
        schema: publicBatchResponseLenientSchema,
        safe: true,
      });
      for (const result of answer.results) byId.set(result.id, result);
    }
    return operations.map(
      (o) =>
        byId.get(o.id) ?? {
          id: o.id,
          op: o.op,
          ok: false,
          error: { code: 'missing_result', message: `the batch answer had no result for ${JSON.stringify(o.id)}` },
        },
    );
  }

  /** The signed-in user's domains (`GET /api/domains`, scope `domains:manage`), page by page as you iterate. */
  ownedDomains(options: { pageSize?: number; signal?: AbortSignal } = {}): PageIterator<PublicOwnedDomainLenient> {
    return new PageIterator<PublicOwnedDomainLenient>(
      async (cursor) => {
        const page = await this.#send({
          method: 'GET',
          path: `/api/domains${query({ limit: options.pageSize, cursor })}`,
          schema: publicOwnedDomainsPageLenientSchema,
          safe: true,
        });
        return { items: page.domains, nextCursor: page.next_cursor ?? null, raw: page };
      },
      undefined,
      options.signal,
    );
  }

  /**
   * Applies a bulk operation to the signed-in user's domains (`POST /api/domains/bulk/{op}`, scope
   * `domains:manage`), in chunks of 1,000 (Partner API spec 8).
   * @param params - `{years}` for `renew`, `{nameservers}` for `set_nameservers`.
   * @returns the per-domain results of every chunk, in order, and their summary.
   */
  async bulk(
    op: BulkOperation,
    domains: readonly string[],
    params: { years?: number; nameservers?: readonly string[] } = {},
  ): Promise<PublicBulkResponseLenient> {
    const results: PublicBulkResponseLenient['results'] = [];
    for (const part of chunk(domains, BULK_MAX_DOMAINS)) {
      const answer = await this.#send({
        method: 'POST',
        path: `/api/domains/bulk/${encodeURIComponent(op)}`,
        body: { domains: part, ...params },
        schema: publicBulkResponseLenientSchema,
        safe: false,
      });
      results.push(...answer.results);
    }
    const succeeded = results.filter((r) => r.ok).length;
    return { op, results, summary: { requested: results.length, succeeded, failed: results.length - succeeded } };
  }

  /** `GET /api`: what the access token grants (401 without one). */
  apiIndex(): Promise<PublicApiIndexLenient> {
    return this.#send({ method: 'GET', path: '/api', schema: publicApiIndexLenientSchema, safe: true });
  }

  /** The OpenAPI 3.1 document of the Public API (`GET /openapi.json`, Partner API spec 9.3). */
  openApiDocument(): Promise<Record<string, unknown>> {
    return this.#send({ method: 'GET', path: '/openapi.json', schema: openApiSchema, safe: true });
  }
}
