/**
 * What every BFF request goes through, on every host: route match, request id and context, CORS (preflights
 * answered here), the method, the cross-site check of writes, the visitor limit, the deadline, the route, the error
 * answer, then the headers of every answer (request id, security, CORS, `no-store`) and one access-log line.
 */
import type { Logger } from 'pino';
import type { BffMetrics } from '../metrics.ts';
import { withinDeadline } from './deadline.ts';
import { errorAnswerer } from './error-answer.ts';
import { type HeaderGetter, type TrustFn, proxyView } from './proxy-trust.ts';
import type { BffRequest, DeadlineAnswer, QueryValues } from './request.ts';
import { type RequestState, logAnswered, requestIdOf, runInRequest } from './request-context.ts';
import { type RouteMatch, type Routes, handlerFor, methodNotAllowed } from './routes.ts';
import { type OriginFacts, applyAnswerHeaders, corsPolicy, crossSiteWriteCheck, headerSink } from './security.ts';
import { type VisitorLimiters, addressKey } from './visitor-limits.ts';

/** What the host tells the BFF about a request, beyond the request itself. */
export interface BffRequestContext {
  /**
   * The visitor's address as the host saw it (socket peer); proxy headers are weighed by the BFF's proxy rules. Either
   * the address, or a function the BFF calls only when it needs it (visitor limits, proxy headers; never for a cached
   * search), so a host whose lookup costs (Bun's `server.requestIP`, Deno's `info.remoteAddr`) pays for it only then.
   * Prefer the function to a getter written in an object literal per request (which still works): V8 keeps the
   * objects of such a request alive through its young-generation collections, which cost a cached search on Deno
   * about 4 µs of CPU, a sixth of it.
   */
  clientAddress?: string | (() => string | undefined) | undefined;
  /** Keeps the isolate/function alive for work that outlives the response (Workers ctx.waitUntil, Vercel waitUntil). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** The visitor's address a host gave ({@link BffRequestContext.clientAddress}, called when a function), `''` when none. */
export function addressOf(context: BffRequestContext | undefined): string {
  const address = context?.clientAddress;
  return (typeof address === 'function' ? address() : address) ?? '';
}

/** What an adapter in this package adds (the Express adapter: its app's `trust proxy`, pino-http's id). */
export interface HostContext extends BffRequestContext {
  /** Which hops are trusted, overriding the option (`null`: none). */
  trust?: TrustFn | null | undefined;
  /** The id an outer logger gave the request (`req.id` of pino-http), used when well-formed. */
  outerId?: unknown;
  /** The host's own request, handed to a `visitorLimits.keyGenerator`. */
  hostRequest?: unknown;
  /** A host's parser read the body before the BFF (the request carries its parsed value again as JSON text). */
  bodyParsedBefore?: boolean | undefined;
  /** Where the BFF is mounted (Express `req.baseUrl`), for the paths named in log lines. */
  mountPath?: string | undefined;
}

/** What the pipeline is made of (handler.ts builds it). */
export interface PipelineOptions {
  readonly routes: Routes;
  /** The BFF's logger (lines carry the request id). */
  readonly logger: Logger;
  /** Where access lines go (the partner's logger as given). */
  readonly accessLogger: Logger;
  readonly metrics?: Pick<BffMetrics, 'visitorAnswered'> | undefined;
  readonly allowedOrigins: readonly string[];
  readonly limits: VisitorLimiters;
  /** A visitor's key for the limits (option `visitorLimits.keyGenerator`); by address when undefined. */
  readonly keyGenerator?: ((req: never) => string) | undefined;
  /** The visitor deadline (ms). */
  readonly deadlineMs: number;
  /** The trusted proxies (option `trustProxy`). */
  readonly trust: TrustFn | undefined;
  /**
   * Runs one request in its database scope (db/handle.ts: on workerd a connection of its own); `work` gets the
   * `waitUntil` routes hand their after-the-answer work to (it keeps that scope open, and the host alive, for it).
   */
  readonly withRequest: <T>(
    context: BffRequestContext,
    work: (waitUntil: (promise: Promise<unknown>) => void) => Promise<T>,
  ) => Promise<T>;
}

/** Parses a query string as the BFF reads it (repeated names keep every value, in order). */
export function parseQuery(search: string): QueryValues {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(search)) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** Runs one matched request through the BFF: the answer, never a throw. */
export type Pipeline = (
  request: Request,
  url: URL,
  path: string,
  match: RouteMatch,
  context: HostContext | undefined,
) => Promise<Response>;

/** Makes the BFF's pipeline. */
export function pipeline(o: PipelineOptions): Pipeline {
  const answerError = errorAnswerer(o.logger);
  const cors = corsPolicy(o.allowedOrigins, (origin, ownOrigin, allowed) =>
    o.logger.warn(
      { origin: origin.slice(0, 200), own_origin: ownOrigin.slice(0, 200), allowed_origins: allowed },
      'refused a cross-origin request: add this origin to allowedOrigins (DOMAINKIT_ALLOWED_ORIGINS) if the widget runs there; if it is this shop behind a reverse proxy, have the proxy send Forwarded or X-Forwarded-Proto and X-Forwarded-Host and trust it (trustProxy, DOMAINKIT_TRUST_PROXY)',
    ),
  );
  const refuseCrossSite = crossSiteWriteCheck(o.allowedOrigins);
  const keyOf = o.keyGenerator as ((req: unknown) => string) | undefined;

  return async function serve(original, url, path, match, context = {}) {
    // The exact bytes are gone: a route that checks them gets a used body (and says so), never re-serialised JSON.
    let request = original;
    if (context.bodyParsedBefore === true && match.spec.rawBody === true) {
      request = new Request(original.url, { method: original.method, headers: original.headers, body: '' });
      await request.arrayBuffer();
    }
    const arrived = Date.now();
    const header: HeaderGetter = (name) => request.headers.get(name) ?? undefined;
    const id = requestIdOf(header('x-request-id'), context.outerId);
    const view = proxyView(
      header,
      url,
      addressOf(context),
      context.trust === undefined ? o.trust : (context.trust ?? undefined),
    );
    let own: string | undefined;
    const ownOrigin = (): string => (own ??= view.ownOrigin());
    const facts: OriginFacts = { origin: header('origin'), fetchSite: header('sec-fetch-site'), ownOrigin };
    const method = request.method.toUpperCase();
    const { spec, params } = match;
    const route = `${method} ${`${context.mountPath ?? ''}${path}`.slice(0, 200)}`;
    const state: RequestState = { requestId: id, upstreamCalls: 0 };
    const controller = new AbortController();
    let waitUntil = (promise: Promise<unknown>): void => void promise.catch(() => {});
    let deadlineAnswer: (() => DeadlineAnswer) | undefined;
    let limitHeaders: ReadonlyArray<readonly [string, string]> = [];
    const req = new RouteRequest(
      {
        request,
        method,
        url,
        path,
        mountPath: context.mountPath ?? '',
        params,
        route: spec.path,
        clientAddress: view.clientAddress,
        id,
        logger: o.logger,
        waitUntil: (promise) => waitUntil(promise),
        deadline: controller.signal,
        header: (name) => header(name.toLowerCase()),
        onDeadline(answer) {
          deadlineAnswer = answer;
        },
      },
      ownOrigin,
    );
    if (request.signal !== undefined && !request.signal.aborted)
      request.signal.addEventListener('abort', () => controller.abort(request.signal.reason), { once: true });

    const run = async (): Promise<Response> => {
      if (method === 'OPTIONS' && header('access-control-request-method') !== undefined) {
        const response = new Response(null, { status: 204 });
        cors.preflight(facts.origin, headerSink(response.headers));
        return response;
      }
      if (match.malformed !== undefined) throw match.malformed;
      const handler = handlerFor(spec, method);
      if (handler === undefined) throw methodNotAllowed(method, spec);
      if (spec.sameSiteWrite) refuseCrossSite(facts);
      const limit = typeof spec.limit === 'object' ? spec.limit[method === 'POST' ? 'POST' : 'GET'] : spec.limit;
      const limiter = limit === undefined ? undefined : o.limits[limit];
      if (limiter !== undefined) {
        try {
          limitHeaders = await limiter(
            keyOf !== undefined ? keyOf(context.hostRequest ?? req) : addressKey(view.clientAddress),
          );
        } catch (error) {
          limitHeaders = Object.entries((error as { headers?: Record<string, string> }).headers ?? {});
          throw error;
        }
      }
      const answered = Promise.resolve().then(() => handler(req));
      if (spec.deadline === false) return answered;
      return withinDeadline(
        answered,
        o.deadlineMs,
        arrived,
        { controller, answer: () => deadlineAnswer?.(), route, waitUntil },
        o.logger,
      );
    };

    return o.withRequest(context, (keep) => {
      waitUntil = keep;
      return runInRequest(state, () => answer(run));
    });

    async function answer(run: () => Promise<Response>): Promise<Response> {
      let response: Response;
      try {
        response = await run();
      } catch (error) {
        response = answerError(error, route);
        if (spec.errorPage !== undefined) {
          const json = response;
          response = await spec.errorPage(json.clone(), req).catch((pageError: unknown) => {
            o.logger.error({ err: pageError, route }, 'error page failed; answered JSON');
            return json;
          });
        }
      }
      response = mutable(response);
      const sink = headerSink(response.headers);
      // A route's own policy stays (an HTML page that posts a form to itself); every other answer gets the BFF's.
      const ownPolicy = response.headers.get('Content-Security-Policy');
      applyAnswerHeaders(sink, id, req.secure);
      if (ownPolicy !== null) sink.setHeader('Content-Security-Policy', ownPolicy);
      cors.apply(facts, sink);
      for (const [name, value] of limitHeaders) sink.setHeader(name, value);
      if (method === 'HEAD' && response.body !== null) response = new Response(null, response);
      o.metrics?.visitorAnswered(response.status, spec.path);
      const fields = {
        req_id: id,
        method,
        route: spec.path,
        status: response.status,
        ms: Date.now() - arrived,
        ...(state.cache !== undefined ? { cache: state.cache } : {}),
        upstream_calls: state.upstreamCalls,
      };
      if (o.accessLogger.isLevelEnabled(response.status >= 500 ? 'error' : 'info')) logAnswered(o.accessLogger, fields);
      return response;
    }
  };
}

/** What a route's request is made of: all of {@link BffRequest} but what {@link RouteRequest} reads on first use. */
type RouteRequestParts = Omit<BffRequest, 'query' | 'ownOrigin' | 'secure'>;

/**
 * A request as routes see it ({@link BffRequest}): its query parsed, and the shop's own origin weighed, on first
 * read. A class, not an object literal with getters: V8 keeps the objects of a literal with getters made per request
 * alive through its young-generation collections, so every request served would cost a full collection's work.
 */
class RouteRequest implements BffRequest {
  readonly request: Request;
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  readonly mountPath: string;
  readonly params: Readonly<Record<string, string>>;
  readonly route: string;
  readonly clientAddress: string;
  readonly id: string;
  readonly logger: Logger;
  readonly waitUntil: (promise: Promise<unknown>) => void;
  readonly deadline: AbortSignal;
  readonly header: (name: string) => string | undefined;
  readonly onDeadline: (answer: () => DeadlineAnswer) => void;
  readonly #ownOrigin: () => string;
  #query: QueryValues | undefined;

  constructor(parts: RouteRequestParts, ownOrigin: () => string) {
    this.request = parts.request;
    this.method = parts.method;
    this.url = parts.url;
    this.path = parts.path;
    this.mountPath = parts.mountPath;
    this.params = parts.params;
    this.route = parts.route;
    this.clientAddress = parts.clientAddress;
    this.id = parts.id;
    this.logger = parts.logger;
    this.waitUntil = parts.waitUntil;
    this.deadline = parts.deadline;
    this.header = parts.header;
    this.onDeadline = parts.onDeadline;
    this.#ownOrigin = ownOrigin;
  }

  get query(): QueryValues {
    this.#query ??= parseQuery(this.url.search);
    return this.#query;
  }

  get ownOrigin(): string {
    return this.#ownOrigin();
  }

  get secure(): boolean {
    return this.#ownOrigin().startsWith('https:');
  }
}

/** The answer with headers that may be set (a fetched or `Response.redirect` answer's are immutable). */
function mutable(response: Response): Response {
  try {
    response.headers.set('X-Request-Id', '');
    return response;
  } catch {
    return new Response(response.body, response);
  }
}
