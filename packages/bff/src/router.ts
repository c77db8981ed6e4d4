/**
 * `createBff(options)`: the partner's backend-for-frontend as an Express `Router`, mountable at any path of an
 * existing app (DESIGN "The widget ↔ BFF API"). It holds the Partner API secret and exposes only a narrow,
 * purpose-built API to the widget; it is never a generic signing proxy.
 */
import { CLIENT_VERSION, PartnerClient } from '@domainkit/client';
import type { DomainSearchResponse } from '@domainkit/protocol';
import express, { type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { errorHandler } from './errors.ts';
import { bffLogger } from './logger.ts';
import { BffOptionsError, validateBffOptions, type BffOptions, type MarketplaceApi } from './options.ts';
import { checkoutRoute } from './routes/checkout.ts';
import { methodNotAllowed, type BffContext } from './routes/context.ts';
import { domainRoute } from './routes/domain.ts';
import { healthRoute } from './routes/health.ts';
import { searchRoute } from './routes/search.ts';
import { SearchCache } from './search-cache.ts';
import { JSON_BODY_LIMIT_BYTES, cors, jsonBody, noStore, requireJson, securityHeaders } from './security.ts';

/** This package's version. */
export const BFF_VERSION = '0.1.0';

/** The paths the router answers (relative to where it is mounted); nothing else is touched. */
export const BFF_PATHS = ['/healthz', '/search', '/domains', '/checkout'] as const;

/** Upstream settings tuned for a visitor waiting on the answer (ms). */
const UPSTREAM_DEFAULTS = { timeoutMs: 10_000, maxRetries: 2, initialRetryDelayMs: 250, maxRetryDelayMs: 2_000 } as const;

function accessLog(logger: Logger): RequestHandler {
  return function domainkitBffAccessLog(req, res, next) {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // Method, path and status only: no query (visitor input), no headers.
      logger.debug({ method: req.method, path: req.originalUrl.split('?', 1)[0], status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
    });
    next();
  };
}

function createClient(options: NonNullable<BffOptions['marketplace']>): MarketplaceApi {
  try {
    return new PartnerClient({
      baseUrl: options.baseUrl,
      keyId: options.keyId,
      secret: options.secret,
      headerPrefix: options.headerPrefix,
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs ?? UPSTREAM_DEFAULTS.timeoutMs,
      maxRetries: options.maxRetries ?? UPSTREAM_DEFAULTS.maxRetries,
      initialRetryDelayMs: UPSTREAM_DEFAULTS.initialRetryDelayMs,
      // A visitor is waiting: a Retry-After over 2 s is answered "busy" at once instead of hanging the request.
      maxRetryDelayMs: UPSTREAM_DEFAULTS.maxRetryDelayMs,
      userAgent: `domainkit-bff/${BFF_VERSION} domainkit-client/${CLIENT_VERSION} node/${process.versions.node}`,
    });
  } catch (error) {
    throw new BffOptionsError([`\`marketplace\`: ${(error as Error).message.replace(/^PartnerClient: /, '')}`]);
  }
}

/**
 * Creates the BFF router. Routes, relative to the mount path:
 *
 * | route | answer |
 * |---|---|
 * | `GET /search?q=` | 200 `{query, results: [{domain, available, price_cents, currency}]}` (≤ 5), cached and coalesced |
 * | `GET /domains/:name` | 200 `{domain, available, price_cents, currency}`; 404 `not_found` |
 * | `POST /checkout` `{domain}` | 201 `{checkout_url, expires_at}` |
 * | `GET /healthz` | 200 `{status: "ok"}` |
 *
 * Errors are `{"error": {"code", "message"}}`: 400 `validation_error`, 404 `not_found`, 405, 409 `conflict`,
 * 413, 415, 502 `upstream_error`, 503 `busy` (with `Retry-After` and `retry_after` seconds). Every answer carries
 * helmet's headers, `Cache-Control: no-store` and, for configured origins, CORS headers.
 *
 * @throws {BffOptionsError} at creation, listing every bad option with the fix.
 */
export function createBff(options: BffOptions): Router {
  const o = validateBffOptions(options);
  const logger = bffLogger(o.logger, o.marketplace?.headerPrefix);
  const client = o.client ?? createClient(o.marketplace!);
  const ctx: BffContext = {
    client,
    searchCache: new SearchCache<DomainSearchResponse>({
      ttlMs: (o.searchCache?.ttlSeconds ?? 30) * 1000,
      maxEntries: o.searchCache?.maxEntries ?? 1000,
      now: o.now ?? Date.now,
    }),
    returnUrl: o.returnUrl,
    cancelUrl: o.cancelUrl,
  };

  const router = express.Router();
  const paths = [...BFF_PATHS];
  router.use(paths, accessLog(logger), securityHeaders(), cors(o.allowedOrigins ?? []), noStore);
  router.route('/healthz').get(healthRoute).all(methodNotAllowed('GET'));
  router.route('/search').get(searchRoute(ctx)).all(methodNotAllowed('GET'));
  router.route('/domains/:name').get(domainRoute(ctx)).all(methodNotAllowed('GET'));
  router.route('/checkout').post(requireJson, jsonBody(), checkoutRoute(ctx)).all(methodNotAllowed('POST'));
  router.use(paths, errorHandler(logger, { bodyLimitKb: JSON_BODY_LIMIT_BYTES / 1024 }));
  return router;
}
