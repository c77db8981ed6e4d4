/**
 * Cursor pagination of the Partner API's lists (docs/architecture.md "Lists": `{<plural>: [...], next_cursor}`; parameters
 * `cursor` and `limit`, 1–100, default 50). A cursor is opaque to the caller: `base64url(JSON [kind, ...position])`,
 * where the position is the sort key of the last item of the previous page (keyset pagination, so pages never
 * repeat or skip an item even while new items arrive).
 */
import { DATE_RANGE, INT32_MAX, textProblem } from '@domainkit/protocol';
import { apiError } from './api-error.ts';

/** A position in a list: the sort key values of its last item. */
export type CursorPosition = ReadonlyArray<string | number>;

/**
 * The type of one sort key value of a cursor, bounded by what its column stores (protocol's input policy):
 * - `seq`: an `integer` column (a sequence number), 0 to 2147483647;
 * - `instant`: a `timestamptz` column as epoch milliseconds, in the years 0001 to 9999;
 * - `text`: a `text` column (an id), at most 200 characters under the text policy.
 */
export type CursorKey = 'seq' | 'instant' | 'text';

/** True when `value` is a value of `key` that its column can hold. */
function fitsKey(key: CursorKey, value: unknown): boolean {
  switch (key) {
    case 'seq':
      return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= INT32_MAX;
    case 'instant':
      return Number.isSafeInteger(value) && (value as number) >= DATE_RANGE.min && (value as number) <= DATE_RANGE.max;
    case 'text':
      return typeof value === 'string' && value.length <= 200 && textProblem(value) === undefined;
  }
}

/** Encodes the position after an item of list `kind` (for example `orders`). */
export function encodeCursor(kind: string, position: CursorPosition): string {
  return Buffer.from(JSON.stringify([kind, ...position])).toString('base64url');
}

/**
 * Decodes a cursor of list `kind`. A forged cursor may carry what a client could not send directly (a number past
 * its column, a date outside 0001–9999, a NUL): each value is checked against its column's range, so the database
 * never sees it.
 * @param shape - the key type of each position value ({@link CursorKey}).
 * @throws {ProtocolError} `validation_error` when the cursor was not issued by this list.
 */
export function decodeCursor(kind: string, cursor: string, shape: ReadonlyArray<CursorKey>): Array<string | number> {
  const invalid = () =>
    apiError(
      'validation_error',
      `cursor is not a cursor of this list: pass the next_cursor of a previous ${kind} page unchanged.`,
    );
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed[0] !== kind || parsed.length !== shape.length + 1) throw invalid();
  const values = parsed.slice(1) as unknown[];
  values.forEach((v, i) => {
    if (!fitsKey(shape[i]!, v)) throw invalid();
  });
  return values as Array<string | number>;
}

/**
 * Splits `limit + 1` fetched rows into a page and its `next_cursor` (null on the last page).
 * @param position - the sort key of an item, encoded into the cursor of the last item of the page.
 */
export function pageOf<T>(
  kind: string,
  rows: readonly T[],
  limit: number,
  position: (row: T) => CursorPosition,
): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(kind, position(last)) : null };
}
