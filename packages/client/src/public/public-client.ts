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
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { MarketplaceValidationError } from '../errors.ts';
import { CLIENT_VERSION } from '../partner-client.ts';
import { RequestSender, bearerAuth, type AccessTokenSource, type Sleep } from '../request-sender.ts';
import { PageIterator } from '../pagination.ts';
import { runtimeProduct } from '../transport.ts';
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

export type { AccessTokenSource } from '../request-sender.ts';

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
  /**
   * Retries of a failed attempt, by the Partner client's rules (`RETRY_RULES`: network error and 5xx for reads,
   * 429 for all); default 2.
   */
  readonly maxRetries?: number | undefined;
  /** Longest wait honoured for a `Retry-After`, in seconds; longer ones are raised at once. Default 60. */
  readonly maxRetryAfterSeconds?: number | undefined;
  /** Upper bound of the first back-off delay in milliseconds (full jitter, doubling per retry); default 250. */
  readonly initialRetryDelayMs?: number | undefined;
  /** Waits between retries (tests record instead of sleeping). */
  readonly sleep?: Sleep | undefined;
  /** Clock, ms since the epoch (reads HTTP-date `Retry-After`); default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Jitter source in [0, 1); default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /** `User-Agent`; default `domainkit-client/<version> <runtime>/<version>` (`node/24.1.0`, `bun/…`, `deno/…`, `workerd`). */
  readonly userAgent?: string | undefined;
}

/** Per-call options of {@link PublicClient}. */
export interface PublicCallOptions {
  /** Aborts the call (every attempt and every wait); the call rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
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

/** The input of a Public API call, checked by the client's methods before it gets here. */
const anyInput = z.record(z.string(), z.unknown());

interface Call<S extends z.ZodType> {
  /** Client method name, for error messages. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Path from the service root, with `{placeholder}`s filled from `input`. */
  readonly path: string;
  /** Path parameters, then the query of a GET or the JSON body of a POST; undefined fields are left out. */
  readonly input?: Record<string, unknown>;
  readonly schema: S;
  /** Repeating it after an ambiguous failure does no harm (reads, and the POST lookups). */
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

/** Splits a list into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A client of the Public API. Each method raises `MarketplaceError` (or a subclass) when a call fails. */
export class PublicClient {
  readonly baseUrl: string;
  readonly #sender: RequestSender;

  constructor(options: PublicClientOptions) {
    this.baseUrl = normaliseBase(options.baseUrl);
    this.#sender = new RequestSender({
      baseUrl: this.baseUrl,
      auth: bearerAuth(options.accessToken),
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxRetries: options.maxRetries ?? 2,
      initialRetryDelayMs: options.initialRetryDelayMs ?? 250,
      maxRetryDelayMs: (options.maxRetryAfterSeconds ?? 60) * 1000,
      userAgent: options.userAgent ?? `domainkit-client/${CLIENT_VERSION} ${runtimeProduct()}`,
      now: options.now ?? Date.now,
      sleep: options.sleep,
      random: options.random,
    });
  }

