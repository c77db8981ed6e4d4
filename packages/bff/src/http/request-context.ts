/**
 * Request ids end to end and the one access-log line per request.
 *
 * - The id: a well-formed `X-Request-Id` sent by the widget or a proxy in front (protocol `isWellFormedRequestId`),
 *   the `req.id` an outer pino-http of the partner's app already gave the request, or a new UUID. It is answered in
 *   `X-Request-Id`, put on every log line written while the request is served (through {@link contextualLogger}),
 *   and sent upstream on every Partner API attempt made for it (the client's `requestId` option).
 * - The line (at `info`; `error` with the error's message for a 5xx): `{req_id, method, route, status, ms, cache?,
 *   upstream_calls}`. Never the query (visitor input) nor headers.
 *
 * The request's state lives in an `AsyncLocalStorage`, so code far from the route (the search cache, the client's
 * hooks, background work started by the request) reads it without being handed it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { isWellFormedRequestId } from '@domainkit/protocol';
import type { Logger } from 'pino';

/** What is known about the request being served. */
export interface RequestState {
  /** The request id (answered in `X-Request-Id`, logged as `req_id`, sent upstream). */
  readonly requestId: string;
  /** Partner API attempts made for this request (retries count). */
  upstreamCalls: number;
  /** How the cache answered (`hit`, `miss`, `stale`, `coalesced`, `stale_if_error`), when the route used it. */
  cache?: string | undefined;
  /** Child loggers bound to this request, one per base logger (made on first use). */
  loggers?: WeakMap<Logger, Logger> | undefined;
}

const storage = new AsyncLocalStorage<RequestState>();

/** The request being served, or undefined outside one (background work, start-up). */
export function currentRequest(): RequestState | undefined {
  return storage.getStore();
}

/** The id of the request being served, for the client's `requestId` option. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Adds to what the access-log line reports about the current request (no-op outside one). */
export function noteRequest(fields: { cache?: string; upstreamCall?: true }): void {
  const state = storage.getStore();
  if (state === undefined) return;
  if (fields.cache !== undefined) state.cache = fields.cache;
  if (fields.upstreamCall) state.upstreamCalls += 1;
}

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);

/**
 * A logger that writes through `base`, adding `req_id` to every line written while a request is served. Works
 * with any pino logger, the partner's included (pino's `mixin` exists only on a root logger).
 */
export function contextualLogger(base: Logger): Logger {
  return new Proxy(base, {
    get(target, property, receiver) {
      if (typeof property === 'string' && LEVELS.has(property)) {
        const state = storage.getStore();
        if (state === undefined) return Reflect.get(target, property, receiver);
        state.loggers ??= new WeakMap();
        let bound = state.loggers.get(target);
        if (bound === undefined) {
          bound = target.child({ req_id: state.requestId });
          state.loggers.set(target, bound);
        }
        return (bound[property as 'info'] as (...args: unknown[]) => void).bind(bound);
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * The id of a request: `outer` (the `req.id` an outer pino-http of the partner's app gave it) when well-formed,
 * else a well-formed `X-Request-Id` it was sent with, else a new UUID ({@link newUuid}).
 */
export function requestIdOf(sent: string | null | undefined, outer?: unknown): string {
  if (outer !== undefined && outer !== null && isWellFormedRequestId(String(outer))) return String(outer);
  return isWellFormedRequestId(sent ?? undefined) ? (sent as string) : newUuid();
}

/** UUIDs made at a time by {@link newUuid}. */
const UUID_BATCH = 128;
/** The ASCII codes of the hex digits. */
const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const ascii = new TextDecoder();
/** The current batch: {@link UUID_BATCH} UUIDs of 36 characters, one after another; `nextUuid` is the next unused. */
let uuids = '';
let nextUuid = UUID_BATCH;

/**
 * A new random UUID (version 4, RFC 9562 section 5.4), lower-case hex as `crypto.randomUUID()` writes it, from the
 * same generator (`crypto.getRandomValues`). A batch is written at a time into one string, each UUID a slice of it:
 * a request id is made for nearly every answer, and per id this costs a fraction of `randomUUID`, which builds each
 * from 20 pieces.
 */
export function newUuid(): string {
  if (nextUuid === UUID_BATCH) {
    const random = crypto.getRandomValues(new Uint8Array(16 * UUID_BATCH));
    const text = new Uint8Array(36 * UUID_BATCH);
    for (let u = 0; u < UUID_BATCH; u++) {
      let at = 36 * u;
      for (let i = 0; i < 16; i++) {
        let byte = random[16 * u + i]!;
        // The version (4) and the variant (binary 10), RFC 9562 section 4.1 and 4.2.
        if (i === 6) byte = (byte & 0x0f) | 0x40;
        else if (i === 8) byte = (byte & 0x3f) | 0x80;
        if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d; // '-'
        text[at++] = HEX_DIGITS[byte >> 4]!;
        text[at++] = HEX_DIGITS[byte & 0x0f]!;
      }
    }
    uuids = ascii.decode(text);
    nextUuid = 0;
  }
  const at = 36 * nextUuid++;
  return uuids.slice(at, at + 36);
}

/** Runs `fn` as the request of `state`: what it starts (logs, upstream calls) reads the request's state. */
export function runInRequest<T>(state: RequestState, fn: () => T): T {
  return storage.run(state, fn);
}

/** The access-log line of one answer (see the module comment). */
export interface AccessLine {
  readonly req_id: string | undefined;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly ms: number;
  readonly cache?: string;
  readonly upstream_calls: number;
}

/** Writes the access line of an answer sent in full: at `error` for a 5xx, else at `info`. */
export function logAnswered(logger: Logger, fields: AccessLine): void {
  if (fields.status >= 500)
    logger.error({ ...fields, error: `failed with status code ${fields.status}` }, 'request failed');
  else logger.info(fields, 'request');
}
