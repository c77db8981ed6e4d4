/**
 * The Public API and the MCP server as an OAuth 2.1 protected resource (Public API spec 5.2, RFC 6750, RFC 9728 5.1):
 * reading the optional `Authorization: Bearer` header, and the `WWW-Authenticate` challenges.
 *
 * - No header: anonymous (masked prices). Where sign-in is required (`GET /api`, bulk operations), 401 with
 *   `WWW-Authenticate: Bearer resource_metadata="{base}/.well-known/oauth-protected-resource"`.
 * - A header with an unknown, expired or revoked token: always 401 `invalid_token`, never a silent fallback to
 *   anonymous (a client must learn that its token stopped working).
 * - A header that is not `Bearer <token>`: 400 `invalid_request`.
 * - A valid token without the scope a route needs: 403 `insufficient_scope`.
 */
import type { Request } from 'express';
import type { Clock } from '../clock.ts';
import { ApiError } from '../http/api-error.ts';
import { oauthUrls, protectedResourceMetadataUrl, type ProtectedResourcePath } from '../oauth/metadata.ts';
import { verifyAccessToken, type AccessGrant } from '../oauth/tokens.ts';
import type { OAuthScope } from '../oauth/scopes.ts';
import type { PublicDb } from '../db/public-tables.ts';

/** RFC 6750 2.1 `b64token`. */
const BEARER_RE = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * A `WWW-Authenticate: Bearer` challenge (RFC 6750 3, RFC 9728 5.1).
 * @param params - `error`, `error_description`, `scope`... in order; `resource_metadata` is always appended: the
 *   metadata URL of the resource at `resource` (a path under `base`, `''` for the Public API), RFC 9728 3.1.
 */
export function bearerChallenge(
  base: string,
  params: Readonly<Record<string, string>> = {},
  resource: ProtectedResourcePath = '',
): string {
  const all = { ...params, resource_metadata: protectedResourceMetadataUrl(base, resource) };
  return `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(', ')}`;
}

/** What the Authorization header says. */
export type BearerHeader =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'token'; readonly token: string };

/** Reads the Authorization header of a request. */
export function readBearer(req: Request): BearerHeader {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const match = BEARER_RE.exec(header);
  return match ? { kind: 'token', token: match[1]! } : { kind: 'malformed' };
}

const REASONS = {
  unknown: 'The access token is not valid.',
  expired:
    'The access token expired (access tokens last 30 minutes): refresh it with your refresh token, or sign in again.',
  revoked: 'The access token was revoked: sign in again.',
} as const;

/**
 * Resolves the caller of a request.
 * @param options.resource - the path of the protected resource asked (`''` the Public API, `/mcp`…): its metadata
 *   URL goes into the challenges.
 * @returns the access grant of a valid token, or `undefined` for an anonymous request.
 * @throws {ApiError} 401 `invalid_token` (unknown, expired or revoked token), 400 `invalid_request` (not a Bearer
 *   header), each with its `WWW-Authenticate` challenge.
 */
export async function resolveAccess(
  req: Request,
  options: { db: PublicDb; clock: Clock; base: string; resource?: ProtectedResourcePath },
): Promise<AccessGrant | undefined> {
  const header = readBearer(req);
  if (header.kind === 'none') return undefined;
  if (header.kind === 'malformed') {
    throw new ApiError(
      400,
      'invalid_request',
      'The Authorization header must be "Bearer <access token>" (or be left out for anonymous access).',
      {
        'WWW-Authenticate': bearerChallenge(
          options.base,
          { error: 'invalid_request', error_description: 'Authorization must use the Bearer scheme' },
          options.resource,
        ),
      },
    );
  }
  const check = await verifyAccessToken(options.db, header.token, options.clock());
  if (!check.ok) {
    throw new ApiError(401, 'invalid_token', REASONS[check.reason], {
      'WWW-Authenticate': bearerChallenge(
        options.base,
        { error: 'invalid_token', error_description: REASONS[check.reason] },
        options.resource,
      ),
    });
  }
  return check.grant;
}

/**
 * Requires a signed-in caller holding `scope`.
 * @throws {ApiError} 401 `unauthorized` with the resource-metadata challenge when anonymous; 403
 *   `insufficient_scope` when the token lacks the scope.
 */
export function requireScope(access: AccessGrant | undefined, scope: OAuthScope, base: string): AccessGrant {
  if (access === undefined) {
    throw new ApiError(
      401,
      'unauthorized',
      `Sign in first: send "Authorization: Bearer <access token>" with scope ${scope} (see ${oauthUrls(base).documentation}).`,
      {
        'WWW-Authenticate': bearerChallenge(base, { scope }),
      },
    );
  }
  if (!access.scopes.includes(scope)) {
    throw new ApiError(
      403,
      'insufficient_scope',
      `The access token lacks the scope ${scope}: sign in again asking for it.`,
      {
        'WWW-Authenticate': bearerChallenge(base, { error: 'insufficient_scope', scope }),
      },
    );
  }
  return access;
}
