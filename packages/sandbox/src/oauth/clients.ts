/**
 * Dynamic client registration (RFC 7591, Public API spec 5.2 "no approval"): public clients only. A registration gets a
 * `client_id` and never a secret (`token_endpoint_auth_method: none`); redirect URIs are checked by
 * {@link redirectUriProblem}.
 */
import type { z } from 'zod';
import { randomId } from '../ids.ts';
import { clientRegistrationRequestSchema } from '@domainkit/protocol';
import type { OAuthClientRow, PublicExecutor } from '../db/public-tables.ts';
import { OAuthError } from './errors.ts';
import { redirectUriProblem } from './redirect-uris.ts';
import { OAUTH_SCOPES, formatScope, parseScope } from './scopes.ts';

/** The RFC 7591 client information response of a stored client. */
export function clientInformation(row: OAuthClientRow) {
  return {
    client_id: row.client_id,
    client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
    ...(row.client_name !== null ? { client_name: row.client_name } : {}),
    ...(row.client_uri !== null ? { client_uri: row.client_uri } : {}),
    redirect_uris: row.redirect_uris,
    token_endpoint_auth_method: 'none' as const,
    grant_types: row.grant_types,
    response_types: row.response_types,
    scope: row.scope,
    ...(row.software_id !== null ? { software_id: row.software_id } : {}),
    ...(row.software_version !== null ? { software_version: row.software_version } : {}),
  };
}

function describe(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/**
 * Validates and stores a registration request.
 * @throws {OAuthError} `invalid_redirect_uri` for a missing or unacceptable redirect URI (fragment, http off
 *   loopback, dangerous scheme...), `invalid_client_metadata` for anything else (a confidential auth method,
 *   unsupported grant or response types, unknown scopes).
 */
export async function registerClient(db: PublicExecutor, body: unknown, now: Date): Promise<OAuthClientRow> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError(
      'invalid_client_metadata',
      'Send the client metadata as a JSON object (Content-Type: application/json), with at least redirect_uris.',
    );
  }
  const raw = body as Record<string, unknown>;
  if (!Array.isArray(raw.redirect_uris) || raw.redirect_uris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required: an array of at least one redirect URI.');
  }
  if (raw.token_endpoint_auth_method !== undefined && raw.token_endpoint_auth_method !== 'none') {
    throw new OAuthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method ${JSON.stringify(raw.token_endpoint_auth_method)} is not supported: only public clients ("none") are registered, and no client secret is issued (Public API spec 5.2).`,
    );
  }
  const parsed = clientRegistrationRequestSchema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new OAuthError(
      first.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      parsed.error.issues.map(describe).join('; '),
    );
  }
  const meta = parsed.data;
  meta.redirect_uris.forEach((uri, i) => {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined)
      throw new OAuthError(
        'invalid_redirect_uri',
        `redirect_uris[${i}] ${JSON.stringify(uri.slice(0, 200))} ${problem}.`,
      );
  });
  const grantTypes = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!grantTypes.includes('authorization_code')) {
    throw new OAuthError(
      'invalid_client_metadata',
      'grant_types must include "authorization_code" (the only way to obtain tokens here).',
    );
  }
  let scope = formatScope(OAUTH_SCOPES);
  if (meta.scope !== undefined) {
    const scopes = parseScope(meta.scope);
    if (scopes === undefined || scopes.length === 0) {
      throw new OAuthError(
        'invalid_client_metadata',
        `scope ${JSON.stringify(meta.scope)} is not valid: use scopes among ${OAUTH_SCOPES.join(', ')}, separated by spaces.`,
      );
    }
    scope = formatScope(scopes);
  }
  if (meta.client_uri !== undefined && !/^https?:\/\//.test(meta.client_uri)) {
    throw new OAuthError('invalid_client_metadata', 'client_uri must be an http(s) URL.');
  }
  return db
    .insertInto('oauth_clients')
    .values({
      client_id: randomId('dkcl_', 24),
      client_name: meta.client_name ?? null,
      client_uri: meta.client_uri ?? null,
      software_id: meta.software_id ?? null,
      software_version: meta.software_version ?? null,
      redirect_uris: [...new Set(meta.redirect_uris)],
      grant_types: [...new Set(grantTypes)],
      response_types: ['code'],
      scope,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A registered client, or `undefined`. */
export async function findClient(db: PublicExecutor, clientId: string): Promise<OAuthClientRow | undefined> {
  if (clientId.length > 100) return undefined;
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}
