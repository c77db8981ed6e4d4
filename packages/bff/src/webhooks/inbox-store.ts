/**
 * The webhook inbox in the BFF database (`bff_events`): events stored once under their id, per credential, and
 * leased to one worker at a time (Partner API spec 6 "Rules for receivers"). The worker is `inbox.ts`.
 */
import { sql, type Selectable } from 'kysely';
import type { MarketplaceEvent } from '@domainkit/protocol';
import type { BffDb, EventSource, EventTable } from '../db/tables.ts';
import { applyOrderEvent, findOrder, type EventOrder, type StoredOrder } from '../purchase/index.ts';

/** An inbox row as read. */
export type InboxRow = Selectable<EventTable>;

/** Stores a credential's events; an id already stored is left as it is. @returns how many were new. */
export async function storeEvents(
  db: BffDb,
  keyId: string,
  events: readonly MarketplaceEvent[],
  source: EventSource,
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = events.map((event) => ({
    key_id: keyId,
    event_id: event.id,
    type: event.type,
    // A newer event type than this package knows may carry no order.
    order_id: (event.data as { order?: { public_id?: string } }).order?.public_id ?? null,
    event_created_at: event.created_at,
    payload: JSON.stringify(event),
    source,
    received_at: now,
    state: 'pending' as const,
    next_attempt_at: now,
  }));
  const inserted = await db
    .insertInto('bff_events')
    .values(rows)
    .onConflict((oc) => oc.columns(['key_id', 'event_id']).doNothing())
    .returning('event_id')
    .execute();
  return inserted.length;
}

/** Takes the oldest due event of a credential and leases it until `leaseUntil`; undefined when none is due. */
export async function claimNextEvent(
  db: BffDb,
  keyId: string,
  now: Date,
  leaseUntil: Date,
): Promise<InboxRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const next = await trx
      .selectFrom('bff_events')
      .select('event_id')
      .where('key_id', '=', keyId)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'processing'), eb('lease_until', '<=', now)]),
        ]),
      )
      .orderBy('event_created_at')
      .orderBy('event_id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (next === undefined) return undefined;
    return trx
      .updateTable('bff_events')
      .set({ state: 'processing', lease_until: leaseUntil, attempts: sql`attempts + 1` })
      .where('key_id', '=', keyId)
      .where('event_id', '=', next.event_id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * Applies an event's order to the stored order (see `purchase/status.ts` `movesForward`), in one transaction with
 * noting on the inbox row, the first time, whether it moved the order.
 * @returns whether this application moved the order, and the order as stored after it.
 */
export async function applyEventToOrder(
  db: BffDb,
  row: Pick<InboxRow, 'key_id' | 'event_id' | 'applied'>,
  event: { id: string; createdAt: Date; order: EventOrder },
  now: Date,
): Promise<{ moved: boolean; order: StoredOrder | undefined }> {
  return db.transaction().execute(async (trx) => {
    const moved = await applyOrderEvent(trx, event, now);
    if (row.applied === null)
      await trx
        .updateTable('bff_events')
        .set({ applied: moved })
        .where('key_id', '=', row.key_id)
        .where('event_id', '=', row.event_id)
        .execute();
    return { moved, order: await findOrder(trx, event.order.public_id) };
  });
}

/** Marks a leased event handled. */
export async function markEventDone(db: BffDb, row: Pick<InboxRow, 'key_id' | 'event_id'>, now: Date): Promise<void> {
  await db
    .updateTable('bff_events')
    .set({ state: 'done', processed_at: now, lease_until: null, last_error: null })
    .where('key_id', '=', row.key_id)
    .where('event_id', '=', row.event_id)
    .execute();
}

/** Releases a leased event whose handlers threw: `pending` again from `retryAt`, or `failed` for good. */
export async function markEventFailed(
  db: BffDb,
  row: Pick<InboxRow, 'key_id' | 'event_id'>,
  fields: { failed: boolean; error: string; retryAt: Date },
): Promise<void> {
  await db
    .updateTable('bff_events')
    .set({
      state: fields.failed ? 'failed' : 'pending',
      lease_until: null,
      last_error: fields.error.slice(0, 500),
      next_attempt_at: fields.retryAt,
    })
    .where('key_id', '=', row.key_id)
    .where('event_id', '=', row.event_id)
    .execute();
}

/** When the next pending event of a credential is due, or undefined when none is pending. */
export async function nextPendingEventAt(db: BffDb, keyId: string): Promise<Date | undefined> {
  const next = await db
    .selectFrom('bff_events')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('key_id', '=', keyId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return next?.at == null ? undefined : new Date(next.at);
}

/**
 * A credential's inbox events not yet handled and the age of the oldest, in seconds (metrics:
 * `domainkit_bff_inbox_pending`, `domainkit_bff_inbox_lag_seconds`).
 */
export async function inboxBacklog(
  db: BffDb,
  keyId: string,
  now: Date,
): Promise<{ pending: number; lagSeconds: number }> {
  const row = await db
    .selectFrom('bff_events')
    .select([(eb) => eb.fn.countAll<string>().as('n'), (eb) => eb.fn.min('received_at').as('oldest')])
    .where('key_id', '=', keyId)
    .where('state', 'in', ['pending', 'processing'])
    .executeTakeFirst();
  const oldest = row?.oldest as Date | string | null | undefined;
  return {
    pending: Number(row?.n ?? 0),
    lagSeconds: oldest == null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000),
  };
}
