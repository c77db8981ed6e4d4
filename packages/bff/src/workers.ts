/**
 * `@domainkit/bff/workers`: the BFF as a Cloudflare module Worker (`export default { fetch, scheduled }`), on
 * workerd with the `nodejs_compat` compatibility flag. Storage is PostgreSQL (a Worker has no file system for
 * PGlite); background work runs in `scheduled()`, which a Cron Trigger calls, and under `ctx.waitUntil`:
 *
 * ```ts
 * import { createBffHandler } from '@domainkit/bff/handler';
 * import { createWorker } from '@domainkit/bff/workers';
 *
 * export default createWorker((env: Env) =>
 *   createBffHandler({ basePath: '/dk', background: 'scheduled', marketplace: { … env.DOMAINKIT_API_SECRET … }, … }),
 * );
 * ```
 *
 * The handler is created once per isolate, lazily, on its first event (bindings are only known then), and reused by
 * every later request and cron event of that isolate. The visitor's address is the `CF-Connecting-IP` header
 * Cloudflare sets on every request it forwards.
 */

/** The context a host passes with a request (the handler's `BffRequestContext`). */
export interface WorkerRequestContext {
  readonly clientAddress?: string | undefined;
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** What the adapter needs of a BFF handler (`createBffHandler`'s result has it). */
export interface WorkerHandler {
  /** Answers one request (a `Response`, or a promise of one); never throws. */
  fetch(request: Request, context?: WorkerRequestContext): Response | Promise<Response>;
  /** One round of background work (order recovery, events catch-up, due inbox events). */
  scheduled(context?: WorkerRequestContext): Promise<unknown>;
}

/** The part of a Worker's `ExecutionContext` the adapter uses. */
export interface WorkerExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A module Worker: what `export default` of a Worker's entry must be. */
export interface BffWorker<Env> {
  /** Answers one request: a `Response`, or a promise of one (workerd takes either). */
  fetch(request: Request, env: Env, ctx: WorkerExecutionContext): Response | Promise<Response>;
  /** The Cron Trigger's entry: runs one round of the BFF's background work under `ctx.waitUntil`. */
  scheduled(controller: unknown, env: Env, ctx: WorkerExecutionContext): Promise<void>;
}

/**
 * A module Worker serving the BFF.
 * @param create - makes the handler from the Worker's bindings (`env`); called once per isolate, on its first event.
 *   Create it with `background: 'scheduled'`: a Worker has no process in which timers outlive a request.
 * @returns `{ fetch, scheduled }`, for `export default`.
 */
export function createWorker<Env>(create: (env: Env) => WorkerHandler): BffWorker<Env> {
  let handler: WorkerHandler | undefined;
  const handlerFor = (env: Env): WorkerHandler => {
    handler ??= create(env);
    return handler;
  };
  return {
    fetch(request, env, ctx) {
      return handlerFor(env).fetch(request, {
        clientAddress: request.headers.get('cf-connecting-ip') ?? undefined,
        waitUntil: (promise) => ctx.waitUntil(promise),
      });
    },
    async scheduled(_controller, env, ctx) {
      const round = handlerFor(env).scheduled({ waitUntil: (promise) => ctx.waitUntil(promise) });
      ctx.waitUntil(round);
      await round;
    },
  };
}
