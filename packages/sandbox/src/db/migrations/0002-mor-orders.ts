/**
 * Migration 0002: MoR quotes and orders (Partner API spec 2.1, 2.2, 3, 4.1 "MoR"): quotes that reserve a domain, orders with
 * their timeline, refunds, and the idempotency keys of `POST /orders`.
 *
 * Integrity the database enforces itself, so it holds across processes sharing one PostgreSQL:
 * - one live order per domain and environment (a partial unique index; refunded and cancelled orders free it);
 * - one idempotency key per credential (the primary key), claimed by the request that inserts it first.
 */
import { sql, type Kysely } from 'kysely';

const ORDER_STATUSES =
  "'EXTERNALLY_PAID', 'HELD_FOR_REVIEW', 'TRANSFER_IN_PROGRESS', 'TRANSFER_COMPLETED', 'SETTLED', 'REFUNDED', 'CANCELLED'";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .execute();
  await db.schema
    .createIndex('quotes_domain_idx')
    .on('quotes')
    .columns(['environment', 'domain', 'expires_at'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('public_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull().unique().generatedByDefaultAsIdentity())
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql.raw(`status in (${ORDER_STATUSES})`)))
    .addColumn('sale_price_cents', 'integer', (c) => c.notNull().check(sql`sale_price_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('commission_cents', 'integer', (c) => c.notNull())
    .addColumn('quote_id', 'text')
    .addColumn('external_payment_ref', 'text')
    .addColumn('buyer_email', 'text')
    .addColumn('buyer_name', 'text')
    .addColumn('buyer_country', 'text')
    .addColumn('return_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('transfer_completed_at', 'timestamptz')
    .addColumn('settled_at', 'timestamptz')
    .addColumn('settlement_id', 'text')
    .execute();
  await sql`create unique index orders_live_domain_idx on orders (environment, domain) where status not in ('REFUNDED', 'CANCELLED')`.execute(
    db,
  );
  await db.schema.createIndex('orders_key_seq_idx').on('orders').columns(['key_id', 'seq']).execute();

  await db.schema
    .createTable('order_timeline')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('public_id', 'text', (c) => c.notNull().references('orders.public_id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text')
    .addColumn('event_id', 'text')
    .addColumn('note', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_timeline_order_idx').on('order_timeline').columns(['public_id', 'id']).execute();

  await db.schema
    .createTable('refunds')
    .addColumn('refund_id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.public_id').onDelete('cascade'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key_id', 'text', (c) => c.notNull().references('credentials.key_id').onDelete('cascade'))
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['key_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}
