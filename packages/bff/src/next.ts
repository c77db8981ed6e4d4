/**
 * `@domainkit/bff/next`: the BFF as a Next.js App Router route handler. In `app/dk/[...path]/route.ts`:
 *
 * ```ts
 * import { createBffHandler } from '@domainkit/bff/handler';
 * import { toNextRouteHandlers } from '@domainkit/bff/next';
 *
 * export const runtime = 'nodejs'; // PGlite and timers need Node; on the edge runtime use PostgreSQL only
 * export const dynamic = 'force-dynamic';
 * export const { GET, POST, OPTIONS, HEAD } = toNextRouteHandlers(() =>
 *   createBffHandler({ basePath: '/dk', ...options }),
 * );
 * ```
 *
 * Give a factory, not a handler: `next build` imports every route module, and a factory runs only on the first
 * request, so the build neither validates the BFF's options (its secrets are often absent at build time) nor opens
 * a database or starts background work. The handler is created once per server process and shared by the methods.
 * The BFF's `basePath` must be the route's folder (`/dk` above): Next.js passes the full URL.
 *
 * This module imports nothing from Next.js: the methods take the `Request` Next.js hands a route handler (a
 * `NextRequest` is one) and answer a `Response`.
 */

/** The context a host passes with a request (the handler's `BffRequestContext`). */
export interface RouteRequestContext {
  /** The visitor's address as the host saw it; undefined on Next.js (the address arrives in `X-Forwarded-For`). */
  readonly clientAddress?: string | undefined;
  /** Keeps the function alive for work that outlives the answer (Vercel's `waitUntil`, Next.js `after`). */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** What the adapter needs of a BFF handler (`createBffHandler`'s result has it). */
export interface FetchHandler {
  /** Answers one request (a `Response`, or a promise of one); never throws (errors are JSON answers). */
  fetch(request: Request, context?: RouteRequestContext): Response | Promise<Response>;
}

/** Options of {@link toNextRouteHandlers}. */
export interface NextRouteHandlersOptions {
  /**
   * Keeps the function alive for the BFF's work after an answer (a stored webhook's events on a serverless host):
   * pass `waitUntil` from `@vercel/functions`, or `after` from `next/server`. Default: none (a long-lived
   * `next start` process needs none; the BFF's timers run there).
   */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** A route handler method of the App Router. */
export type NextRouteHandler = (request: Request) => Promise<Response>;

/** The methods a catch-all route exports. */
export interface NextRouteHandlers {
  readonly GET: NextRouteHandler;
  readonly POST: NextRouteHandler;
  readonly OPTIONS: NextRouteHandler;
  readonly HEAD: NextRouteHandler;
}

/**
 * The App Router methods of a BFF.
 * @param handler - the BFF handler, or (preferred) a function creating it, called once, on the first request.
 * @returns `{ GET, POST, OPTIONS, HEAD }`, each answering through the one handler. A factory that throws (invalid
 *   options) fails that request with Next.js's own 500 and is tried again on the next one.
 */
export function toNextRouteHandlers(
  handler: FetchHandler | (() => FetchHandler),
  options: NextRouteHandlersOptions = {},
): NextRouteHandlers {
  let created: FetchHandler | undefined = typeof handler === 'function' ? undefined : handler;
  const context: RouteRequestContext = { waitUntil: options.waitUntil };
  const answer: NextRouteHandler = async (request) => {
    created ??= (handler as () => FetchHandler)();
    return created.fetch(request, context);
  };
  return { GET: answer, POST: answer, OPTIONS: answer, HEAD: answer };
}
