/**
 * Migration 0002: two-phase payments. `payment_phase` says where an intent's money is: `authorized` (held, not
 * taken), `captured` (taken), `voided` (hold released: nothing taken); null for one-phase adapters. A recorded
 * intent still `authorized` is unfinished: the recovery pass captures it (or refunds the order and voids).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bff_order_intents')
    .addColumn('payment_phase', 'text', (c) =>
      c.check(sql`payment_phase is null or payment_phase in ('authorized', 'captured', 'voided', 'void_failed')`),
    )
    .execute();
}
