/**
 * One request to the BFF, from a web-standard `Request`: below the base path, the hot path first (a cached search,
 * http/prepared.ts), else the matched route through the pipeline (pipeline.ts); anything else answers 404
 * `not_found` in the BFF's error shape, with the headers of every answer.
 */
import { BffHttpError } from '../errors.ts';
import { addressOf, type HostContext, type Pipeline } from './pipeline.ts';
import type { HotRequest, PreparedBody } from './prepared.ts';
import { detectRuntime } from '../platform.ts';
import { isSecure, type TrustFn } from './proxy-trust.ts';
import { requestIdOf } from './request-context.ts';
import { errorResponse } from './respond.ts';
import type { Routes } from './routes.ts';
import { applyAnswerHeaders, type HeaderSink, headerSink } from './security.ts';

/** What serving needs of an assembled BFF (compose.ts). */
export interface ServingParts {
  readonly routes: Routes;
  readonly serve: Pipeline;
  readonly hot: (request: HotRequest, sink: HeaderSink) => PreparedBody | undefined;
  /** The trusted proxies (option `trustProxy`). */
  readonly trust: TrustFn | undefined;
}

/** The path below `basePath` (at least `/`), or undefined when the path is outside it. */
export function below(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname;
  if (pathname === basePath) return '/';
  if (pathname[basePath.length] !== '/') return undefined;
  // As written (no lower-casing), else in another case.
  if (!pathname.startsWith(basePath) && pathname.slice(0, basePath.length).toLowerCase() !== basePath.toLowerCase())
    return undefined;
  return pathname.slice(basePath.length);
}

/**
 * The pathname and the query (without `?`) of a request's URL, read from its serialisation (a `Request`'s `url` is
 * always one, so this is what `new URL(url)` would give, without building it on the hot path).
 */
export function pathAndQuery(url: string): [pathname: string, search: string] {
  const hash = url.indexOf('#');
  const whole = hash === -1 ? url : url.slice(0, hash);
  const authority = whole.indexOf('//');
  const start = whole.indexOf('/', authority === -1 ? 0 : authority + 2);
  if (start === -1) return ['/', ''];
  const query = whole.indexOf('?', start);
  return query === -1 ? [whole.slice(start), ''] : [whole.slice(start, query), whole.slice(query + 1)];
}

/**
 * Serves a request (see the module comment). A cached search is answered at once (no promise: the hosts' own
 * handlers take either), every other request through a promise.
 */
export function servePath(
  parts: ServingParts,
  basePath: string,
  request: Request,
  context: HostContext | undefined,
): Response | Promise<Response> {
  const raw = request.url;
  const [pathname, search] = pathAndQuery(raw);
  const path = below(pathname, basePath);
  if (path === undefined) return answerOutside(undefined, request);
  if (request.method === 'GET') {
    const sink = new PairSink();
    const body = parts.hot(new WebHotRequest(request, raw, path, search, context, parts.trust), sink);
    if (body !== undefined) return hotResponse(body, sink.pairs);
  }
  const url = new URL(raw);
  const match = parts.routes.match(path);
  if (match === undefined) return answerOutside(undefined, request, path);
  const mountPath = `${context?.mountPath ?? ''}${basePath}`;
  return parts.serve(request, url, path, match, mountPath === '' ? context : { ...context, mountPath });
}

/**
 * The hot path's view of a web-standard `Request`: methods on a prototype (no closures made per request), headers
 * read only when the hot path asks for them.
 */
class WebHotRequest implements HotRequest {
  readonly method = 'GET';
  readonly path: string;
  readonly search: string;
  readonly outerId: unknown;
  readonly #request: Request;
  readonly #raw: string;
  readonly #context: HostContext | undefined;
  readonly #trust: TrustFn | undefined;

  constructor(
    request: Request,
    raw: string,
    path: string,
    search: string,
    context: HostContext | undefined,
    trust: TrustFn | undefined,
  ) {
    this.path = path;
    this.search = search;
    this.#request = request;
    this.#raw = raw;
    this.#context = context;
    this.#trust = context?.trust === undefined ? trust : (context.trust ?? undefined);
    this.outerId = context?.outerId;
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined;
  }

  secure(): boolean {
    const raw = this.#raw;
    const context = this.#context;
    // The peer address is asked for only when a proxy header has to be weighed (a host may compute it lazily).
    return isSecure(
      (name) => this.header(name),
      raw.startsWith('https:'),
      () => new URL(raw),
      () => addressOf(context),
      this.#trust,
    );
  }
}

