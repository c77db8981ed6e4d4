/**
 * `createBff(options)`: the partner's backend-for-frontend as an Express `Router`, mountable at any path of an
 * existing app (docs/architecture.md "The widget ↔ BFF API"). It holds the Partner API secret and exposes only a narrow,
 * purpose-built API to the widget; it is never a generic signing proxy. The router is a thin adapter over the
 * web-standard handler (handler.ts): it serves the handler's paths and passes every other one to the app.
 */
import express, { type Application, type Router } from 'express';
import type { CatchUpReport } from './webhooks/index.ts';
import type { EventHandler, EventHandlerType } from './webhooks/index.ts';
import type { CredentialStatus, ProbeOptions } from './upstream/credential-check.ts';
import { createBffHandler } from './handler.ts';
import { handlerParts } from './handler-parts.ts';
import { NEAREST_HOP, TRUST_PROXY_HELP, type TrustFn } from './http/proxy-trust.ts';
import * as promClient from 'prom-client';
import { BffMetrics } from './metrics.ts';
import { serveNode } from './node.ts';
import type { BffOptions } from './options.ts';
import type { RecoveryReport } from './purchase/index.ts';
import type { BackgroundReport } from './scheduled-round.ts';
import type { SearchStats } from './search/index.ts';
import { BFF_VERSION } from './version.ts';
export { BFF_VERSION };

/** Every path the router may answer (relative to where it is mounted); which are on depends on the options. */
export const BFF_PATHS = [
  '/healthz',
  '/readyz',
  '/search',
  '/siblings',
  '/whois',
  '/domains',
  '/checkout',
  '/quotes',
  '/orders',
  '/webhooks',
  '/metrics',
] as const;

/** The router `createBff` returns: an Express `Router` plus the BFF's lifecycle and event handlers. */
export interface BffRouter extends Router {
  /** Resolves when the database is open and migrated (at once when no database is used). */
  readonly ready: Promise<void>;
  /** `pglite`, `postgres`, or `none` when no enabled feature needs a database. */
  readonly databaseKind: 'pglite' | 'postgres' | 'none';
  /**
   * Adds an event handler for a type (`order.settled`, …; the handler receives exactly that event) or `*`; returns
   * the router.
   * @throws {TypeError} for an unknown event type (with the likely intended one) or a handler that is no function.
   */
  on<T extends EventHandlerType>(type: T, handler: EventHandler<T>): BffRouter;
  /** Runs one recovery pass of unfinished order intents now. */
  recover(): Promise<RecoveryReport>;
  /** Catches up with `GET /events` now, then handles the new events. */
  catchUp(): Promise<CatchUpReport>;
  /** Handles the due inbox events now. */
  processInbox(): Promise<void>;
  /**
   * One round of background work (webhook registration while pending, a recovery pass, a catch-up, the due inbox
   * events), for a cron when `background.mode` is `'scheduled'`; see `scheduled-round.ts`. Never rejects.
   */
  scheduled(): Promise<BackgroundReport>;
  /** Resolves when no background work is running. */
  idle(): Promise<void>;
  /**
   * Probes the marketplace credential now (signature and the scopes the options need; credential-check.ts) and
   * caches the outcome `/readyz` answers with. Never throws.
   */
  checkCredential(options?: ProbeOptions): Promise<CredentialStatus>;
  /** Whether `/readyz` proves the credential (option `checkCredential`). */
  readonly credentialChecked: boolean;
  /** The BFF's metrics (metrics.ts): `bff.metrics.handler()` serves them wherever you mount it. */
  readonly metrics: BffMetrics;
  /** Stops the background work and closes the database the BFF opened (not one passed in). */
  close(graceMs?: number): Promise<void>;
  /** What the search did so far (running totals, and visitors waiting now), for metrics. */
  searchStats(): SearchStats;
  /** Reads other processes' search evictions, answers and listings now (done every second by itself). */
  syncSearch(): Promise<void>;
}

