/**
 * Aftermarket listings (Public API spec 4.2 `GET /api/market/listings`): the domains listed for sale, newest first, with an
 * optional TLD filter, paged by cursor (`page.next_cursor`) or by offset.
 *
 * Cursor paging is keyset pagination on `(listed_at DESC, name ASC)`: the cursor names the last listing of the
 * page, so listings added meanwhile (which are newer, hence before the cursor) never shift, repeat or skip the pages
 * that follow. Offset paging counts from the start at each request, so concurrent inserts shift it: use the cursor
 * to walk the whole list.
 */
import { boundedTimestampSchema, policyText } from '@domainkit/protocol';
import { z } from 'zod';
import { apiError } from '../http/api-error.ts';
import { PUBLIC_ENVIRONMENT } from './registry-state.ts';
import type { PublicListingsPage } from '@domainkit/protocol';
import type { Viewer } from './search.ts';
import type { PublicExecutor } from '../db/public-tables.ts';

/**
 * The decoded cursor: the last listing of the previous page, and the filter it was issued under. A forged cursor is
 * held to the input policy like any other input (dates in years 0001–9999, text without control characters), so
 * nothing in it reaches the database unchecked.
 */
const cursorSchema = z.object({
  v: z.literal(1),
  t: boundedTimestampSchema,
  n: policyText(z.string().min(1).max(253)),
  f: policyText(z.string().max(63)).nullable(),
});
type Cursor = z.infer<typeof cursorSchema>;

/** Encodes a cursor (opaque to clients: base64url JSON). */
export function encodeListingCursor(cursor: Omit<Cursor, 'v'>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor }), 'utf8').toString('base64url');
}

function decodeCursor(raw: string, tld: string | null): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success)
    throw apiError(
      'validation_error',
      'cursor is not valid: pass page.next_cursor exactly as received, or leave it out for the first page.',
    );
  if (result.data.f !== tld) {
    throw apiError(
      'validation_error',
      `cursor was issued for ${result.data.f === null ? 'no tld filter' : `tld=${result.data.f}`}: keep the same filter while following it.`,
    );
  }
  return result.data;
}

/** A listings query. */
export interface ListingsQuery {
  readonly tld?: string | undefined;
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly offset?: number | undefined;
}

/**
 * Reads one page of listings.
 * @throws {ProtocolError} `validation_error` when both `cursor` and `offset` are given, or the cursor is malformed
 *   or was issued under another filter.
 */
export async function listListings(
  db: PublicExecutor,
  query: ListingsQuery,
  viewer: Viewer,
): Promise<PublicListingsPage> {
  if (query.cursor !== undefined && query.offset !== undefined) {
    throw apiError('validation_error', 'Use either cursor (follow page.next_cursor) or offset, not both.');
  }
  const tld = query.tld?.replace(/^\./, '') ?? null;
  let base = db.selectFrom('domains').where('environment', '=', PUBLIC_ENVIRONMENT).where('status', '=', 'listed');
  if (tld !== null) base = base.where('tld', '=', tld);

  let pageQuery = base
    .selectAll()
    .orderBy('listed_at', 'desc')
    .orderBy('name', 'asc')
    .limit(query.limit + 1);
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor, tld);
    const at = new Date(cursor.t);
    pageQuery = pageQuery.where((eb) =>
      eb.or([eb('listed_at', '<', at), eb.and([eb('listed_at', '=', at), eb('name', '>', cursor.n)])]),
    );
  } else if (query.offset !== undefined) {
    pageQuery = pageQuery.offset(query.offset);
  }
  const [rows, count] = await Promise.all([
    pageQuery.execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    listings: page.map((row) => ({
      domain: row.name,
      tld: row.tld,
      listed_at: row.listed_at.toISOString(),
      price_cents: viewer.pricesVisible ? row.price_cents : null,
      currency: 'USD' as const,
      price_masked: !viewer.pricesVisible,
    })),
    page: {
      limit: query.limit,
      next_cursor:
        rows.length > query.limit && last !== undefined
          ? encodeListingCursor({ t: last.listed_at.toISOString(), n: last.name, f: tld })
          : null,
      offset: query.offset ?? null,
      total: Number(count.n),
    },
  };
}
