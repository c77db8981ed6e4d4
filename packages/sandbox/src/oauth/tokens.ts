/**
 * Authorization codes, grants and tokens of the OAuth 2.1 authorization server (Public API spec 5.2, 8; OAuth 2.1 4.1 and 4.3,
 * RFC 7636, RFC 9700 2.2.2 and 4.14):
 *
 * - a code lives 60 seconds and is single use; redeeming it a second time (with every check passing, the PKCE
 *   verifier included) revokes every token it issued; a refused presentation changes nothing;
 * - the PKCE verifier must hash (S256) to the challenge of the authorization request;
 * - an access token lives 30 minutes; a refresh token family 30 days from the authorization, whatever the
 *   rotations; every refresh returns a new refresh token and spends the old one; presenting a spent refresh token
 *   revokes the whole family (the grant); a refused refresh (another client, a wider scope) spends nothing;
 * - a refresh may narrow the scope, never widen it.
 *
 * Codes and tokens are opaque random strings stored as SHA-256 hashes; every check is one atomic UPDATE … RETURNING,
 * so two concurrent uses of one code or refresh token cannot both succeed.
 */
import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, OAUTH_CODE_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '@domainkit/protocol';
import { randomId } from '../ids.ts';
import type { OAuthCodeRow, OAuthGrantRow, PublicDb, PublicExecutor } from '../db/public-tables.ts';
import { OAuthError } from './errors.ts';
import { formatScope, isSubset, parseScope } from './scopes.ts';
import { hashSecret, newOpaqueSecret, safeEqual } from './secrets.ts';

/** RFC 7636 4.1: 43–128 characters of `[A-Za-z0-9-._~]`. */
const VERIFIER_RE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of the verifier: 43 characters. */
export const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

/** What the token endpoint answers (RFC 6749 5.1). */
export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A new authorization code's binding. */
export interface CodeBinding {
  readonly clientId: string;
  readonly userId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly resource: string | null;
}

/** Stores a new authorization code (60 s) and returns it; only its hash is kept. */
export async function createAuthorizationCode(
  db: PublicExecutor,
  binding: CodeBinding,
  nowMs: number,
): Promise<string> {
  const code = newOpaqueSecret('code');
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: hashSecret(code),
      client_id: binding.clientId,
      user_id: binding.userId,
      redirect_uri: binding.redirectUri,
      code_challenge: binding.codeChallenge,
      scope: binding.scope,
      resource: binding.resource,
      created_at: new Date(nowMs),
      expires_at: new Date(nowMs + OAUTH_CODE_TTL_SECONDS * 1000),
    })
    .execute();
  return code;
}

/** When a grant's refresh-token family expires (epoch ms): 30 days after the authorization (Partner API spec 8). */
export function familyExpiresAt(grant: Pick<OAuthGrantRow, 'created_at'>): number {
  return grant.created_at.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000;
}

async function issueTokens(
  db: PublicExecutor,
  grant: OAuthGrantRow,
  accessScope: string,
  nowMs: number,
): Promise<TokenSet> {
  const accessToken = newOpaqueSecret('access');
  const refreshToken = newOpaqueSecret('refresh');
  const now = new Date(nowMs);
  await db
    .insertInto('oauth_tokens')
    .values([
      {
        token_hash: hashSecret(accessToken),
        grant_id: grant.id,
        kind: 'access',
        scope: accessScope,
        created_at: now,
        expires_at: new Date(nowMs + ACCESS_TOKEN_TTL_SECONDS * 1000),
      },
      // The refresh token keeps the grant's full scope (RFC 6749 6), even when this access token was narrowed.
      {
        token_hash: hashSecret(refreshToken),
        grant_id: grant.id,
        kind: 'refresh',
        scope: grant.scope,
        created_at: now,
        // Partner API spec 8's 30 days count from the original authorization: a rotation never extends the family.
        expires_at: new Date(familyExpiresAt(grant)),
      },
    ])
    .execute();
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    scope: accessScope,
  };
}