/**
 * Creates the BFF router. Routes, relative to the mount path:
 *
 * | route | answer |
 * |---|---|
 * | `GET /search?q=` | 200 `{query, results: [{domain, available, price_cents, currency}]}` (≤ 5), cached and coalesced |
 * | `GET /siblings?q=` | 200 `{query, siblings: [{domain, tld, status, available, price_cents, currency, kind}]}` (≤ 8) through the Public API, cached and coalesced (unless `siblings: false`) |
 * | `GET /whois?domain=` | 200 `{domain, registered, registrar, registered_at}` from WHOIS/RDAP through the Public API, cached a day and budgeted per process (unless `whois: false`) |
 * | `GET /domains/:name` | 200 `{domain, available, price_cents, currency}`; 404 `not_found` |
 * | `POST /checkout` `{domain, return_url?, cancel_url?}` | 201 `{checkout_url, expires_at, price_cents, currency}` (non-MoR) |
 * | `GET /checkout/return?…&sig=` (the lander's signed result) | 200 `{checkout_session_id, status, domain, price_cents, currency}` |
 * | `POST /quotes` `{domain}` | 201 `{quote_id, domain, price_cents, currency, expires_at}` (with `payments`); 200 with the order when the purchase key's attempt has one in flight |
 * | `POST /orders` `{quote_id, buyer, payment}` | 201 order + `order_token`, or 202 `PROCESSING` (with `payments`) |
 * | `GET /orders/:id` + `X-Order-Token` | 200 `{order_id, status, domain, sale_price_cents, currency, updated_at}` |
 * | `POST /webhooks` | 200 `{received: true}` once stored (with `webhook`) |
 * | `GET /healthz`, `GET /readyz` | liveness; readiness (the database answers) |
 * | `GET /metrics` | Prometheus text format (with `metrics`; metrics.ts) |
 *
 * Errors are `{"error": {"code", "message"}}`. Every answer carries helmet's headers, `Cache-Control: no-store`
 * and, for configured origins, CORS headers. Any other path passes through to the partner's app.
 *
 * @throws {BffOptionsError} at creation, listing every bad option with the fix.
 */
export function createBff(options: BffOptions): BffRouter {
  // The Express router always records: `bff.metrics.handler()` may be mounted whatever the `metrics` option.
  const handler = createBffHandler(options, 'createBff', new BffMetrics(promClient));
  // As a mounted router always did: the database opens and the background work starts at once.
  handler.start().catch(() => {}); // logged by the runtime; `ready` rejects for whoever awaits it
  const { logger } = handlerParts.get(handler)!;
  const warned = new WeakSet<object>();
  /** The app's `trust proxy`, `true` read as the nearest hop (said once per app at `warn`). */
  const trustOf = (app: Application | undefined): TrustFn | null => {
    const setting: unknown = app?.get('trust proxy');
    if (app === undefined || setting === false || setting === 0 || setting === undefined) return null;
    if (setting !== true) return app.get('trust proxy fn') as TrustFn;
    if (!warned.has(app)) {
      warned.add(app);
      logger.warn(
        `the app's Express trust proxy is true, which would let any client forge X-Forwarded-For: the BFF trusts only the nearest hop; set trust proxy to ${TRUST_PROXY_HELP}`,
      );
    }
    return NEAREST_HOP;
  };
  const router = express.Router();
  router.use(function domainkitBff(req, res, next) {
    const context = {
      clientAddress: req.socket.remoteAddress ?? '',
      trust: trustOf(req.app),
      outerId: (req as { id?: unknown }).id,
      hostRequest: req,
      mountPath: req.baseUrl,
    };
    serveNode(handler, req, res, req.url, context, () => next());
  });
  const bff = router as BffRouter;
  Object.defineProperties(bff, {
    ready: { get: () => handler.ready },
    metrics: { value: handler.metrics },
    databaseKind: { value: handler.databaseKind },
    credentialChecked: { value: handler.credentialChecked },
  });
  return Object.assign(bff, {
    on(type: EventHandlerType, h: EventHandler) {
      handler.on(type, h);
      return bff;
    },
    recover: () => handler.recover(),
    checkCredential: (probe?: ProbeOptions) => handler.checkCredential(probe),
    catchUp: () => handler.catchUp(),
    processInbox: () => handler.processInbox(),
    scheduled: () => handler.scheduled(),
    idle: () => handler.idle(),
    close: (graceMs?: number) => handler.close(graceMs),
    searchStats: () => handler.searchStats(),
    syncSearch: () => handler.syncSearch(),
  });
}