/** The hot path's headers as set, in order: `[name, value, name, value, …]` (names as given). */
class PairSink implements HeaderSink {
  readonly pairs: string[] = [];

  setHeader(name: string, value: string): void {
    this.pairs.push(name, value);
  }
}

/** A prepared answer's `Response` with one set of headers, all but `x-request-id` (see {@link hotResponse}). */
interface Template {
  /** The headers as the hot path set them (see {@link PairSink}). */
  readonly pairs: readonly string[];
  /** The index in `pairs` of the value of `x-request-id`. */
  readonly id: number;
  readonly response: Response;
}

/** Header sets kept per prepared answer (one per HTTPS × allowed origin seen): enough for any shop, yet bounded. */
const TEMPLATES_PER_BODY = 8;
const templates = new WeakMap<PreparedBody, Template[]>();
let cloneIsCheap: boolean | undefined;

/** Headers set as `[name, value, …]` (lower-case names, `HeaderSink`) as a record (a later value of a name wins). */
function headerRecord(pairs: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < pairs.length; i += 2) headers[pairs[i]!] = pairs[i + 1]!;
  return headers;
}

/**
 * The `Response` of a prepared answer with its headers (`pairs`, see {@link PairSink}). On Deno and Bun a clone of a
 * `Response` with a static body copies its header list as checked, where a new one converts and checks every header
 * again: there the answer is a clone of one built once per prepared answer and header set, with only its
 * `x-request-id` set (callgrind, per `Response`: Deno 96k → 32k instructions, Bun 12.6k → 2.9k); the header set is
 * matched as set, in order, with no record built. Elsewhere it is built: the `Response` of @hono/node-server keeps
 * the record as given, undici's clone (Node) tees the body, and workerd keeps the plain way until measured.
 */
function hotResponse(body: PreparedBody, pairs: readonly string[]): Response {
  if (cloneIsCheap === undefined) {
    const runtime = detectRuntime().name;
    cloneIsCheap = runtime === 'deno' || runtime === 'bun';
  }
  if (!cloneIsCheap) return new Response(body.text, { status: 200, headers: headerRecord(pairs) });
  let kept = templates.get(body);
  if (kept === undefined) {
    kept = [];
    templates.set(body, kept);
  }
  let template: Template | undefined;
  for (const t of kept)
    if (samePairsBut(t, pairs)) {
      template = t;
      break;
    }
  if (template === undefined) {
    const headers = headerRecord(pairs);
    const { 'x-request-id': id, ...rest } = headers;
    // The last value set for the request id is the one the answer carries (as in the record).
    let at = -1;
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === 'x-request-id') at = i + 1;
    if (id === undefined || kept.length >= TEMPLATES_PER_BODY) return new Response(body.text, { status: 200, headers });
    template = { pairs: [...pairs], id: at, response: new Response(body.text, { status: 200, headers: rest }) };
    kept.push(template);
  }
  const response = template.response.clone();
  response.headers.set('x-request-id', pairs[template.id]!);
  return response;
}

/** Whether `pairs` are the template's, in the same order, but for the value of `x-request-id`. */
function samePairsBut(template: Template, pairs: readonly string[]): boolean {
  const kept = template.pairs;
  if (kept.length !== pairs.length) return false;
  for (let i = 0; i < pairs.length; i++) if (i !== template.id && kept[i] !== pairs[i]) return false;
  return true;
}

/**
 * The answer to a request no route serves (404 `not_found`), or to one that failed before any route ran (`error`:
 * a `BffHttpError` as it is, anything else 500 `internal_error`), with the headers of every answer.
 */
export function answerOutside(error: unknown, request: Request, path?: string): Response {
  let url: URL | undefined;
  try {
    url = new URL(request.url);
  } catch {
    url = undefined;
  }
  const answer =
    error instanceof BffHttpError
      ? error
      : error !== undefined
        ? new BffHttpError('internal_error', 'Something went wrong on our side; try again.')
        : new BffHttpError(
            'not_found',
            `No such endpoint: ${request.method} ${(path ?? url?.pathname ?? '').slice(0, 200)}.`,
          );
  const response = errorResponse(answer);
  applyAnswerHeaders(
    headerSink(response.headers),
    requestIdOf(request.headers.get('x-request-id')),
    url?.protocol === 'https:',
  );
  return response;
}
