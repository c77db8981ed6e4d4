/**
 * `GET /healthz` → 200 `{"status": "ok"}`: liveness only (the process answers); it does not call the marketplace.
 * `GET /readyz` → 200 `{"status": "ready", "database": "pglite" | "postgres" | "none"}` when the database answers,
 * else 503 `unavailable`.
 */
import type { RequestHandler } from 'express';
import type { BffRuntime } from '../runtime.ts';

/** The liveness handler. */
export const healthRoute: RequestHandler = function domainkitBffHealthz(_req, res) {
  res.json({ status: 'ok' });
};

/** The readiness handler. */
export function readyRoute(runtime: BffRuntime): RequestHandler {
  return async function domainkitBffReadyz(_req, res) {
    if (runtime.databaseKind !== 'none') await runtime.checkDatabase();
    res.json({ status: 'ready', database: runtime.databaseKind });
  };
}
