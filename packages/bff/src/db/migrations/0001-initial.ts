/**
 * Migration 0001: settings, quotes, order intents, orders, the webhook inbox and the upstream token buckets.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bff_quotes')
    .addColumn('quote_id', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'bigint', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bff_order_intents')
    .addColumn('intent_id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('quote_id', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('buyer', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('created', 'paid', 'recorded', 'declined', 'rejected', 'abandoned')`),
    )
    .addColumn('payment_reference', 'text')
    .addColumn('request_body', 'text')
    .addColumn('order_id', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('refund_state', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('lease_until', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'bff_order_intents_paid_has_body',
      sql`state not in ('paid', 'recorded') or request_body is not null`,
    )
    .execute();
  // One live intent per quote: a double-clicked "Pay" can charge the buyer only once.
  await sql`create unique index bff_order_intents_live_quote on bff_order_intents (quote_id) where state in ('created', 'paid', 'recorded')`.execute(
    db,
  );
  await db.schema
    .createIndex('bff_order_intents_recovery')
    .on('bff_order_intents')
    .columns(['key_id', 'state', 'lease_until'])
    .execute();
  await db.schema.createIndex('bff_order_intents_order_id').on('bff_order_intents').column('order_id').execute();

  await db.schema
    .createTable('bff_orders')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sale_price_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status_rank', 'integer', (c) => c.notNull())
    .addColumn('last_event_at', 'timestamptz')
    .addColumn('last_event_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bff_events')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('event_created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('webhook', 'catch_up')`))
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'processing', 'done', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('applied', 'boolean')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('lease_until', 'timestamptz')
    .addColumn('processed_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('bff_events_pkey', ['key_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('bff_events_work')
    .on('bff_events')
    .columns(['key_id', 'state', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('bff_buckets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('updated_ms', 'double precision', (c) => c.notNull())
    .addColumn('blocked_until_ms', 'double precision', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['bff_buckets', 'bff_events', 'bff_orders', 'bff_order_intents', 'bff_quotes', 'bff_meta']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
