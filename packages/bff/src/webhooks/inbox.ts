/**
 * The webhook inbox (Partner API spec 6 "Rules for receivers"): every event, delivered by webhook or fetched by catch-up, is
 * stored once under its id before anything else happens; a worker then applies it to the order it names and runs
 * the partner's handlers. An event delivered twice, in parallel or out of order is stored once and handled once;
 * an older event never moves an order back.
 *
 * A handler that throws is retried with back-off (up to `maxAttempts`); a process that dies while handling an
 * event leaves a lease that expires, after which the event is handled again: handlers get the event id to stay
 * idempotent across such crashes (at least once across crashes, exactly once otherwise). The table is
 * `inbox-store.ts`.
 */
import {
  EVENT_TYPES,
  eventOrderSchema,
  type EventType,
  type MarketplaceEvent,
  type MarketplaceEventOf,
} from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { BffDb, EventSource } from '../db/tables.ts';
import type { StoredOrder } from '../purchase/index.ts';
import { applyEventToOrder, claimNextEvent, markEventDone, markEventFailed } from './inbox-store.ts';

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

/** What a handler may be registered for: a known event type (Partner API spec 6), or `*` for every event. */
export type EventHandlerType = EventType | '*';

/**
 * A partner's event handler for `T`: for an event type it receives exactly that event (`order.settled`: a required
 * `event.data.order`), for `*` any {@link MarketplaceEvent}. Runs after the event is stored and applied; a throw
 * makes the BFF run the event's handlers again later.
 */
export type EventHandler<T extends EventHandlerType = EventHandlerType> = (
  event: T extends EventType ? MarketplaceEventOf<T> : MarketplaceEvent,
  context: EventContext,
) => void | Promise<void>;

/** `onEvent`: handlers (one, or an array) by event type or `*`, each typed for its event. */
export type EventHandlerMap = {
  readonly [T in EventHandlerType]?: EventHandler<T> | readonly EventHandler<T>[];
};

/** The types a handler may be registered for: {@link EVENT_TYPES} and `*`. */
export const HANDLER_TYPES: readonly EventHandlerType[] = [...EVENT_TYPES, '*'];

/** Handlers by event type; `*` receives every event. */
export class EventHandlers {
  readonly #byType = new Map<string, EventHandler[]>();

  /** Adds a handler for `type` (`order.settled`, …) or `*` (the caller checked the type: {@link HANDLER_TYPES}). */
  on(type: EventHandlerType, handler: EventHandler): void {
    const list = this.#byType.get(type) ?? [];
    list.push(handler);
    this.#byType.set(type, list);
  }

  /** The handlers for an event type, specific ones first. */
  for(type: string): EventHandler[] {
    return [...(this.#byType.get(type) ?? []), ...(this.#byType.get('*') ?? [])];
  }
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

/** Timings of the webhook inbox worker (ms). */
export interface InboxTimings {
  /** How long one process may work on an event before another may take it over; default 5 minutes. */
  readonly leaseMs: number;
  /** Runs of a failing event's handlers before it is marked `failed`; default 8. */
  readonly maxAttempts: number;
  /** First back-off of a failing event (then doubled per attempt); default 2 s. */
  readonly retryBaseMs: number;
  /** Longest back-off of a failing event; default 10 minutes. */
  readonly retryMaxMs: number;
  /** Shortest delay before the worker looks at the inbox again for the next due event; default 50 ms. */
  readonly minRescheduleMs: number;
  /** `limit` of each `GET /events` page of catch-up (1–100); default 100. */
  readonly catchUpPageLimit: number;
}

/** Settings of the inbox worker. */
export interface InboxSettings {
  readonly db: BffDb;
  /** Only this credential's events are handled. */
  readonly keyId: string;
  readonly handlers: EventHandlers;
  readonly logger: Logger;
  readonly now: () => number;
  /** Lease, attempts and back-off of the worker. */
  readonly timings: Pick<InboxTimings, 'leaseMs' | 'maxAttempts' | 'retryBaseMs' | 'retryMaxMs'>;
}

/** Back-off between runs of a failing event: `baseMs` (2 s), doubled per attempt, capped at `maxMs` (10 minutes). */
export function eventRetryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 12));
}

/**
 * Handles due events one at a time, oldest first, until none is due.
 * @returns how many events were handled (successfully or not).
 */
export async function processInbox(
  settings: InboxSettings,
  options: { signal?: AbortSignal; limit?: number } = {},
): Promise<number> {
  const { db, logger, timings } = settings;
  const now = () => new Date(settings.now());
  let handled = 0;
  while (!options.signal?.aborted && handled < (options.limit ?? Infinity)) {
    const row = await claimNextEvent(db, settings.keyId, now(), new Date(settings.now() + timings.leaseMs));
    if (row === undefined) break;
    handled++;
    const event = JSON.parse(row.payload) as MarketplaceEvent;
    try {
      let applied = row.applied;
      let order: StoredOrder | undefined;
      const parsedOrder = eventOrderSchema.safeParse(event.data?.order);
      if (parsedOrder.success) {
        const result = await applyEventToOrder(
          db,
          row,
          { id: event.id, createdAt: new Date(event.created_at), order: parsedOrder.data },
          now(),
        );
        applied ??= result.moved;
        order = result.order;
      }
      const context: EventContext = { order, applied: applied ?? false, source: row.source, attempt: row.attempts };
      for (const handler of settings.handlers.for(event.type)) await handler(event as never, context);
      await markEventDone(db, row, now());
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const failed = row.attempts >= timings.maxAttempts;
      await markEventFailed(db, row, {
        failed,
        error: message,
        retryAt: new Date(settings.now() + eventRetryDelayMs(row.attempts, timings.retryBaseMs, timings.retryMaxMs)),
      });
      logger[failed ? 'error' : 'warn'](
        { event: row.event_id, type: row.type, attempt: row.attempts, error: message },
        failed ? 'event handler failed for good' : 'event handler failed; will retry',
      );
    }
  }
  return handled;
}
