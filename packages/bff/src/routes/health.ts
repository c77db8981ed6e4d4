/**
 * `GET /healthz` → 200 `{"status": "ok"}`: liveness only (the process answers); it does not call the marketplace.
 * `GET /readyz` → 200 `{"status": "ready", "database": "pglite" | "postgres" | "none"}` when the marketplace
 * credential is proven (credential-check.ts, cached) and the database answers; else 503 `unavailable` with
 * `error.reason` (`invalid_signature`, `forbidden: scope embed missing`, `unreachable`, …).
 */
import type { RequestHandler } from 'express';
import type { CredentialStatus } from '../credential-check.ts';
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
    if (proven !== undefined && !proven.ok)
      throw new BffHttpError('unavailable', `The marketplace credential does not work: ${proven.reason}.`, {
        extra: { reason: proven.reason },
      });
    if (database.kind !== 'none') await database.check();
    res.json({ status: 'ready', database: database.kind });
  };
}
