/**
 * The webhook inbox (spec 6 "Rules for receivers"): every event, delivered by webhook or fetched by catch-up, is
 * stored once under its id before anything else happens; a worker then applies it to the order it names and runs
 * the partner's handlers. An event delivered twice, in parallel or out of order is stored once and handled once;
 * an older event never moves an order back.
 *
 * A handler that throws is retried with back-off (up to `maxAttempts`); a process that dies while handling an
 * event leaves a lease that expires, after which the event is handled again: handlers get the event id to stay
 * idempotent across such crashes (at least once across crashes, exactly once otherwise).
 */
import { eventOrderSchema, type MarketplaceEvent } from '@domainkit/protocol';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { BffDb, EventSource } from '../db/tables.ts';
import { applyOrderEvent, findOrder, type StoredOrder } from '../orders/store.ts';

/** What a handler is told beside the event. */
export interface EventContext {
  /** The order the event names, as the BFF holds it after applying the event (undefined for non-order events). */
  readonly order: StoredOrder | undefined;
  /** True when this event moved the order's state; false for an event older than what was already applied. */
  readonly applied: boolean;
  /** How the event arrived first: `webhook` or `catch_up` (`GET /events`). */
  readonly source: EventSource;
  /** 1 for the first run, more when an earlier run of this event's handlers threw. */
  readonly attempt: number;
}

/**
 * A partner's event handler. Runs after the event is stored and applied; a throw makes the BFF run the event's
 * handlers again later.
 */
export type EventHandler = (event: MarketplaceEvent, context: EventContext) => void | Promise<void>;

/** Handlers by event type; `*` receives every event. */
export class EventHandlers {
  readonly #byType = new Map<string, EventHandler[]>();

  /** Adds a handler for `type` (`order.settled`, …) or `*`. */
  on(type: string, handler: EventHandler): void {
    const list = this.#byType.get(type) ?? [];
    list.push(handler);
    this.#byType.set(type, list);
  }

  /** The handlers for an event type, specific ones first. */
  for(type: string): EventHandler[] {
    return [...(this.#byType.get(type) ?? []), ...(this.#byType.get('*') ?? [])];
  }
}

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
    order_id: event.data.order?.public_id ?? null,
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

/**
 * The distinct domains the events' orders name (`data.order.domain`), lowercased; events without one are skipped.
 * An order event means its domain's availability may have changed.
 */
export function eventDomains(events: readonly MarketplaceEvent[]): string[] {
  const domains = new Set<string>();
  for (const event of events) {
    const domain: unknown = (event.data as { order?: { domain?: unknown } } | undefined)?.order?.domain;
    if (typeof domain === 'string' && domain !== '') domains.add(domain.toLowerCase());
  }
  return [...domains];
}

/** Settings of the inbox worker. */
export interface InboxSettings {
  readonly db: BffDb;
  /** Only this credential's events are handled. */
  readonly keyId: string;
  readonly handlers: EventHandlers;
  readonly logger: Logger;
  readonly now: () => number;
  /** How long one process may work on an event before another may take it over (ms); default 5 minutes. */
  readonly leaseMs?: number | undefined;
  /** Runs of a failing event's handlers before it is marked `failed`; default 8. */
  readonly maxAttempts?: number | undefined;
}

/** Back-off between runs of a failing event: 2 s, 4 s, 8 s … capped at 10 minutes. */
export function eventRetryDelayMs(attempt: number): number {
  return Math.min(600_000, 2_000 * 2 ** Math.min(attempt - 1, 12));
}

/** Takes the oldest due event and leases it; undefined when none is due. */
async function claimNext(db: BffDb, keyId: string, now: Date, leaseUntil: Date) {
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
 * Handles due events one at a time, oldest first, until none is due.
 * @returns how many events were handled (successfully or not).
 */
export async function processInbox(
  settings: InboxSettings,
  options: { signal?: AbortSignal; limit?: number } = {},
): Promise<number> {
  const { db, logger } = settings;
  const leaseMs = settings.leaseMs ?? 300_000;
  const maxAttempts = settings.maxAttempts ?? 8;
  const now = () => new Date(settings.now());
  let handled = 0;
  while (!options.signal?.aborted && handled < (options.limit ?? Infinity)) {
    const row = await claimNext(db, settings.keyId, now(), new Date(settings.now() + leaseMs));
    if (row === undefined) break;
    handled++;
    const event = JSON.parse(row.payload) as MarketplaceEvent;
    try {
      let applied = row.applied;
      let order: StoredOrder | undefined;
      const parsedOrder = eventOrderSchema.safeParse(event.data?.order);
      if (parsedOrder.success) {
        const o = parsedOrder.data;
        const result = await db.transaction().execute(async (trx) => {
          const moved = await applyOrderEvent(
            trx,
            { id: event.id, createdAt: new Date(event.created_at), order: o },
            now(),
          );
          if (applied === null)
            await trx
              .updateTable('bff_events')
              .set({ applied: moved })
              .where('key_id', '=', row.key_id)
              .where('event_id', '=', row.event_id)
              .execute();
          return { moved, order: await findOrder(trx, o.public_id) };
        });
        applied ??= result.moved;
        order = result.order;
      }
      const context: EventContext = { order, applied: applied ?? false, source: row.source, attempt: row.attempts };
      for (const handler of settings.handlers.for(event.type)) await handler(event, context);
      await db
        .updateTable('bff_events')
        .set({ state: 'done', processed_at: now(), lease_until: null, last_error: null })
        .where('key_id', '=', row.key_id)
        .where('event_id', '=', row.event_id)
        .execute();
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const failed = row.attempts >= maxAttempts;
      await db
        .updateTable('bff_events')
        .set({
          state: failed ? 'failed' : 'pending',
          lease_until: null,
          last_error: message.slice(0, 500),
          next_attempt_at: new Date(settings.now() + eventRetryDelayMs(row.attempts)),
        })
        .where('key_id', '=', row.key_id)
        .where('event_id', '=', row.event_id)
        .execute();
      logger[failed ? 'error' : 'warn'](
        { event: row.event_id, type: row.type, attempt: row.attempts, error: message },
        failed ? 'event handler failed for good' : 'event handler failed; will retry',
      );
    }
  }
  return handled;
}
