/**
 * Row types of the tables of migration 0500 (the Public API and its OAuth 2.1 sign-in), and {@link publicDb}, the
 * sandbox's query builder widened with them. Timestamps are `timestamptz` (read back as `Date`); tokens, codes and
 * passwords are never stored in the clear (SHA-256 for high-entropy tokens and codes, scrypt for passwords).
 */
import type { ColumnType, Kysely, Selectable, Transaction } from 'kysely';
import type { SandboxDatabase, SandboxDb } from './tables.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A person who signs in on the consent page (`usr_…`). */
export interface SandboxUserTable {
  id: string;
  /** Lowercased. */
  email: string;
  name: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts). */
  password_hash: string;
  created_at: Timestamp;
}

/** A domain registration owned by a sandbox user: the target of `POST /api/domains/bulk/{op}`. */
export interface SandboxUserDomainTable {
  name: string;
  user_id: string;
  tld: string;
  /** Registrar lock (`clientTransferProhibited`). */
  locked: boolean;
  auto_renew: boolean;
  nameservers: string[];
  registered_at: Timestamp;
  expires_at: Timestamp;
  updated_at: Timestamp;
}

/** A client registered through RFC 7591 dynamic registration: always public (`token_endpoint_auth_method: none`). */
export interface OAuthClientTable {
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  software_id: string | null;
  software_version: string | null;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  /** Space-separated scopes the client may request. */
  scope: string;
  created_at: Timestamp;
}

/** An authorization code (60 s, single use), bound to its client, redirect URI and PKCE challenge (RFC 7636). */
export interface OAuthCodeTable {
  /** SHA-256 (base64url) of the code. */
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  /** The S256 `code_challenge`. */
  code_challenge: string;
  scope: string;
  /** RFC 8707 resource indicator sent with the authorization request, if any. */
  resource: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A grant: what one authorization code issued; every access and refresh token of one family belongs to it. */
export interface OAuthGrantTable {
  /** `grt_…`. */
  id: string;
  client_id: string;
  user_id: string;
  /** The scope the user consented to; refreshes may narrow it, never widen it. */
  scope: string;
  resource: string | null;
  code_hash: string | null;
  created_at: Timestamp;
  /** Set when the family is revoked (refresh token reuse, code reuse, revocation): every token of it stops working. */
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
}

/** An access token (30 min) or refresh token (30 days, single use: rotated on every refresh). */
export interface OAuthTokenTable {
  /** SHA-256 (base64url) of the token. */
  token_hash: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  scope: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** For a refresh token: when it was exchanged (rotated). A second use revokes the family. */
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** One fixed window of a rate limit: `count` units used by `subject` in `bucket` since `window_start`. */
export interface PublicRateWindowTable {
  bucket: string;
  subject: string;
  window_start: Timestamp;
  count: number;
}

/** The tables of migration 0500. */
export type PublicApiTables = {
  sandbox_users: SandboxUserTable;
  sandbox_user_domains: SandboxUserDomainTable;
  oauth_clients: OAuthClientTable;
  oauth_codes: OAuthCodeTable;
  oauth_grants: OAuthGrantTable;
  oauth_tokens: OAuthTokenTable;
  public_rate_windows: PublicRateWindowTable;
};

/** The sandbox database with the Public API's tables. */
export type PublicDatabase = SandboxDatabase & PublicApiTables;
export type PublicDb = Kysely<PublicDatabase>;
export type PublicExecutor = PublicDb | Transaction<PublicDatabase>;

export type SandboxUserRow = Selectable<SandboxUserTable>;
export type SandboxUserDomainRow = Selectable<SandboxUserDomainTable>;
export type OAuthClientRow = Selectable<OAuthClientTable>;
export type OAuthCodeRow = Selectable<OAuthCodeTable>;
export type OAuthGrantRow = Selectable<OAuthGrantTable>;
export type OAuthTokenRow = Selectable<OAuthTokenTable>;

/** The sandbox's query builder, typed with the Public API's tables too (same connection). */
export function publicDb(db: SandboxDb): PublicDb {
  return db.withTables<PublicApiTables>();
}
