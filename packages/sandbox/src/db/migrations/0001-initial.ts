/**
 * Migration 0001: the tables of the walking skeleton: settings, credentials, nonces, inventory, checkout sessions
 * and sales. Later migrations add quotes, orders, events, webhook deliveries and rate budgets.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sandbox_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('credentials')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('SANDBOX', 'LIVE')`))
    .addColumn('approved', 'boolean', (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('affiliate_id', 'text')
    .addColumn('label', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('nonces')
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('nonces_pkey', ['key_id', 'nonce'])
    .execute();
  await db.schema.createIndex('nonces_expires_at_idx').on('nonces').column('expires_at').execute();

  await db.schema
    .createTable('domains')
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('SANDBOX', 'LIVE')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('tld', 'text', (c) => c.notNull())
    .addColumn('words', sql`text[]`, (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn('floor_price_cents', 'integer', (c) => c.notNull().check(sql`floor_price_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('listed', 'sold')`))
    .addColumn('listed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sold_at', 'timestamptz')
    .addPrimaryKeyConstraint('domains_pkey', ['environment', 'name'])
    .addCheckConstraint('domains_floor_below_price', sql`floor_price_cents <= price_cents`)
    .execute();
  await db.schema
    .createIndex('domains_environment_label_idx')
    .on('domains')
    .columns(['environment', 'label'])
    .execute();

  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'paid')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('paid_at', 'timestamptz')
    .addForeignKeyConstraint('checkout_sessions_domain_fkey', ['environment', 'domain'], 'domains', [
      'environment',
      'name',
    ])
    .execute();

  await db.schema
    .createTable('sales')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('affiliate_id', 'text')
    .addColumn('payment_model', 'text', (c) => c.notNull().check(sql`payment_model in ('non_mor', 'mor', 'brokerage')`))
    .addColumn('checkout_session_id', 'text', (c) => c.unique().references('checkout_sessions.id'))
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addForeignKeyConstraint('sales_domain_fkey', ['environment', 'domain'], 'domains', ['environment', 'name'])
    .execute();
  await db.schema.createIndex('sales_key_id_created_at_idx').on('sales').columns(['key_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sales', 'checkout_sessions', 'domains', 'nonces', 'credentials', 'sandbox_meta']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
