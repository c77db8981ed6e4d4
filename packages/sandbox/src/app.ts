/**
 * The sandbox as an Express app (not listening): the Partner API, the admin API and the hosted lander over one
 * prepared database. `startSandbox` wraps it in an HTTP server.
 */
import { buildPartnerApiDocument } from '@domainkit/protocol';
import express, { type Express, type Request } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { adminRouter } from './admin/router.ts';
import { AuthFailureThrottle, authFailureLimits } from './auth/failure-throttle.ts';
import { createNonceStore } from './auth/nonces.ts';
import { bootstrap } from './bootstrap.ts';
import { landerRouter } from './checkout/lander-router.ts';
import type { Clock } from './clock.ts';
import type { DemoCredential } from './credentials/demo-credential.ts';
import type { SandboxDb } from './db/tables.ts';
import { jsonErrorHandler, notFoundHandler, sendError } from './http/errors.ts';
import { declaredBodyLimit, MAX_DECLARED_BODY_BYTES, unsafeTextIn } from './http/hardening.ts';
import { parseQueryString } from './http/query.ts';
import { requestContext } from './http/request-context.ts';
import { sandboxLogger } from './logger.ts';
import { MAX_BODY_BYTES } from './http/body.ts';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.ts';
import { partnerApiRouter } from './partner/router.ts';
import { createWebhookSender } from './events/webhook-target.ts';
import { startPartnerServices } from './partner/services.ts';
import { sitePagesRouter } from './site/pages-router.ts';
import { publicSurface } from './public-surface.ts';

/** A prepared sandbox app. */
export interface SandboxApp {
  /** The Express app: mount it, or hand it to `http.createServer`. */
  readonly app: Express;
  /** The demo credential (also in `{dataDir}/credentials.json`). */
  readonly demo: DemoCredential;
  /** The database (Kysely), for tests and tools that inspect state. */
  readonly db: SandboxDb;
  /** `pglite` (embedded) or `postgres`. */
  readonly databaseKind: 'pglite' | 'postgres';
  /** The absolute data folder. */
  readonly dataDir: string;
  /** The credential file's path. */
  readonly credentialsFile: string;
  readonly logger: Logger;
  /** Closes the database (and releases the data folder). Close any server using the app first. */
  close(): Promise<void>;
}

/**
 * The sandbox's base URL as seen by a request: its protocol, Host header and the path the app is mounted at.
 * Used for `checkout_url` when no `publicUrl` is configured.
 */
