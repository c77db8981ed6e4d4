/**
 * Declarative descriptions of Partner API endpoints (Partner API spec 4.1): method, path, input and response schemas.
 * Resources only describe endpoints; the {@link RequestSender} does the rest (stripe-node's layout).
 */
import type { PartnerOperation, RateClass } from '@domainkit/protocol';
import type { z } from 'zod';

export type { RateClass };

/** The service-relative prefix of every versioned Partner API path (Partner API spec 4.1, 9). */
export const PARTNER_API_PREFIX = '/api/partner/v1';

/** HTTP methods the Partner API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One endpoint.
 *
 * Input fields named by a `{placeholder}` in `path` fill the path (percent-encoded); the remaining fields become
 * the query of a GET or DELETE, or the JSON body of a POST or PUT.
 */
export interface Endpoint<TInput extends z.ZodType = z.ZodType, TResponse extends z.ZodType = z.ZodType> {
  /** The client method's name, for error messages (`searchDomains`). */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path from the service root, such as `/api/partner/v1/domains/{name}`. */
  readonly path: string;
  /** The call's input, checked before anything is sent. */
  readonly input: TInput;
  /** The 2xx answer; schemas keep unknown fields. */
  readonly response: TResponse;
  /**
   * `required`: every logical call carries an Idempotency-Key (generated once per call when the caller gives
   * none, reused across its retries), which also makes the write safe to retry after a network error or 5xx.
   * Default `none`.
   */
  readonly idempotencyKey?: 'required' | 'none';
  /**
   * True for a POST that only reads (a lookup whose question is in the body, such as the Public API's search):
   * repeating it after a network error or 5xx does no harm, as for a GET. Default: decided by the method.
   */
  readonly safe?: boolean;
  /**
   * The Partner API spec 8 rate-limit class (protocol's `RateClass`: `search`, `write`, `reporting`, `read`,
   * `manage`), handed to an {@link UpstreamBudget}. Every Partner API endpoint has one; a Public API endpoint has
   * none, and no budget is asked for it.
   */
  readonly rateClass?: RateClass;
}

/** `METHOD /path` of an endpoint, as error messages name it. */
export function endpointLabel(endpoint: Pick<Endpoint, 'method' | 'path'>): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/** Declares an endpoint; the identity function, typed. */
export function defineEndpoint<TInput extends z.ZodType, TResponse extends z.ZodType>(
  endpoint: Endpoint<TInput, TResponse>,
): Endpoint<TInput, TResponse> {
  return Object.freeze({ ...endpoint });
}

/**
 * The client's endpoint for an operation of protocol's Partner API table (`PARTNER_API_OPERATIONS`): its method,
 * path (under `/api/partner`), input, answer, rate class and Idempotency-Key rule, all taken from the table.
 * @param name - the client method's name, for error messages (`orders.create`).
 * @param response - a schema to parse the answer with instead of the operation's own (a more tolerant one).
 */
export function partnerEndpoint<
  TInput extends z.ZodType,
  TAnswer extends z.ZodType,
  TResponse extends z.ZodType = TAnswer,
>(name: string, operation: PartnerOperation<TInput, TAnswer>, response?: TResponse): Endpoint<TInput, TResponse> {
  return defineEndpoint({
    name,
    method: operation.method,
    path: `/api/partner${operation.path}`,
    input: operation.input,
    response: (response ?? operation.answer) as unknown as TResponse,
    // An optional key is sent when the caller gives one; only a required key is made up by the client.
    ...(operation.idempotencyKey === 'required' ? { idempotencyKey: 'required' as const } : {}),
    rateClass: operation.rateClass,
  });
}
