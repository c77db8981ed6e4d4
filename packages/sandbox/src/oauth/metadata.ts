/**
 * Discovery documents of the OAuth 2.1 sign-in (Public API spec 5.2): authorization server metadata (RFC 8414) at
 * `/.well-known/oauth-authorization-server` and protected resource metadata (RFC 9728) at
 * `/.well-known/oauth-protected-resource`. The issuer and the resource identifier of the Public API are both the
 * service's base URL, exactly the URL the documents are served under (RFC 8414 3.3, RFC 9728 3.3), so a client's
 * comparison succeeds byte for byte.
 *
 * The MCP endpoints are protected resources of their own (an MCP client uses the endpoint's URL as the resource
 * identifier): their metadata is served at the path-specific URL RFC 9728 3.1 forms, the well-known path followed
 * by the resource's path (`/.well-known/oauth-protected-resource/mcp/signed-in`), and names that URL as `resource`.
 */
import { OAUTH_SCOPES } from './scopes.ts';

/** The URLs of the authorization server and the resource, for one base URL (no trailing slash). */
export interface OAuthUrls {
  readonly issuer: string;
  readonly resource: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint: string;
  readonly revocationEndpoint: string;
  readonly authorizationServerMetadata: string;
  readonly protectedResourceMetadata: string;
  readonly documentation: string;
  readonly openapi: string;
  readonly mcp: string;
  readonly mcpSignedIn: string;
}

/**
 * The paths (under the base URL) of the protected resources that have metadata of their own: `''` is the Public API
 * (the base URL itself), the others the MCP endpoints.
 */
export const PROTECTED_RESOURCE_PATHS = ['', '/mcp', '/mcp/signed-in'] as const;

/** A protected resource's path under the base URL ({@link PROTECTED_RESOURCE_PATHS}). */
export type ProtectedResourcePath = (typeof PROTECTED_RESOURCE_PATHS)[number];

/**
 * The URL of the protected resource metadata of the resource at `path` under `base` (RFC 9728 3.1): the well-known
 * path, then the resource's path.
 */
export function protectedResourceMetadataUrl(base: string, path: ProtectedResourcePath = ''): string {
  return `${base}/.well-known/oauth-protected-resource${path}`;
}

/** The endpoint URLs under a base URL such as `http://127.0.0.1:4010`. */
export function oauthUrls(base: string): OAuthUrls {
  return {
    issuer: base,
    resource: base,
    authorizationEndpoint: `${base}/oauth/authorize`,
    tokenEndpoint: `${base}/api/oauth/token`,
    registrationEndpoint: `${base}/api/oauth/register`,
    revocationEndpoint: `${base}/api/oauth/revoke`,
    authorizationServerMetadata: `${base}/.well-known/oauth-authorization-server`,
    protectedResourceMetadata: protectedResourceMetadataUrl(base),
    documentation: `${base}/auth.md`,
    openapi: `${base}/openapi.json`,
    mcp: `${base}/mcp`,
    mcpSignedIn: `${base}/mcp/signed-in`,
  };
}

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(base: string) {
  const u = oauthUrls(base);
  return {
    issuer: u.issuer,
    authorization_endpoint: u.authorizationEndpoint,
    token_endpoint: u.tokenEndpoint,
    registration_endpoint: u.registrationEndpoint,
    revocation_endpoint: u.revocationEndpoint,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: u.documentation,
  };
}

/**
 * RFC 9728 protected resource metadata of the resource at `path` under `base`: the Public API (`''`, the base URL) or
 * an MCP endpoint. `resource` is the resource's own URL, the identifier its clients use (RFC 9728 3.3).
 */
export function protectedResourceMetadata(base: string, path: ProtectedResourcePath = '') {
  const u = oauthUrls(base);
  return {
    resource: `${u.resource}${path}`,
    authorization_servers: [u.issuer],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Marketplace Public API and MCP server (sandbox)',
    resource_documentation: u.documentation,
  };
}

/**
 * True when `resource` (an RFC 8707 resource indicator) names this service: the base URL itself (with or without a
 * trailing slash) or a URL under it such as `{base}/mcp`.
 */
export function isOwnResource(base: string, resource: string): boolean {
  if (resource === base || resource === `${base}/`) return true;
  if (!resource.startsWith(`${base}/`) || resource.includes('#')) return false;
  try {
    return new URL(resource).href.startsWith(`${new URL(base).href.replace(/\/$/, '')}/`);
  } catch {
    return false;
  }
}
