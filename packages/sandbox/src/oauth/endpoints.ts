/**
 * The OAuth 2.1 authorization server's JSON endpoints (Public API spec 5.2):
 *
 * - `GET /.well-known/oauth-authorization-server` (RFC 8414) and `GET /.well-known/oauth-protected-resource`
 *   (RFC 9728), with `/mcp` and `/mcp/signed-in` appended for the MCP endpoints' own metadata (RFC 9728 3.1);
 * - `POST /api/oauth/register` (RFC 7591): public clients, no approval, 201 with `client_id`;
 * - `POST /api/oauth/token` (form): `grant_type=authorization_code` (`code`, `code_verifier`, `client_id`,
 *   `redirect_uri`) and `grant_type=refresh_token` (`refresh_token`, `client_id`, optional narrower `scope`);
 *   answers carry `Cache-Control: no-store`;
 * - `POST /api/oauth/revoke` (RFC 7009, form): `token`, `client_id`.
 *
 * Errors answer the OAuth shape `{"error", "error_description"}` (RFC 6749 5.2).
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { PublicContext } from '../public-context.ts';
import { ipSubject, type RateBucket } from '../limits/public.ts';
import { clientInformation, findClient, registerClient } from './clients.ts';
import { OAuthError, sendOAuthError } from './errors.ts';
import {
  authorizationServerMetadata,
  isOwnResource,
  PROTECTED_RESOURCE_PATHS,
  protectedResourceMetadata,
} from './metadata.ts';
import { exchangeAuthorizationCode, refreshTokens, revokeToken } from './tokens.ts';
import { refuseBodyOverLimit, rejectUnsafeText } from '../http/hardening.ts';

/** Largest OAuth request body (a form or a client registration), in bytes. */
const OAUTH_BODY_BYTES = 16 * 1024;
const FORM_LIMITS = { extended: false, limit: OAUTH_BODY_BYTES, parameterLimit: 30 } as const;

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

