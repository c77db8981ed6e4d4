/**
 * Quotes in the BFF database: each quote the marketplace gave (`POST /quotes`, Partner API spec 2.2) is stored, and the
 * stored quote is the only source of the price `POST /orders` charges.
 */
import type { Selectable } from 'kysely';
import type { BffDb, QuoteTable } from '../db/tables.ts';

/** A quote as read. */
export type StoredQuote = Selectable<QuoteTable>;

/** A quote as the marketplace answered it. */
export interface UpstreamQuote {
  readonly quote_id: string;
  readonly domain: string;
  readonly price_cents: number;
  readonly currency: string;
  /** ISO 8601 UTC. */
  readonly expires_at: string;
}

/** Stores a quote obtained upstream; a quote id already stored is left as it is. */
export async function insertQuote(db: BffDb, quote: UpstreamQuote, now: Date): Promise<void> {
  await db
    .insertInto('bff_quotes')
    .values({ ...quote, created_at: now })
    .onConflict((oc) => oc.column('quote_id').doNothing())
    .execute();
}

/** A stored quote, or undefined. */
export async function findQuote(db: BffDb, quoteId: string): Promise<StoredQuote | undefined> {
  return db.selectFrom('bff_quotes').selectAll().where('quote_id', '=', quoteId).executeTakeFirst();
}
