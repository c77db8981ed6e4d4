/**
 * What the console keeps in the BFF's own database: the reads every BFF process of one credential shares
 * (`bff_console_reads`, migration 0048; see cache.ts), and how each event of the history reached this BFF (the webhook
 * inbox, `bff_events`), for operators. The only console module that writes SQL.
 */
import { sql } from 'kysely';
import type { BffDb } from '../db/tables.ts';
import type { ConsoleReads, StoredRead } from './cache.ts';
import type { ConsoleDeps } from './guard.ts';

/** How often one process deletes its credential's old reads, at most (ms). */
const PRUNE_EVERY_MS = 60_000;

/**
 * The console reads of one credential in the BFF database: shared by every process on one PostgreSQL, kept across
 * restarts on PGlite. Rows older than `keepMs` and those beyond the newest `maxRows` are deleted, at most once a
 * minute per process, when a read is stored.
 */
export class SqlConsoleReads implements ConsoleReads {
  readonly #db: () => Promise<BffDb>;
  readonly #keyId: string;
  readonly #keepMs: number;
  readonly #maxRows: number;
  #prunedMs = 0;

  /**
   * @param db - resolves to the open database.
   * @param keyId - the credential whose rows these are (no other's are read, dropped or pruned).
   * @param limits - `keepMs`: how long a copy is kept to be served stale while the budget is spent; `maxRows`.
   */
  constructor(db: () => Promise<BffDb>, keyId: string, limits: { keepMs: number; maxRows: number }) {
    this.#db = db;
    this.#keyId = keyId;
    this.#keepMs = limits.keepMs;
    this.#maxRows = limits.maxRows;
  }

  async get(key: string): Promise<StoredRead | undefined> {
    const db = await this.#db();
    const row = await db
      .selectFrom('bff_console_reads')
      .select(['value', 'tags', 'read_ms'])
      .where('key_id', '=', this.#keyId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return { value: JSON.parse(row.value) as unknown, at: row.read_ms, tags: row.tags };
  }

  async put(key: string, read: StoredRead): Promise<void> {
    const db = await this.#db();
    await db
      .insertInto('bff_console_reads')
      .values({
        key_id: this.#keyId,
        key,
        value: JSON.stringify(read.value),
        tags: [...read.tags],
        read_ms: read.at,
        refreshing_until_ms: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'key'])
          .doUpdateSet({
            value: (eb) => eb.ref('excluded.value'),
            tags: (eb) => eb.ref('excluded.tags'),
            read_ms: (eb) => eb.ref('excluded.read_ms'),
            refreshing_until_ms: null,
          })
          // Two processes storing one key: the later read wins, whichever finishes last.
          .where(sql<boolean>`bff_console_reads.read_ms <= excluded.read_ms`),
      )
      .execute();
    if (read.at - this.#prunedMs >= PRUNE_EVERY_MS) {
      this.#prunedMs = read.at;
      await this.#prune(db, read.at);
    }
  }

  async claim(key: string, stale: StoredRead, untilMs: number, nowMs: number): Promise<boolean> {
    const db = await this.#db();
    // One statement: of two processes finding the same stale copy, one updates the row, the other finds it claimed.
    const row = await db
      .updateTable('bff_console_reads')
      .set({ refreshing_until_ms: untilMs })
      .where('key_id', '=', this.#keyId)
      .where('key', '=', key)
      .where('read_ms', '=', stale.at)
      .where((eb) => eb.or([eb('refreshing_until_ms', 'is', null), eb('refreshing_until_ms', '<=', nowMs)]))
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  async release(key: string, untilMs: number): Promise<void> {
    const db = await this.#db();
    await db
      .updateTable('bff_console_reads')
      .set({ refreshing_until_ms: null })
      .where('key_id', '=', this.#keyId)
      .where('key', '=', key)
      .where('refreshing_until_ms', '=', untilMs)
      .execute();
  }

  async drop(tags: readonly string[]): Promise<void> {
    const db = await this.#db();
    await db
      .deleteFrom('bff_console_reads')
      .where('key_id', '=', this.#keyId)
      .where(sql<boolean>`tags && ${sql.val([...tags])}::text[]`)
      .execute();
  }

  async #prune(db: BffDb, nowMs: number): Promise<void> {
    await db
      .deleteFrom('bff_console_reads')
      .where('key_id', '=', this.#keyId)
      .where((eb) =>
        eb.or([
          eb('read_ms', '<', nowMs - this.#keepMs),
          eb(
            'key',
            'in',
            eb
              .selectFrom('bff_console_reads')
              .select('key')
              .where('key_id', '=', this.#keyId)
              .orderBy('read_ms', 'desc')
              .offset(this.#maxRows),
          ),
        ]),
      )
      .execute();
  }
}

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
