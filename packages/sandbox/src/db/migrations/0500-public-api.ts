/**
 * Migration 0500: the Public API (Public API spec 4.2) and its OAuth 2.1 sign-in (Public API spec 5.2): sandbox users and the domains
 * they own (bulk operations), registered OAuth clients (RFC 7591), authorization codes, grants (token families)
 * and tokens (stored as SHA-256 hashes, never in the clear), and the Public API's rate-limit windows.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sandbox_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sandbox_user_domains')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('sandbox_users.id').onDelete('cascade'))
    .addColumn('tld', 'text', (c) => c.notNull())
    .addColumn('locked', 'boolean', (c) => c.notNull())
    .addColumn('auto_renew', 'boolean', (c) => c.notNull())
    .addColumn('nameservers', sql`text[]`, (c) => c.notNull())
    .addColumn('registered_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_user_domains_user_idx')
    .on('sandbox_user_domains')
    .columns(['user_id', 'name'])
    .execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('client_name', 'text')
    .addColumn('client_uri', 'text')
    .addColumn('software_id', 'text')
    .addColumn('software_version', 'text')
    .addColumn('redirect_uris', sql`text[]`, (c) => c.notNull())
    .addColumn('grant_types', sql`text[]`, (c) => c.notNull())
    .addColumn('response_types', sql`text[]`, (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('sandbox_users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('oauth_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('sandbox_users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('code_hash', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('access', 'refresh')`))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('oauth_tokens_grant_idx').on('oauth_tokens').column('grant_id').execute();

  await db.schema
    .createTable('public_rate_windows')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('public_rate_windows_pkey', ['bucket', 'subject', 'window_start'])
    .execute();

  // Aftermarket listings are paged newest first on (listed_at, name) (keyset pagination).
  await db.schema
    .createIndex('domains_listing_order_idx')
    .on('domains')
    .columns(['environment', 'status', 'listed_at', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('domains_listing_order_idx').ifExists().execute();
  for (const table of [
    'public_rate_windows',
    'oauth_tokens',
    'oauth_grants',
    'oauth_codes',
    'oauth_clients',
    'sandbox_user_domains',
    'sandbox_users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
