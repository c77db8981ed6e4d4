/**
 * MoR quotes (Partner API spec 2.2, 4.1 `POST /quotes`): the marketplace locks a domain's buy-now price for 10
 * minutes; the BFF stores the quote and charges only its price. A quote can be paid for while at least the
 * quote margin is left, so the order record still reaches the marketplace before the quote expires.
 */
import type { BffDb } from '../db/tables.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import { type LearnedPrice, upstreamSaysGone } from '../upstream/domain-changes.ts';
import { insertQuote, type StoredQuote, type UpstreamQuote } from './quote-store.ts';

/** What asking for a quote needs. */
export interface QuoteDeps {
  readonly db: () => Promise<BffDb>;
  readonly client: Pick<MarketplaceApi, 'quotes'>;
  /** Clock, ms since the epoch. */
  readonly now: () => number;
  /** Told a domain the marketplace says is sold, reserved or unlisted (drops cached searches). */
  readonly domainChanged: (domain: string) => void;
  /** Told the price a quote locked (corrects cached searches). */
  readonly priceLearned: (price: LearnedPrice) => void;
}

/**
 * Asks the marketplace for a quote and stores it.
 * @throws {BffHttpError} 503 `unavailable` when the database is not available (before any upstream call).
 * @throws {MarketplaceError} 404 `not_found`, 409 `conflict` (either drops the cached searches naming the domain).
 */
export async function requestQuote(deps: QuoteDeps, domain: string): Promise<UpstreamQuote> {
  const db = await deps.db();
  let quote: UpstreamQuote;
  try {
    quote = await deps.client.quotes.create({ domain });
  } catch (error) {
    // Sold, reserved or unlisted: cached searches must stop offering it.
    if (upstreamSaysGone(error)) deps.domainChanged(domain);
    throw error;
  }
  const stored: UpstreamQuote = {
    quote_id: quote.quote_id,
    domain: quote.domain,
    price_cents: quote.price_cents,
    currency: quote.currency,
    expires_at: quote.expires_at,
  };
  await insertQuote(db, stored, new Date(deps.now()));
  // The quote's price is the marketplace's current one: every cached answer listing the domain shows it.
  deps.priceLearned({
    domain: stored.domain,
    available: true,
    price_cents: stored.price_cents,
    currency: stored.currency,
  });
  return stored;
}

/** Whether a stored quote may still be paid for at `nowMs`: at least `marginMs` must be left before it expires. */
export function quoteIsPayable(quote: Pick<StoredQuote, 'expires_at'>, nowMs: number, marginMs: number): boolean {
  return quote.expires_at.getTime() - nowMs >= marginMs;
}
