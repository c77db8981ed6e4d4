/**
 * Migration 0045: the steps of an order the partner's `onOrderEvent` hook was told of (purchase/order-steps.ts), one
 * row per order and event type (`order.transfer_started`, …), so each step reaches the hook once however often its event is delivered.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bff_order_steps')
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('bff_order_steps_pk', ['order_id', 'event_type'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bff_order_steps').ifExists().execute();
}