/** Reads one form parameter: absent → undefined; repeated → `invalid_request` (RFC 6749 3.1). */
function param(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must appear once.`);
  return value;
}

function required(body: Record<string, unknown>, name: string): string {
  const value = param(body, name);
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `${name} is required.`);
  return value;
}

function formBody(req: Request): Record<string, unknown> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new OAuthError(
      'invalid_request',
      'Send the parameters as a form: Content-Type: application/x-www-form-urlencoded (RFC 6749).',
    );
  }
  return (req.body ?? {}) as Record<string, unknown>;
}

/** Builds the router (mounted at the app root). */
export function oauthEndpointsRouter(ctx: PublicContext): Router {
  const router = express.Router();

  const limit = (bucket: RateBucket) =>
    async function oauthRateLimit(req: Request, _res: Response, next: NextFunction): Promise<void> {
      const decision = await ctx.limiter.consume(bucket, ipSubject(req));
      if (!decision.allowed) {
        throw new OAuthError('rate_limited', `Too many requests: retry in ${decision.resetSeconds} seconds.`, {
          'Retry-After': String(decision.resetSeconds),
        });
      }
      next();
    };

  router.get('/.well-known/oauth-authorization-server', (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(authorizationServerMetadata(ctx.baseUrl(req)));
  });

  // One document per protected resource, at the URL RFC 9728 3.1 forms from the resource's path.
  for (const path of PROTECTED_RESOURCE_PATHS) {
    router.get(`/.well-known/oauth-protected-resource${path}`, (req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json(protectedResourceMetadata(ctx.baseUrl(req), path));
    });
  }

  router.post(
    '/api/oauth/register',
    limit('register'),
    refuseBodyOverLimit(express.json({ limit: OAUTH_BODY_BYTES }), OAUTH_BODY_BYTES),
    rejectUnsafeText('body'),
    async (req, res) => {
      noStore(res);
      if (!req.is('application/json'))
        throw new OAuthError(
          'invalid_client_metadata',
          'Send the client metadata as JSON (Content-Type: application/json).',
        );
      const row = await registerClient(ctx.db, req.body, new Date(ctx.clock()));
      ctx.logger.info({ client_id: row.client_id, client_name: row.client_name }, 'oauth client registered');
      res.status(201).json(clientInformation(row));
    },
  );

  router.post(
    '/api/oauth/token',
    limit('token'),
    refuseBodyOverLimit(express.urlencoded(FORM_LIMITS), OAUTH_BODY_BYTES),
    rejectUnsafeText('body'),
    async (req, res) => {
      noStore(res);
      if (req.headers.authorization !== undefined) {
        throw new OAuthError(
          'invalid_client',
          'Clients here are public (token_endpoint_auth_method "none"): send client_id in the form, without an Authorization header.',
          {
            'WWW-Authenticate': 'Basic realm="oauth"',
          },
        );
      }
      const body = formBody(req);
      const grantType = required(body, 'grant_type');
      const clientId = required(body, 'client_id');
      const client = await findClient(ctx.db, clientId);
      if (client === undefined)
        throw new OAuthError(
          'invalid_client',
          'Unknown client_id: register the client first (POST /api/oauth/register).',
        );
      const base = ctx.baseUrl(req);
      const resource = param(body, 'resource');
      if (resource !== undefined && !isOwnResource(base, resource))
        throw new OAuthError('invalid_target', `resource must be this service (${base}).`);
      const now = ctx.clock();
      if (grantType === 'authorization_code') {
        const tokens = await exchangeAuthorizationCode(
          ctx.db,
          {
            code: required(body, 'code'),
            clientId,
            codeVerifier: param(body, 'code_verifier'),
            redirectUri: param(body, 'redirect_uri'),
            resource,
          },
          now,
        );
        res.json(tokens);
        return;
      }
      if (grantType === 'refresh_token') {
        if (!client.grant_types.includes('refresh_token'))
          throw new OAuthError('unauthorized_client', 'This client did not register the refresh_token grant.');
        const tokens = await refreshTokens(
          ctx.db,
          { refreshToken: required(body, 'refresh_token'), clientId, scope: param(body, 'scope') },
          now,
        );
        res.json(tokens);
        return;
      }
      throw new OAuthError(
        'unsupported_grant_type',
        `grant_type ${grantType.slice(0, 50)} is not supported: use authorization_code or refresh_token.`,
      );
    },
  );

  router.post(
    '/api/oauth/revoke',
    limit('token'),
    refuseBodyOverLimit(express.urlencoded(FORM_LIMITS), OAUTH_BODY_BYTES),
    rejectUnsafeText('body'),
    async (req, res) => {
      noStore(res);
      const body = formBody(req);
      const token = required(body, 'token');
      const clientId = required(body, 'client_id');
      const hint = param(body, 'token_type_hint');
      if (hint !== undefined && hint !== 'access_token' && hint !== 'refresh_token') {
        throw new OAuthError('unsupported_token_type', 'token_type_hint must be access_token or refresh_token.');
      }
      await revokeToken(ctx.db, token, clientId, ctx.clock());
      res.status(200).end();
    },
  );

  router.use(
    '/api/oauth',
    function answerOAuthError(err: unknown, _req: Request, res: Response, next: NextFunction): void {
      if (res.headersSent) {
        next(err);
        return;
      }
      if (err instanceof OAuthError) {
        sendOAuthError(res, err);
        return;
      }
      const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && 'expose' in (err as object)) {
        if (type === 'entity.too.large') {
          // The OAuth error body, with the HTTP status of a body over the limit (as the declared-length refusal).
          const tooLarge = new OAuthError(
            'invalid_request',
            `The request body is too large: at most ${OAUTH_BODY_BYTES} bytes.`,
          );
          sendOAuthError(res, Object.assign(tooLarge, { status: 413 }));
          return;
        }
        sendOAuthError(
          res,
          new OAuthError('invalid_request', 'The request body could not be read: send a valid form or JSON body.'),
        );
        return;
      }
      next(err);
    },
  );

  return router;
}
