/**
 * The probes feature: `GET /healthz` (liveness), `GET /readyz` (database and credential) and, when enabled,
 * `GET /metrics`. The entry every other module of the BFF imports it through.
 */
export { healthRoute, metricsRoute, probeRoutes, readyRoute } from './route.ts';
