/**
 * `GET /healthz` → 200 `{"status": "ok"}`: liveness only (the process answers); it does not call the marketplace.
 * `GET /readyz` → 200 `{"status": "ready", "database": "pglite" | "postgres" | "none"}` when the database answers,
 * else 503 `unavailable`.
 */
import type { RequestHandler } from 'express';

/** The liveness handler. */
export const healthRoute: RequestHandler = function domainkitBffHealthz(_req, res) {
  res.json({ status: 'ok' });
};

/** What the readiness route uses. */
export interface ReadyRouteDeps {
  /** `pglite`, `postgres`, or `none`. */
  readonly kind: 'pglite' | 'postgres' | 'none';
  /** Checks the database answers. @throws {BffHttpError} 503 `unavailable` when it does not. */
  check(): Promise<void>;
}

/** The readiness handler. */
export function readyRoute(database: ReadyRouteDeps): RequestHandler {
  return async function domainkitBffReadyz(_req, res) {
    if (database.kind !== 'none') await database.check();
    res.json({ status: 'ready', database: database.kind });
  };
}
