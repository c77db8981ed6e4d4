/**
 * Scopes of the Public API's OAuth 2.1 sign-in (Public API spec 5.2). The spec names one, `pricing:read` (real marketplace
 * prices on domain search and listings); the sandbox adds `domains:manage` for the signed-in bulk operations of
 * Public API spec 4.2 (docs/spec-decisions.md). A request without `scope` gets `pricing:read` only.
 */

/** Every scope the authorization server grants, in display order. */
export const OAUTH_SCOPES = ['pricing:read', 'domains:manage'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** The scope granted when the client asks for none (Public API spec 5.2: the token response carries `pricing:read`). */
export const DEFAULT_SCOPE: OAuthScope = 'pricing:read';

/** What each scope lets the client do, as the consent page says it. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<OAuthScope, string>> = {
  'pricing:read': 'See real marketplace prices on domain search and listings',
  'domains:manage': 'List your domains and run bulk operations on them (lock, unlock, renew, nameservers, auto-renew)',
};

/** True when `value` is a scope the server knows. */
export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/**
 * Parses a space-delimited scope string (RFC 6749 3.3).
 * @returns the scopes, de-duplicated, in display order; `undefined` when one is unknown (`invalid_scope`).
 */
export function parseScope(value: string): OAuthScope[] | undefined {
  const parts = value.split(' ').filter((s) => s !== '');
  if (!parts.every(isOAuthScope)) return undefined;
  return OAUTH_SCOPES.filter((s) => parts.includes(s));
}

/** Joins scopes as the wire carries them. */
export function formatScope(scopes: readonly string[]): string {
  return OAUTH_SCOPES.filter((s) => scopes.includes(s)).join(' ');
}

/** True when every scope of `requested` is in `granted` (no widening, RFC 6749 6). */
export function isSubset(requested: readonly string[], granted: readonly string[]): boolean {
  return requested.every((s) => granted.includes(s));
}
