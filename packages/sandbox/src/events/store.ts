/**
 * The event history (Partner API spec 2.5, 6): every change a partner must hear about is stored as an event in the transaction
 * that makes the change, together with one delivery row per active webhook endpoint (the outbox, delivered by
 * events/outbox.ts). The history is read back with `GET /events`.
 *
 * Event ids are `evt_` + the 12-digit creation sequence (`evt_000000000042`): they sort in creation order, and any
 * well-formed id is a position in the history (an id past the end gives an empty page). Events are written under a
 * transaction-scoped advisory lock, so they become visible in sequence order even across processes sharing one
 * PostgreSQL: a reader paging with `after_id` never skips an event that commits later with a smaller number.
 */
import { EventEmitter } from 'node:events';
import type { EventType } from '@domainkit/protocol';
import { sql } from 'kysely';
import type { EventRow, SandboxExecutor, SandboxTrx } from '../db/tables.ts';
import { apiError } from '../http/api-error.ts';

/** Webhook delivery attempts per event before it is marked failed (events/outbox.ts documents the schedule). */
export const MAX_DELIVERY_ATTEMPTS = 8;

/** Emits `'emitted'` after an event is committed in this process (wakes the outbox worker). */
export const eventSignals = new EventEmitter();
eventSignals.setMaxListeners(0);

const MAX_SEQ = 2_147_483_647;

/** The event id of a sequence number. */
export function eventId(seq: number): string {
  return `evt_${String(seq).padStart(12, '0')}`;
}

/**
 * The sequence number of an event id.
 * @throws {ProtocolError} `validation_error` for a malformed id.
 */
export function eventSeq(id: string): number {
  const match = /^evt_(\d{1,15})$/.exec(id);
  if (!match)
    throw apiError(
      'validation_error',
      'after_id must be an event id such as "evt_000000000042" (the id of the last event you processed).',
    );
  // Sequence numbers are 32-bit: an id beyond them is simply past the end of the history.
  return Math.min(Number(match[1]), MAX_SEQ);
}

/** An event as delivered and listed (Partner API spec 2.5). */
export interface WireEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
  readonly partner_id: string;
  readonly data: Record<string, unknown>;
}

/** The wire form of a stored event (its payload, parsed). */
export function toWireEvent(row: Pick<EventRow, 'payload'>): WireEvent {
  return JSON.parse(row.payload) as WireEvent;
}

/** What {@link emitEvent} needs. */
export interface EmitEventInput {
  readonly keyId: string;
  readonly partnerId: string;
  readonly type: EventType;
  readonly data: Record<string, unknown>;
  readonly now: Date;
}

/** How long the out-of-order fault holds an event's first delivery back (sandbox-clock milliseconds). */
export const OUT_OF_ORDER_HOLD_MS = 1500;

/**
 * Stores an event and queues its webhook delivery (when the credential has an active endpoint), inside the caller's
 * transaction. The caller signals `eventSignals` after commit (see {@link announceEvents}).
 * @returns the event as delivered.
 */
export async function emitEvent(trx: SandboxTrx, input: EmitEventInput): Promise<WireEvent> {
  await sql`select pg_advisory_xact_lock(7276100002)`.execute(trx);
  const next = await sql<{ seq: number }>`select nextval(pg_get_serial_sequence('events', 'seq'))::int as seq`.execute(
    trx,
  );
  const seq = next.rows[0]!.seq;
  const event: WireEvent = {
    id: eventId(seq),
    type: input.type,
    created_at: input.now.toISOString(),
    partner_id: input.partnerId,
    data: input.data,
  };
  await trx
    .insertInto('events')
    .values({
      seq,
      key_id: input.keyId,
      partner_id: input.partnerId,
      type: input.type,
      payload: JSON.stringify(event),
      created_at: input.now,
    })
    .execute();
  const endpoint = await trx
    .selectFrom('webhook_endpoints')
    .select('key_id')
    .where('key_id', '=', input.keyId)
    .where('active', '=', true)
    .executeTakeFirst();
  if (endpoint !== undefined) {
    const faults = await trx
      .selectFrom('fault_settings')
      .select('out_of_order_rate')
      .where('id', '=', 1)
      .executeTakeFirst();
    const holdBack =
      faults !== undefined && faults.out_of_order_rate > 0 && Math.random() < faults.out_of_order_rate
        ? OUT_OF_ORDER_HOLD_MS
        : 0;
    await trx
      .insertInto('webhook_deliveries')
      .values({
        event_seq: seq,
        key_id: input.keyId,
        status: 'pending',
        max_attempts: MAX_DELIVERY_ATTEMPTS,
        next_attempt_at: new Date(input.now.getTime() + holdBack),
        created_at: input.now,
      })
      .execute();
  }
  return event;
}

/** Wakes the outbox workers of this process once events have been committed. */
export function announceEvents(events: readonly WireEvent[]): void {
  if (events.length > 0) eventSignals.emit('emitted');
}

/**
 * A page of a credential's events after a position, in creation order.
 * @returns `events` and `next_cursor`: the id of the page's last event when more events follow it, else null
 *   (caught up: poll again later with the id of the last event you processed).
 */
export async function listEvents(
  db: SandboxExecutor,
  keyId: string,
  afterSeq: number,
  limit: number,
): Promise<{ events: WireEvent[]; next_cursor: string | null }> {
  const rows = await db
    .selectFrom('events')
    .select(['seq', 'payload'])
    .where('key_id', '=', keyId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    events: page.map(toWireEvent),
    next_cursor: rows.length > limit && last !== undefined ? eventId(last.seq) : null,
  };
}
