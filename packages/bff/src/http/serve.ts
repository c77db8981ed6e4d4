/**
 * One request to the BFF, from a web-standard `Request`: below the base path, the hot path first (a cached search,
 * http/prepared.ts), else the matched route through the pipeline (pipeline.ts); anything else answers 404
 * `not_found` in the BFF's error shape, with the headers of every answer.
 */
import { BffHttpError } from '../errors.ts';
import type { HostContext, Pipeline } from './pipeline.ts';
import type { HotRequest, PreparedBody } from './prepared.ts';
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
    if (body !== undefined) return new Response(body.text, { status: 200, headers });
  }
  const url = new URL(raw);
  const match = parts.routes.match(path);
  if (match === undefined) return answerOutside(undefined, request, path);
  const mountPath = `${context?.mountPath ?? ''}${basePath}`;
  return parts.serve(request, url, path, match, mountPath === '' ? context : { ...context, mountPath });
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