  /** Sends one call through the shared {@link RequestSender} (retry rules, timeout, jitter, abort, Bearer token). */
  #send<S extends z.ZodType>(call: Call<S>, options: PublicCallOptions = {}): Promise<z.output<S>> {
    const endpoint = defineEndpoint({
      name: call.name,
      method: call.method,
      path: call.path,
      input: anyInput,
      response: call.schema,
      safe: call.safe,
    });
    return this.#sender.send(endpoint, call.input ?? {}, { signal: options.signal });
  }

  /**
   * Availability of a domain (`coffee.io`) or a label (`coffee`) with its alternate-TLD siblings
   * (`POST /api/domain/search`). Marketplace prices are masked (`price_cents: null`) unless signed in.
   */
  async searchDomain(q: string, options: PublicCallOptions = {}): Promise<PublicDomainSearchResponseLenient> {
    if (q.trim() === '')
      throw new MarketplaceValidationError({
        message: 'searchDomain needs a domain or a label',
        endpoint: 'POST /api/domain/search',
      });
    return this.#send(
      {
        name: 'searchDomain',
        method: 'POST',
        path: '/api/domain/search',
        input: { q },
        schema: publicDomainSearchResponseLenientSchema,
        safe: true,
      },
      options,
    );
  }

  /** WHOIS/RDAP details of a domain (`POST /api/tools/whois`). */
  whois(domain: string, options: PublicCallOptions = {}): Promise<PublicWhoisRecordLenient> {
    return this.#send(
      {
        name: 'whois',
        method: 'POST',
        path: '/api/tools/whois',
        input: { domain },
        schema: publicWhoisRecordLenientSchema,
        safe: true,
      },
      options,
    );
  }

  /** The USD price of an operation under a TLD (`GET /api/pricing/tld`), in cents. */
  tldPrice(
    tld: string,
    op: TldOperation = 'register',
    options: PublicCallOptions = {},
  ): Promise<PublicTldPriceLenient> {
    return this.#send(
      {
        name: 'tldPrice',
        method: 'GET',
        path: '/api/pricing/tld',
        input: { tld, op },
        schema: publicTldPriceLenientSchema,
        safe: true,
      },
      options,
    );
  }

  /** Term range, organisation rules and nameserver rules of a TLD (`GET /api/tlds/{tld}/metadata`). */
  tldMetadata(tld: string, options: PublicCallOptions = {}): Promise<PublicTldMetadataLenient> {
    return this.#send(
      {
        name: 'tldMetadata',
        method: 'GET',
        path: '/api/tlds/{tld}/metadata',
        input: { tld: tld.replace(/^\./, '') },
        schema: publicTldMetadataLenientSchema,
        safe: true,
      },
      options,
    );
  }

  /** One page of aftermarket listings (`GET /api/market/listings`): by `cursor` (stable) or by `offset`. */
  listingsPage(
    options: { tld?: string; limit?: number; cursor?: string; offset?: number; signal?: AbortSignal } = {},
  ): Promise<PublicListingsPageLenient> {
    return this.#send(
      {
        name: 'listingsPage',
        method: 'GET',
        path: '/api/market/listings',
        input: { tld: options.tld, limit: options.limit, cursor: options.cursor, offset: options.offset },
        schema: publicListingsPageLenientSchema,
        safe: true,
      },
      { signal: options.signal },
    );
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
          ...(options.signal ? { signal: options.signal } : {}),
        });
        return { items: page.listings, nextCursor: page.page.next_cursor ?? null, raw: page };
      },
      undefined,
      options.signal,
    );
  }

  /** The batchable operations and their params (`GET /api/batch`). */
  batchCatalogue(options: PublicCallOptions = {}): Promise<PublicBatchCatalogueLenient> {
    return this.#send(
      {
        name: 'batchCatalogue',
        method: 'GET',
        path: '/api/batch',
        schema: publicBatchCatalogueLenientSchema,
        safe: true,
      },
      options,
    );
  }

  /**
   * Runs any number of operations through `POST /api/batch`, in chunks of 20 (Partner API spec 8), one chunk after another.
   * @returns one result per operation, in the order given (a failed operation is a result with `ok: false`).
   * @throws {MarketplaceValidationError} for duplicate ids (nothing is sent); when a chunk
   *   fails as a whole (`MarketplaceError`; results of earlier chunks are lost: the reads are safe to repeat).
   */
  async batch(
    operations: readonly BatchOperation[],
    options: PublicCallOptions = {},
  ): Promise<PublicBatchResultLenient[]> {
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
      const answer = await this.#send(
        {
          name: 'batch',
          method: 'POST',
          path: '/api/batch',
          input: { operations: part },
          schema: publicBatchResponseLenientSchema,
          safe: true,
        },
        options,
      );
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
        const page = await this.#send(
          {
            name: 'ownedDomains',
            method: 'GET',
            path: '/api/domains',
            input: { limit: options.pageSize, cursor },
            schema: publicOwnedDomainsPageLenientSchema,
            safe: true,
          },
          { signal: options.signal },
        );
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
    options: PublicCallOptions = {},
  ): Promise<PublicBulkResponseLenient> {
    const results: PublicBulkResponseLenient['results'] = [];
    for (const part of chunk(domains, BULK_MAX_DOMAINS)) {
      const answer = await this.#send(
        {
          name: 'bulk',
          method: 'POST',
          path: '/api/domains/bulk/{op}',
          input: { op, domains: part, ...params },
          schema: publicBulkResponseLenientSchema,
          safe: false,
        },
        options,
      );
      results.push(...answer.results);
    }
    const succeeded = results.filter((r) => r.ok).length;
    return { op, results, summary: { requested: results.length, succeeded, failed: results.length - succeeded } };
  }

  /** `GET /api`: what the access token grants (401 without one). */
  apiIndex(options: PublicCallOptions = {}): Promise<PublicApiIndexLenient> {
    return this.#send(
      { name: 'apiIndex', method: 'GET', path: '/api', schema: publicApiIndexLenientSchema, safe: true },
      options,
    );
  }

  /** The OpenAPI 3.1 document of the Public API (`GET /openapi.json`, Partner API spec 9.3). */
  openApiDocument(options: PublicCallOptions = {}): Promise<Record<string, unknown>> {
    return this.#send(
      { name: 'openApiDocument', method: 'GET', path: '/openapi.json', schema: openApiSchema, safe: true },
      options,
    );
  }
}
