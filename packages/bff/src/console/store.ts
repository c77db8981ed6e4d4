/**
 * What the console reads of the BFF's own database: how each event of the history reached this BFF (the webhook
 * inbox, `bff_events`), for operators.
 */
import type { ConsoleDeps } from './guard.ts';

/** How the BFF received an event (protocol's `consoleEventDeliverySchema`). */
export interface EventDelivery {
  readonly received_at: string;
  readonly state: string;
  readonly attempts: number;
  readonly handled_at: string | null;
  readonly last_error: string | null;
}

const iso = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v).toISOString());

/**
 * The deliveries of `eventIds` by event id (absent: never received). Without a database, or when it is down, none:
 * the history is still shown.
 */
export async function eventDeliveries(
  deps: Pick<ConsoleDeps, 'db' | 'keyId' | 'logger'>,
  eventIds: readonly string[],
): Promise<Map<string, EventDelivery>> {
  const found = new Map<string, EventDelivery>();
  if (deps.db === undefined || eventIds.length === 0) return found;
  try {
    const db = await deps.db();
    const rows = await db
      .selectFrom('bff_events')
      .selectAll()
      .where('key_id', '=', deps.keyId)
      .where('event_id', 'in', [...eventIds])
      .execute();
    for (const row of rows) {
      found.set(row.event_id, {
        received_at: iso(row.received_at) ?? new Date(0).toISOString(),
        state: row.state,
        attempts: Number(row.attempts),
        handled_at: row.state === 'done' ? iso(row.processed_at) : null,
        last_error: row.last_error,
      });
    }
  } catch (error) {
    deps.logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'console: deliveries unread');
  }
  return found;
}