export function requestBaseUrl(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${req.app.path()}`;
}

/**
 * The host names this sandbox is configured to be reached by (no port, IPv6 in brackets): the `publicUrl`'s host and
 * the bind address unless it is a wildcard. The loopback names are always added by the MCP router.
 */
function ownHostnames(resolved: ResolvedOptions): string[] {
  const names: string[] = [];
  if (resolved.publicUrl !== undefined) names.push(new URL(resolved.publicUrl).hostname);
  if (resolved.host !== '0.0.0.0' && resolved.host !== '::')
    names.push(resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host);
  return names;
}

/** Internal: the app for resolved options, with a way to learn the public URL once a server listens. */
export async function buildSandboxApp(
  resolved: ResolvedOptions,
  logger: Logger,
  publicUrl: (req: Request) => string,
): Promise<SandboxApp & { readonly ownPorts: Set<number> }> {
  const { handle, demo, credentialsFile, landerKey, quoteKey } = await bootstrap(resolved, logger);
  const { db } = handle;
  const clock: Clock = resolved.now;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', (raw: string | null | undefined) => parseQueryString(raw ?? ''));
  app.use(requestContext(logger));
  // A declared body over the largest any route takes is refused before it is read (413, connection closed).
  app.use(
    declaredBodyLimit(MAX_DECLARED_BODY_BYTES, (_req, res) =>
      sendError(
        res,
        413,
        'validation_error',
        `The request body is too large: at most ${MAX_DECLARED_BODY_BYTES} bytes (the Partner API takes at most ${MAX_BODY_BYTES}).`,
      ),
    ),
  );
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          formAction: ["'self'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
        },
      },
      frameguard: { action: 'deny' },
      strictTransportSecurity: false,
    }),
  );

  // The text policy on every path and query outside the Partner API (which checks them after authentication).
  app.use((req, res, next) => {
    if (req.path.startsWith('/api/partner/')) return next();
    const problem = unsafeTextIn(req, 'path') ?? unsafeTextIn(req, 'query');
    if (problem === undefined) return next();
    sendError(res, 400, 'validation_error', problem);
  });
  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  // The ports this app is reached on (the listening port, or the port of the server it is mounted in): never a
  // webhook target. startSandbox adds its port before any request; a mounted app learns it from its requests.
  const ownPorts = new Set<number>();
  app.use((req, _res, next) => {
    const port = req.socket.localPort;
    if (port !== undefined && !ownPorts.has(port)) ownPorts.add(port);
    next();
  });
  const webhookSender = createWebhookSender({ timeoutMs: resolved.webhookTimeoutMs, ownPorts });
  // Failed Partner API authentications, counted per address and key id; POST /admin/reset clears the counts.
  const failureThrottle = new AuthFailureThrottle(authFailureLimits(resolved.authFailureLimit));
  // The Partner API's OpenAPI 3.1 document (unsigned, like /openapi.json of the Public API).
  const partnerDocuments = new Map<string, string>();
  app.get('/api/partner/openapi.json', (req, res) => {
    const base = publicUrl(req).replace(/\/+$/, '');
    let text = partnerDocuments.get(base);
    if (text === undefined) {
      text = JSON.stringify(buildPartnerApiDocument({ serverUrl: base, headerPrefix: resolved.headerPrefix }));
      if (partnerDocuments.size < 20) partnerDocuments.set(base, text);
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(text);
  });
  app.use(
    '/api/partner',
    partnerApiRouter({
      db,
      clock,
      logger,
      nonces: createNonceStore(db, logger),
      failureThrottle,
      ownPorts,
      headerPrefix: resolved.headerPrefix,
      tokenKey: landerKey,
      quoteKey,
      publicUrl,
    }),
  );
  app.use(
    '/admin',
    adminRouter({
      db,
      clock,
      logger,
      adminToken: demo.admin_token,
      demoKeyId: demo.key_id,
      headerPrefix: resolved.headerPrefix,
      webhookSender,
      publicUrl,
      failureThrottle,
    }),
  );
  app.use('/checkout', landerRouter({ db, clock, logger, tokenKey: landerKey }));
  // Tracked referral links (/r), the storefront (/market) and brokerage progress pages (/brokerage/progress).
  app.use(sitePagesRouter({ db, clock, logger, tokenKey: landerKey }));
  // Public API (Public API spec 4.2), its OAuth 2.1 sign-in (5.2), the MCP server, /openapi.json and /auth.md.
  app.use(
    await publicSurface({
      db,
      clock,
      logger,
      dataDir: resolved.dataDir,
      publicUrl,
      ownHostnames: ownHostnames(resolved),
    }),
  );
  app.use(notFoundHandler());
  app.use(jsonErrorHandler(logger));

  // Webhook deliveries (events/outbox.ts): pending ones left by an earlier run are picked up now.
  const outbox = startPartnerServices(resolved, { db, clock, logger, sender: webhookSender });
  const close = async () => {
    await outbox.stop();
    await webhookSender.close();
    await handle.close();
  };
  return {
    app,
    demo,
    db,
    databaseKind: handle.kind,
    dataDir: resolved.dataDir,
    credentialsFile,
    logger,
    close,
    ownPorts,
  };
}

/**
 * Prepares the sandbox (database, demo credential, inventory) and returns its Express app without listening.
 *
 * @param options - see {@link SandboxOptions}; `port` and `host` do not apply. Without `publicUrl`, `checkout_url`
 *   is built from the request's protocol, Host header and the app's mount path.
 * @throws {TypeError} for invalid options; {@link Error} when the database cannot be opened (for example the data
 *   folder is in use by another process) or migrated.
 */
export async function createSandboxApp(options: SandboxOptions = {}): Promise<SandboxApp> {
  const resolved = resolveOptions(options);
  const logger = sandboxLogger(options.logger);
  const fixed = resolved.publicUrl;
  return buildSandboxApp(resolved, logger, (req) => fixed ?? requestBaseUrl(req));
}
