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
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isWellFormedRequestId, REQUEST_ID_HEADER } from '@domainkit/protocol';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { BffMetrics } from './metrics.ts';

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

/** The BFF route that answered (`/search`, `/orders/:id`, relative to the mount path), if one matched. */
function matchedRoute(req: Request): string | undefined {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? route : undefined;
}

/**
 * Names the request and answers its id in `X-Request-Id`: the `req.id` an outer pino-http of the partner's app
 * gave it, else a well-formed `X-Request-Id` it was sent with, else a new UUID (then kept as `req.id`).
 * @returns the id.
 */
export function answerRequestId(req: IncomingMessage, res: ServerResponse): string {
  const outer = (req as { id?: unknown }).id;
  let id: string;
  if (outer !== undefined && outer !== null && isWellFormedRequestId(String(outer))) id = String(outer);
  else {
    const sent = req.headers['x-request-id'];
    id = isWellFormedRequestId(sent) ? sent : randomUUID();
    (req as { id?: unknown }).id = id;
  }
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
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

/**
 * The first middleware of the BFF's routes: assigns the request id, answers it in `X-Request-Id`, runs the rest of
 * the request inside its {@link RequestState}, and logs one line when the answer is finished.
 */
export function requestContext(logger: Logger, metrics?: Pick<BffMetrics, 'visitorAnswered'>): RequestHandler {
  const states = new WeakMap<IncomingMessage, RequestState>();
  function line(req: Request, res: ServerResponse, ms: number): AccessLine {
    const state = states.get(req);
    const matched = matchedRoute(req);
    const route = matched ?? (req.originalUrl ?? req.url).split('?', 1)[0]!.slice(0, 200);
    return {
      req_id: state?.requestId,
      method: req.method,
      route,
      status: res.statusCode,
      ms,
      ...(state?.cache !== undefined ? { cache: state.cache } : {}),
      upstream_calls: state?.upstreamCalls ?? 0,
    };
  }
  // One line per request when its answer is finished (or the connection closed first), written directly: no child
  // logger, no serialised request per request (the cached search path is measured against a bare Express route).
  return function domainkitBffRequestContext(req, res, next) {
    const id = answerRequestId(req, res);
    const started = Date.now();
    const state: RequestState = { requestId: id, upstreamCalls: 0 };
    states.set(req, state);
    // `close` follows the end of every answer, sent in full or cut short (one listener per request).
    res.once('close', () => {
      // Metrics labels stay few: an unmatched path is "unmatched" there, but the log names it (without the query).
      metrics?.visitorAnswered(res.statusCode, matchedRoute(req) ?? 'unmatched');
      const failed = res.statusCode >= 500 || !res.writableFinished;
      if (!logger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const fields = line(req, res, Date.now() - started);
      if (res.statusCode < 500 && !res.writableFinished)
        logger.info({ ...fields, error: 'connection closed before the answer was sent' }, 'request');
      else logAnswered(logger, fields);
    });
    storage.run(state, next);
  };
}
