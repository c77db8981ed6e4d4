/**
 * One request to the BFF, from a web-standard `Request`: below the base path, the hot path first (a cached search,
 * http/prepared.ts), else the matched route through the pipeline (pipeline.ts); anything else answers 404
 * `not_found` in the BFF's error shape, with the headers of every answer.
 */
import { BffHttpError } from '../errors.ts';
import type { HostContext, Pipeline } from './pipeline.ts';
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
  const base = pathname.slice(0, basePath.length);
  if (base.toLowerCase() !== basePath.toLowerCase() || pathname[basePath.length] !== '/') return undefined;
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
    const header = (name: string) => request.headers.get(name) ?? undefined;
    // A plain record: what every host's `Response` takes fastest (@hono/node-server writes it without a `Headers`).
    const headers: Record<string, string> = {};
    const trust = context?.trust === undefined ? parts.trust : (context.trust ?? undefined);
    const body = parts.hot(
      {
        method: 'GET',
        path,
        search,
        header,
        secure: () =>
          isSecure(header, raw.startsWith('https:'), () => new URL(raw), context?.clientAddress ?? '', trust),
        outerId: context?.outerId,
      },
      {
        setHeader: (name, value) => {
          headers[name.toLowerCase()] = value;
        },
      },
    );
    if (body !== undefined) return hotResponse(body, headers);
  }
  const url = new URL(raw);
  const match = parts.routes.match(path);
  if (match === undefined) return answerOutside(undefined, request, path);
  const mountPath = `${context?.mountPath ?? ''}${basePath}`;
  return parts.serve(request, url, path, match, mountPath === '' ? context : { ...context, mountPath });
}

/** A prepared answer's `Response` with one set of headers, all but `x-request-id` (see {@link hotResponse}). */
interface Template {
  readonly headers: Readonly<Record<string, string>>;
  readonly count: number;
  readonly response: Response;
}

/** Header sets kept per prepared answer (one per HTTPS × allowed origin seen): enough for any shop, yet bounded. */
const TEMPLATES_PER_BODY = 8;
const templates = new WeakMap<PreparedBody, Template[]>();
let cloneIsCheap: boolean | undefined;

/**
 * The `Response` of a prepared answer with its headers (lower-case names). On Deno and Bun a clone of a `Response`
 * with a static body copies its header list as checked, where a new one converts and checks every header again:
 * there the answer is a clone of one built once per prepared answer and header set, with only its `x-request-id`
 * set (callgrind, per `Response`: Deno 96k → 32k instructions, Bun 12.6k → 2.9k). Elsewhere it is built: the
 * `Response` of @hono/node-server keeps the record as given, undici's clone (Node) tees the body, and workerd keeps
 * the plain way until measured.
 */
function hotResponse(body: PreparedBody, headers: Record<string, string>): Response {
  if (cloneIsCheap === undefined) {
    const runtime = detectRuntime().name;
    cloneIsCheap = runtime === 'deno' || runtime === 'bun';
  }
  if (!cloneIsCheap) return new Response(body.text, { status: 200, headers });
  const id = headers['x-request-id'] as string;
  let kept = templates.get(body);
  if (kept === undefined) {
    kept = [];
    templates.set(body, kept);
  }
  let template = kept.find((t) => sameHeadersBut('x-request-id', t, headers));
  if (template === undefined) {
    const { 'x-request-id': _, ...rest } = headers;
    template = {
      headers: rest,
      count: Object.keys(rest).length,
      response: new Response(body.text, { status: 200, headers: rest }),
    };
    if (kept.length < TEMPLATES_PER_BODY) kept.push(template);
    else return new Response(body.text, { status: 200, headers });
  }
  const response = template.response.clone();
  response.headers.set('x-request-id', id);
  return response;
}

/** Whether `headers` are the template's, but for `except`. */
function sameHeadersBut(except: string, template: Template, headers: Record<string, string>): boolean {
  let count = 0;
  for (const name in headers) {
    if (name === except) continue;
    if (template.headers[name] !== headers[name]) return false;
    count++;
  }
  return count === template.count;
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