/** Revokes a grant (its whole token family). */
export async function revokeGrant(db: PublicExecutor, grantId: string, reason: string, nowMs: number): Promise<void> {
  await db
    .updateTable('oauth_grants')
    .set({ revoked_at: new Date(nowMs), revoked_reason: reason })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The S256 transformation of RFC 7636 4.2. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** The authorization_code grant's inputs. */
export interface CodeExchange {
  readonly code: string;
  readonly clientId: string;
  readonly codeVerifier: string | undefined;
  readonly redirectUri: string | undefined;
  readonly resource: string | undefined;
}

/**
 * The checks that bind a code to its authorization request (client, redirect URI, PKCE verifier, resource): a
 * presentation that fails one of them proves nothing and changes nothing.
 */
function checkCodeBinding(code: OAuthCodeRow, input: CodeExchange): OAuthError | undefined {
  if (code.client_id !== input.clientId)
    return new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
  if (input.redirectUri !== undefined && input.redirectUri !== code.redirect_uri)
    return new OAuthError(
      'invalid_grant',
      'redirect_uri does not match the redirect_uri of the authorization request.',
    );
  if (input.codeVerifier === undefined)
    return new OAuthError('invalid_request', 'code_verifier is required (PKCE, RFC 7636).');
  if (!VERIFIER_RE.test(input.codeVerifier)) {
    return new OAuthError(
      'invalid_request',
      'code_verifier must be 43 to 128 characters of letters, digits and "-._~" (RFC 7636 4.1).',
    );
  }
  if (!safeEqual(s256(input.codeVerifier), code.code_challenge))
    return new OAuthError(
      'invalid_grant',
      'code_verifier does not match the code_challenge of the authorization request.',
    );
  if (input.resource !== undefined && code.resource !== null && input.resource !== code.resource)
    return new OAuthError('invalid_target', 'resource does not match the resource of the authorization request.');
  return undefined;
}

/** Revokes the grant a spent code issued and answers the reuse refusal (RFC 6749 4.1.2, RFC 9700 4.2.4). */
async function refuseCodeReuse(trx: PublicExecutor, codeHash: string, nowMs: number): Promise<OAuthError> {
  const grant = await trx.selectFrom('oauth_grants').select('id').where('code_hash', '=', codeHash).executeTakeFirst();
  if (grant !== undefined) await revokeGrant(trx, grant.id, 'authorization_code_reuse', nowMs);
  return new OAuthError(
    'invalid_grant',
    'The authorization code was already used. Codes are single use: the tokens it issued have been revoked. Start a new authorization.',
  );
}

/**
 * Exchanges an authorization code for tokens (OAuth 2.1 4.1.3). A refused presentation (another client, another
 * redirect URI, a missing or wrong verifier, another resource, an expired code) changes nothing: the code stays
 * redeemable by its owner. Only a second presentation that passes every check (a second *successful* redemption,
 * which only a holder of the verifier can make) is treated as reuse and revokes the grant the code issued
 * (RFC 6749 4.1.2, OAuth 2.1 4.1.3).
 * @throws {OAuthError} `invalid_grant` for an unknown, expired, reused or foreign code, a redirect URI that
 *   differs, or a verifier that does not match; `invalid_request` for a missing or malformed verifier;
 *   `invalid_target` for a resource other than the one authorized.
 */
export async function exchangeAuthorizationCode(db: PublicDb, input: CodeExchange, nowMs: number): Promise<TokenSet> {
  const codeHash = hashSecret(input.code);
  const outcome = await db.transaction().execute(async (trx) => {
    const code = await trx.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    if (code === undefined)
      return new OAuthError('invalid_grant', 'The authorization code is not valid: start a new authorization.');
    const refusal = checkCodeBinding(code, input);
    if (refusal !== undefined) return refusal;
    if (code.used_at !== null) return refuseCodeReuse(trx, codeHash, nowMs);
    if (code.expires_at.getTime() <= nowMs) {
      return new OAuthError(
        'invalid_grant',
        `The authorization code expired: codes are valid for ${OAUTH_CODE_TTL_SECONDS} seconds. Start a new authorization.`,
      );
    }
    // The atomic claim: of two concurrent redemptions that both passed the checks, one spends the code here and the
    // other finds it spent (a reuse).
    const claimed = await trx
      .updateTable('oauth_codes')
      .set({ used_at: new Date(nowMs) })
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .returning('code_hash')
      .executeTakeFirst();
    if (claimed === undefined) return refuseCodeReuse(trx, codeHash, nowMs);
    const grant = await trx
      .insertInto('oauth_grants')
      .values({
        id: randomId('grt_', 22),
        client_id: code.client_id,
        user_id: code.user_id,
        scope: code.scope,
        resource: code.resource ?? input.resource ?? null,
        code_hash: codeHash,
        created_at: new Date(nowMs),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return issueTokens(trx, grant, grant.scope, nowMs);
  });
  // Errors are returned, not thrown, so that a revocation on reuse is committed.
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** The refresh_token grant's inputs. */
export interface RefreshExchange {
  readonly refreshToken: string;
  readonly clientId: string;
  readonly scope: string | undefined;
}

/** Revokes a refresh token's family after a reuse and answers the refusal (RFC 9700 4.14.2). */
async function refuseRefreshReuse(trx: PublicExecutor, grantId: string, nowMs: number): Promise<OAuthError> {
  await revokeGrant(trx, grantId, 'refresh_token_reuse', nowMs);
  return new OAuthError(
    'invalid_grant',
    'The refresh token was already used. Refresh tokens rotate on every use; a reused one means it may have leaked, so every token of this sign-in has been revoked. Sign in again.',
  );
}

/** The access scope a refresh asks for: the grant's, or a subset of it (RFC 6749 6). */
function refreshScope(requestedScope: string | undefined, grantScope: string): string | OAuthError {
  if (requestedScope === undefined) return grantScope;
  const requested = parseScope(requestedScope);
  if (requested === undefined || requested.length === 0)
    return new OAuthError('invalid_scope', `scope ${JSON.stringify(requestedScope)} is not valid.`);
  if (!isSubset(requested, grantScope.split(' '))) {
    return new OAuthError(
      'invalid_scope',
      `A refresh cannot widen the scope: this sign-in grants "${grantScope}" only. Sign in again to ask for more.`,
    );
  }
  return formatScope(requested);
}

/**
 * Rotates a refresh token (OAuth 2.1 4.3, RFC 9700 4.14.2): spends it and answers a new access token and a new
 * refresh token of the same family. A refused refresh (another client, a wider scope, an expired token) changes
 * nothing: the token stays usable by its client. A token family lives 30 days from the original authorization
 * (Partner API spec 8), whatever the rotations: every rotated refresh token expires when the family does.
 * @throws {OAuthError} `invalid_grant` for an unknown, expired or revoked token, one of another client, or one
 *   already spent (which revokes the whole family); `invalid_scope` for a scope wider than the grant's.
 */
export async function refreshTokens(db: PublicDb, input: RefreshExchange, nowMs: number): Promise<TokenSet> {
  const tokenHash = hashSecret(input.refreshToken);
  const outcome = await db.transaction().execute(async (trx) => {
    const token = await trx
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', 'refresh')
      .executeTakeFirst();
    if (token === undefined) return new OAuthError('invalid_grant', 'The refresh token is not valid: sign in again.');
    const grant = await trx
      .selectFrom('oauth_grants')
      .selectAll()
      .where('id', '=', token.grant_id)
      .executeTakeFirstOrThrow();
    // Another client's presentation proves nothing about the token's owner: refused, nothing spent or revoked.
    if (grant.client_id !== input.clientId)
      return new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
    if (grant.revoked_at !== null) return new OAuthError('invalid_grant', 'This sign-in was revoked: sign in again.');
    if (token.used_at !== null) return refuseRefreshReuse(trx, grant.id, nowMs);
    if (token.revoked_at !== null)
      return new OAuthError('invalid_grant', 'The refresh token was revoked: sign in again.');
    if (token.expires_at.getTime() <= nowMs || familyExpiresAt(grant) <= nowMs) {
      return new OAuthError(
        'invalid_grant',
        `The refresh token expired (a sign-in lasts ${REFRESH_TOKEN_TTL_SECONDS / 86_400} days from its authorization, whatever the refreshes): sign in again.`,
      );
    }
    const accessScope = refreshScope(input.scope, grant.scope);
    if (accessScope instanceof OAuthError) return accessScope;
    // The atomic claim: of two concurrent refreshes with one token, one spends it here, the other is a reuse.
    const claimed = await trx
      .updateTable('oauth_tokens')
      .set({ used_at: new Date(nowMs) })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returning('token_hash')
      .executeTakeFirst();
    if (claimed === undefined) return refuseRefreshReuse(trx, grant.id, nowMs);
    return issueTokens(trx, grant, accessScope, nowMs);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/**
 * Revokes a token (RFC 7009): a refresh token revokes its whole family, an access token itself only. Unknown
 * tokens and tokens of other clients are ignored (the answer is the same, RFC 7009 2.2).
 */
export async function revokeToken(db: PublicDb, token: string, clientId: string, nowMs: number): Promise<void> {
  const row = await db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .select(['oauth_tokens.token_hash', 'oauth_tokens.kind', 'oauth_tokens.grant_id', 'oauth_grants.client_id'])
    .where('oauth_tokens.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (row === undefined || row.client_id !== clientId) return;
  if (row.kind === 'refresh') await revokeGrant(db, row.grant_id, 'revoked_by_client', nowMs);
  else
    await db
      .updateTable('oauth_tokens')
      .set({ revoked_at: new Date(nowMs) })
      .where('token_hash', '=', row.token_hash)
      .execute();
}

/** A valid access token's meaning. */
export interface AccessGrant {
  readonly userId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: Date;
  readonly grantId: string;
}

/** The outcome of checking an access token. */
export type AccessCheck =
  | { readonly ok: true; readonly grant: AccessGrant }
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'revoked' };

/** Checks a Bearer access token (RFC 6750): known, not expired, not revoked (itself or its family). */
export async function verifyAccessToken(db: PublicExecutor, token: string, nowMs: number): Promise<AccessCheck> {
  if (token.length > 200) return { ok: false, reason: 'unknown' };
  const row = await db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .select([
      'oauth_tokens.scope',
      'oauth_tokens.expires_at',
      'oauth_tokens.revoked_at',
      'oauth_grants.revoked_at as grant_revoked_at',
      'oauth_grants.user_id',
      'oauth_grants.client_id',
      'oauth_grants.id as grant_id',
    ])
    .where('oauth_tokens.token_hash', '=', hashSecret(token))
    .where('oauth_tokens.kind', '=', 'access')
    .executeTakeFirst();
  if (row === undefined) return { ok: false, reason: 'unknown' };
  if (row.revoked_at !== null || row.grant_revoked_at !== null) return { ok: false, reason: 'revoked' };
  if (row.expires_at.getTime() <= nowMs) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    grant: {
      userId: row.user_id,
      clientId: row.client_id,
      scopes: row.scope.split(' ').filter(Boolean),
      expiresAt: row.expires_at,
      grantId: row.grant_id,
    },
  };
}
