/**
 * `GET /healthz` → 200 `{"status": "ok"}`: liveness only (the process answers); it does not call the marketplace.
 * `GET /readyz` → 200 `{"status": "ready", "database": "pglite" | "postgres" | "none"}` when the marketplace
 * credential is proven (credential-check.ts, cached) and the database answers; 200 `{"status": "degraded",
 * "database", "reason": "unreachable" | "marketplace_error"}` when the marketplace is down or out of reach after the
 * credential was proven once (the BFF still serves its cached searches and order views: keep it in the load
 * balancer, alert on the state); else 503 `unavailable` with `error.reason` (`invalid_signature`,
 * `forbidden: scope embed missing`, `unreachable` before any success, …).
 */
import type { RequestHandler } from 'express';
import type { CredentialStatus } from '../upstream/credential-check.ts';
import { BffHttpError } from '../errors.ts';

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
export function readyRoute(
  database: ReadyRouteDeps,
  credential?: { status(): Promise<CredentialStatus> } | undefined,
): RequestHandler {
  return async function domainkitBffReadyz(_req, res) {
    const proven = await credential?.status();
    if (proven !== undefined && !proven.ok && !proven.degraded)
      throw new BffHttpError('unavailable', `The marketplace credential does not work: ${proven.reason}.`, {
        extra: { reason: proven.reason },
      });
    if (database.kind !== 'none') await database.check();
    if (proven !== undefined && !proven.ok)
      res.json({ status: 'degraded', database: database.kind, reason: proven.reason });
    else res.json({ status: 'ready', database: database.kind });
  };
}
