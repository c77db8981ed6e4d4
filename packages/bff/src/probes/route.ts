/**
 * `GET /healthz` → 200 `{"status": "ok"}`: liveness only (the process answers); it does not call the marketplace.
 * `GET /readyz` → 200 `{"status": "ready", "database": "pglite" | "postgres" | "none"}` when the marketplace
 * credential is proven (credential-check.ts, cached) and the database answers; 200 `{"status": "degraded",
 * "database", "reason": "unreachable" | "marketplace_error"}` when the marketplace is down or out of reach after the
 * credential was proven once (the BFF still serves its cached searches and order views: keep it in the load
 * balancer, alert on the state); else 503 `unavailable` with `error.reason` (`invalid_signature`,
 * `forbidden: scope embed missing`, `unreachable` before any success, …).
 */
import type { CredentialStatus } from '../upstream/credential-check.ts';
import { BffHttpError } from '../errors.ts';
import type { RouteHandler } from '../http/request.ts';
import { json } from '../http/respond.ts';
import type { RouteSpec } from '../http/routes.ts';
import { type BffMetrics, sameSecret } from '../metrics.ts';
import type { ResolvedBffOptions } from '../resolved-options.ts';
import type { BffRuntime } from '../runtime.ts';

/** The liveness handler. */
export const healthRoute: RouteHandler = function domainkitBffHealthz() {
  return json({ status: 'ok' });
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
): RouteHandler {
  return async function domainkitBffReadyz() {
    const proven = await credential?.status();
    if (proven !== undefined && !proven.ok && !proven.degraded)
      throw new BffHttpError('unavailable', `The marketplace credential does not work: ${proven.reason}.`, {
        extra: { reason: proven.reason },
      });
    if (database.kind !== 'none') await database.check();
    if (proven !== undefined && !proven.ok)
      return json({ status: 'degraded', database: database.kind, reason: proven.reason });
    return json({ status: 'ready', database: database.kind });
  };
}

/**
 * `GET /metrics`: the registry in the Prometheus text format (metrics.ts); with `token`, only for
 * `Authorization: Bearer <token>` (else 401 with `WWW-Authenticate`).
 */
export function metricsRoute(metrics: BffMetrics, token: string | undefined): RouteHandler {
  return async function domainkitBffMetrics(req) {
    if (token !== undefined && !sameSecret(req.header('authorization') ?? '', `Bearer ${token}`))
      return json({ error: { code: 'unauthorized', message: 'GET /metrics needs its bearer token.' } }, 401, {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    await metrics.load();
    return new Response(await metrics.registry.metrics(), {
      headers: { 'Content-Type': metrics.registry.contentType },
    });
  };
}

/** The probes of one BFF: liveness, readiness and (option `metrics`) the metrics; no visitor limit, no deadline. */
export function probeRoutes(o: ResolvedBffOptions, runtime: BffRuntime): RouteSpec[] {
  const credential = o.readiness.checkCredential ? runtime.credential : undefined;
  return [
    { path: '/healthz', GET: healthRoute, deadline: false },
    { path: '/readyz', GET: readyRoute(runtime.database, credential), deadline: false },
    ...(o.metrics.served
      ? [{ path: '/metrics', GET: metricsRoute(runtime.metrics, o.metrics.token), deadline: false }]
      : []),
  ];
}
