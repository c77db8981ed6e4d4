/**
 * The sandbox's public surface, mounted once at the app root: the unsigned Public API (Public API spec 4.2), its OAuth 2.1
 * authorization server (Public API spec 5.2), the MCP server, `GET /openapi.json` (Partner API spec 9.3) and `GET /auth.md`.
 *
 * At start it makes sure the demo user exists (its sign-in is saved in `{dataDir}/sandbox-user.json`). The JSON
 * endpoints answer CORS requests from any origin (they are public and take Bearer tokens, never cookies); the
 * consent page does not.
 */
import cors from 'cors';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { SandboxDb } from './db/tables.ts';
import { mcpRouter } from './mcp/server.ts';
import { authorizeRouter } from './oauth/authorize.ts';
import { oauthEndpointsRouter } from './oauth/endpoints.ts';
import { ensureDemoUser } from './oauth/users.ts';
import { authMarkdown } from './public-api/auth-md.ts';
import type { PublicContext } from './public-context.ts';
import { buildOpenApiDocument } from './public-api/openapi.ts';
import { createPublicRateLimiter } from './limits/public.ts';
import { publicApiRouter } from './public-api/router.ts';
import { publicDb } from './db/public-tables.ts';

/** What the public surface needs from the app. */
export interface PublicSurfaceOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The data folder (the demo user's file goes there). */
  readonly dataDir: string;
  /** The service's base URL for a request (the app's `publicUrl`): issuer, resource, OpenAPI server. */
  readonly publicUrl: (req: Request) => string;
  /**
   * Host names the sandbox is reached by besides the loopback names (its bind address, its configured public URL's
   * host): the MCP server refuses any other `Host` or `Origin` (DNS-rebinding protection).
   */
  readonly ownHostnames?: readonly string[];
}

const CORS = cors({
  origin: '*',
  methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
  allowedHeaders: [
    'Authorization',
    'Content-Type',
    'Accept',
    'Mcp-Protocol-Version',
    'Mcp-Session-Id',
    'Last-Event-ID',
  ],
  exposedHeaders: ['WWW-Authenticate', 'Retry-After', 'X-Request-Id', 'Mcp-Session-Id', 'Mcp-Protocol-Version'],
  maxAge: 600,
});

/** True for the paths that answer CORS: the Public API (not the Partner API), OAuth JSON endpoints, MCP, documents. */
function isPublicJsonPath(path: string): boolean {
  if (path === '/api' || path.startsWith('/api/'))
    return !(path === '/api/partner' || path.startsWith('/api/partner/'));
  return (
    path.startsWith('/.well-known/oauth-') ||
    path === '/openapi.json' ||
    path === '/auth.md' ||
    path === '/mcp' ||
    path.startsWith('/mcp/')
  );
}

/**
 * Prepares the public surface and returns its router.
 * @throws {Error} when the demo user cannot be created (database error).
 */
export async function publicSurface(options: PublicSurfaceOptions): Promise<Router> {
  const db = publicDb(options.db);
  const { logger, clock } = options;
  const demo = await ensureDemoUser(db, options.dataDir, new Date(clock()));
  logger.info(
    { user_id: demo.demo.user_id, email: demo.demo.email, file: demo.file, origin: demo.origin },
    'sandbox demo user ready',
  );

  const ctx: PublicContext = {
    db,
    clock,
    logger,
    limiter: createPublicRateLimiter(db, clock, logger),
    baseUrl: (req) => options.publicUrl(req).replace(/\/+$/, ''),
  };

  const router = express.Router();
  router.use(function publicCors(req: Request, res: Response, next: NextFunction): void {
    if (isPublicJsonPath(req.path)) CORS(req, res, next);
    else next();
  });

  const documents = new Map<string, string>();
  router.get('/openapi.json', (req, res) => {
    const base = ctx.baseUrl(req);
    let text = documents.get(base);
    if (text === undefined) {
      text = JSON.stringify(buildOpenApiDocument(base));
      if (documents.size < 20) documents.set(base, text);
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(text);
  });
  router.get('/auth.md', (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('text/markdown; charset=utf-8').send(authMarkdown(ctx.baseUrl(req)));
  });

  router.use(oauthEndpointsRouter(ctx));
  router.use(authorizeRouter(ctx));
  router.use(mcpRouter(ctx, options.ownHostnames));
  router.use(publicApiRouter(ctx));
  return router;
}
