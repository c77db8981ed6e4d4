/**
 * A credential's event cursor in the BFF database (`bff_meta`): the id of the last event catch-up stored
 * (Partner API spec 4.1 `GET /events` `after_id`).
 */
import type { BffDb } from '../db/tables.ts';

/** The `bff_meta` key of a credential's event cursor. */
export function eventsCursorKey(keyId: string): string {
  return `events_cursor:${keyId}`;
}

/** Reads a credential's stored cursor; undefined before its first catch-up. */
export async function readEventsCursor(db: BffDb, keyId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('bff_meta')
    .select('value')
    .where('key', '=', eventsCursorKey(keyId))
    .executeTakeFirst();
  return row?.value;
}

/** Moves the cursor from `from` to `to` (compare-and-set); false when another process moved it meanwhile. */
export async function advanceEventsCursor(
  db: BffDb,
  keyId: string,
  from: string | undefined,
  to: string,
): Promise<boolean> {
  const key = eventsCursorKey(keyId);
  if (from === undefined) {
    const inserted = await db
      .insertInto('bff_meta')
      .values({ key, value: to })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    return inserted !== undefined;
  }
  const updated = await db
    .updateTable('bff_meta')
    .set({ value: to })
    .where('key', '=', key)
    .where('value', '=', from)
    .returning('key')
    .executeTakeFirst();
  return updated !== undefined;
}
