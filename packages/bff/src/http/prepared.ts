/**
 * The hot path: an answer decided from the method, path, query and a header getter alone, before any `Request` is
 * built (the cached search). The same code decides it for every host: `fetch` wraps it in a `Response`, the Node
 * adapter writes it straight to the socket. It carries the headers of every BFF answer (request id, security,
 * CORS, `no-store`) and writes the access line.
 */
import type { Logger } from 'pino';
import { logAnswered, requestIdOf } from './request-context.ts';
import { type HeaderSink, applyAnswerHeaders, corsPolicy } from './security.ts';

/** A route's answer prepared from its query alone: a 200 JSON body and its own headers. */
export interface PreparedBody {
  /** The serialised JSON body. */
  readonly text: string;
  /** Its length in UTF-8 bytes. */
  readonly length: number;
  /** The route's own headers (`cache-status`), names in lower case. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The access line's `cache` field. */
  readonly cache: string;
}

/** A route's hot path: its prepared answer for a query string (without `?`), or undefined for the full route. */
export type HotRoute = (search: string) => PreparedBody | undefined;

/** What a host gives the hot path of one request. */
export interface HotRequest {
  readonly method: string;
  /** The path below the base path. */
  readonly path: string;
  /** The query string without `?` (`''` when none). */
  readonly search: string;
  /** A request header (lower-case name). */
  readonly header: (name: string) => string | undefined;
  /** Whether the request came over HTTPS (through the trusted proxies). */
  readonly secure: () => boolean;
  /** An outer logger's id of the request (pino-http's `req.id`). */
  readonly outerId?: unknown;
}

/**
 * Makes the hot path of the BFF's `hot` routes (by exact path).
 * @returns `(request, sink)`: sets the answer's headers on `sink` and returns its body, or returns undefined (then
 *   nothing was set: the request takes the full way).
 */
export function hotPath(
  hot: ReadonlyMap<string, HotRoute>,
  allowedOrigins: readonly string[],
  accessLogger: Logger,
): (request: HotRequest, sink: HeaderSink) => PreparedBody | undefined {
  // A refused origin takes the full way (where it is logged): here only absent or allowed ones.
  const cors = corsPolicy(allowedOrigins, undefined);
  return (request, sink) => {
    if (request.method !== 'GET') return undefined;
    const route = hot.get(request.path);
    if (route === undefined) return undefined;
    const origin = request.header('origin');
    if (!cors.accepts(origin)) return undefined;
    const logging = accessLogger.isLevelEnabled('info');
    const started = logging ? Date.now() : 0;
    const body = route(request.search);
    if (body === undefined) return undefined;
    const id = requestIdOf(request.header('x-request-id'), request.outerId);
    applyAnswerHeaders(sink, id, request.secure());
    cors.apply({ origin, fetchSite: undefined, ownOrigin: () => '' }, sink);
    for (const [name, value] of body.headers) sink.setHeader(name, value);
    sink.setHeader('content-type', 'application/json; charset=utf-8');
    if (logging)
      logAnswered(accessLogger, {
        req_id: id,
        method: 'GET',
        route: request.path,
        status: 200,
        ms: Date.now() - started,
        cache: body.cache,
        upstream_calls: 0,
      });
    return body;
  };
}
