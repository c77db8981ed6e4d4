/**
 * `createBffHandler(options)`: the BFF as one web-standard handler `(request: Request) => Response |
 * Promise<Response>` (as `Bun.serve`, `Deno.serve` and Workers take one), the same on every runtime; each host is a
 * thin adapter over it (`createBff` for Express, `toNodeListener` for Node `http`, and the Next.js, Hono, Bun, Deno
 * and Workers recipes in the README). Nothing opens at import or creation: storage opens, and timers start, on
 * `start()` or the first `fetch`/`scheduled` (so `next build` opens nothing).
 */
import { BffHttpError } from './errors.ts';
import { type ComposedBff, composeBff } from './compose.ts';
import type { EventHandler, EventHandlerType } from './webhooks/index.ts';
import type { BffHandler, BffHandlerOptions } from './handler-types.ts';
import type { HostContext } from './http/pipeline.ts';
import { checkedEventHandler, resolveHandlerOptions } from './handler-options.ts';
import { handlerParts } from './handler-parts.ts';
import { contextualLogger } from './http/request-context.ts';
import { answerOutside, servePath } from './http/serve.ts';
import { bffLogger } from './logger.ts';
import { BffMetrics } from './metrics.ts';

export type { BffHandler, BffHandlerOptions, BackgroundReport, BffRequestContext } from './handler-types.ts';
export { testCardPayments, type PaymentAdapter } from './purchase/index.ts';

/**
 * Creates the BFF handler. See `createBff` for the routes; they are served below `basePath`.
 * @param where - the function named in option errors (`createBff` for the Express adapter, which takes none of the
 *   handler's own options).
 * @param metrics - where metrics are recorded (the Express adapter's records from the start).
 * @throws {BffOptionsError} at creation, listing every bad option with the fix.
 */
export function createBffHandler(
  options: BffHandlerOptions,
  where = 'createBffHandler',
  metrics: BffMetrics = new BffMetrics(),
): BffHandler {
  const { o, basePath, trustProxy } = resolveHandlerOptions(options, where);
  const accessLogger = bffLogger(o.logger, o.headerPrefix);
  // Every line written while a request is served carries its req_id (http/request-context.ts).
  const logger = contextualLogger(accessLogger);
  const pending: Array<[EventHandlerType, EventHandler]> = [];
  let composed: ComposedBff | undefined;
  let closed = false;
  const core = (): ComposedBff => {
    if (composed === undefined) {
      if (closed) throw new BffHttpError('unavailable', 'The shop is shutting down; try again shortly.');
      // prom-client loads only where metrics are served (metrics.ts); the Express adapter passes it in.
      if (o.metrics.served) void metrics.load();
      composed = composeBff(o, logger, accessLogger, metrics, trustProxy);
      for (const [type, h] of pending.splice(0)) composed.runtime.on(type, h);
    }
    return composed;
  };
  const runtime = () => core().runtime;
  const handler: BffHandler = {
    fetch(request, context?: HostContext) {
      let answer: Response | Promise<Response>;
      try {
        answer = servePath(core(), basePath, request, context);
      } catch (error) {
        return answerOutside(error, request);
      }
      // A cached search is a `Response` already: no promise (nor its microtask) for it.
      return answer instanceof Promise ? answer.catch((error: unknown) => answerOutside(error, request)) : answer;
    },
    scheduled: (context) => runtime().scheduled(context),
    get ready() {
      return runtime().start();
    },
    databaseKind: o.database.kind,
    credentialChecked: o.readiness.checkCredential,
    metrics,
    start: () => runtime().start(),
    async close(graceMs) {
      closed = true;
      await composed?.runtime.close(graceMs);
    },
    on(type, h) {
      const checked = checkedEventHandler(type, h);
      if (composed === undefined) pending.push([type, checked]);
      else composed.runtime.on(type, checked);
      return handler;
    },
    recover: () => runtime().recover(),
    catchUp: () => runtime().catchUp(),
    async processInbox() {
      await runtime().inbox.kick();
      await runtime().jobs.idle();
    },
    idle: async () => composed?.runtime.jobs.idle(),
    checkCredential: (probe) => runtime().credential.refresh(probe),
    searchStats: () => core().search.stats,
    syncSearch: () => core().search.sync(),
  };
  handlerParts.set(handler, { core, basePath, logger });
  return handler;
}
