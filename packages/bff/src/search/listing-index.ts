/**
 * The listing index: every domain any upstream search answer listed (with its price, availability and when it was
 * seen) in a local full-text index (MiniSearch), so a search that neither the cache nor the budget can serve is
 * answered with the names seen recently that match it. Its answers are flagged `source: "index"`; prices are
 * re-confirmed by the quote or the checkout, as for any search answer.
 *
 * Labels are indexed by every suffix (at least {@link MIN_TERM} characters) and queried by prefix, so a query word
 * matches inside a label (`house` finds `coffeehouse.com`), as the marketplace's own search does (spec 4.1). The
 * words of the queries whose answers listed a domain are indexed too, but only those that occur in the domain's own
 * name, once each and at most {@link MAX_LISTING_TERMS} ({@link nameTerms}): a visitor's other words never become
 * terms of a listed name, so nobody can tie a word of their choice to it for the visitors served from the index.
 */
import MiniSearch from 'minisearch';

/** One listing as seen in an upstream answer. */
export interface SeenListing {
  /** Lowercased domain name. */
  readonly domain: string;
  readonly available: boolean;
  /** Price in cents of `currency`. */
  readonly price_cents: number;
  readonly currency: string;
  /** Words of the queries that listed it that occur in its name ({@link nameTerms}), space-separated. */
  readonly terms: string;
  /** When it was last seen upstream, ms since the epoch. */
  readonly seenMs: number;
}

/** Shortest label suffix indexed and shortest query word searched. */
const MIN_TERM = 2;

/** Most query words kept as index terms of one listing (the first ones seen are kept). */
export const MAX_LISTING_TERMS = 8;

/** A domain's labels, lowercased, with what is not a letter or digit removed (`Coffee-House.com` → coffeehouse, com). */
function nameLabels(domain: string): string[] {
  return domain
    .toLowerCase()
    .split('.')
    .map((label) => label.replace(/[^a-z0-9]/g, ''));
}

/**
 * The index terms of `domain` among `words` (query words, in the order seen): those of at least {@link MIN_TERM}
 * characters that occur inside one of its labels, each once, the first {@link MAX_LISTING_TERMS}; space-separated.
 * `nameTerms('coffeehouse.com', ['cheap', 'coffee', 'house', 'coffee'])` → `"coffee house"`.
 */
export function nameTerms(domain: string, words: Iterable<string>): string {
  const labels = nameLabels(domain);
  const kept = new Set<string>();
  for (const word of words) {
    if (kept.size >= MAX_LISTING_TERMS) break;
    if (word.length >= MIN_TERM && labels.some((label) => label.includes(word))) kept.add(word);
  }
  return [...kept].join(' ');
}

/** A query's words: lowercased runs of letters and digits; the TLD of a domain-shaped query is dropped. */
export function queryWords(query: string): string[] {
  const text = query.toLowerCase().replace(/^([a-z0-9-]+)\.[a-z]{2,24}$/, '$1');
  return text.split(/[^a-z0-9]+/).filter((w) => w.length >= MIN_TERM);
}

function labelSuffixes(text: string): string[] {
  const label = text.split('.', 1)[0]!.replace(/[^a-z0-9]/g, '');
  const out: string[] = [];
  for (let i = 0; i + MIN_TERM <= label.length; i++) out.push(label.slice(i));
  return out;
}

/** The document MiniSearch indexes for a listing: `remove` must be given exactly what `add` was. */
function indexed(listing: Pick<SeenListing, 'domain' | 'terms'>): { id: string; label: string; terms: string } {
  return { id: listing.domain, label: listing.domain, terms: listing.terms };
}

/** The in-memory listing index of one process (fed from its answers and, when shared, the `bff_listings` table). */
export class ListingIndex {
  readonly #listings = new Map<string, SeenListing>();
  readonly #search = new MiniSearch<{ id: string; label: string; terms: string }>({
    fields: ['label', 'terms'],
    tokenize: (text, field) => (field === 'label' ? labelSuffixes(text) : text.split(' ').filter(Boolean)),
    processTerm: (term) => term.toLowerCase(),
    searchOptions: { prefix: true, combineWith: 'OR', boost: { label: 2 } },
    // Documents are removed exactly (`remove` with the document indexed), never discarded: MiniSearch's background
    // vacuum of discarded documents walks the tree while later adds change it, and threw in a process that kept
    // re-adding listings (an uncaught error: the process died).
    autoVacuum: false,
  });

  /** Listings held. */
  get size(): number {
    return this.#listings.size;
  }

  /**
   * Adds or replaces listings (the newest `seenMs` wins; the terms are merged, and only the words of the name are
   * kept, whatever a listing carries: {@link nameTerms}).
   */
  add(listings: Iterable<SeenListing>): void {
    for (const listing of listings) {
      const kept = this.#listings.get(listing.domain);
      if (kept !== undefined && kept.seenMs > listing.seenMs) continue;
      const terms = nameTerms(listing.domain, `${kept?.terms ?? ''} ${listing.terms}`.split(' '));
      const merged = { ...listing, terms };
      if (kept !== undefined) this.#search.remove(indexed(kept));
      this.#search.add(indexed(merged));
      this.#listings.set(listing.domain, merged);
    }
  }

  /** The listing held for lowercased `domain`: its newest known price and availability. */
  get(domain: string): SeenListing | undefined {
    return this.#listings.get(domain);
  }

  /** Drops a domain (sold, refunded, repriced: its next sighting brings it back). */
  remove(domain: string): void {
    const kept = this.#listings.get(domain);
    if (kept === undefined) return;
    this.#listings.delete(domain);
    this.#search.remove(indexed(kept));
  }

  /** Up to `limit` listings matching `query`, best first; empty when none match. */
  search(query: string, limit: number): SeenListing[] {
    const words = queryWords(query);
    if (words.length === 0) return [];
    const hits = this.#search.search(words.join(' '));
    const out: SeenListing[] = [];
    for (const hit of hits) {
      const listing = this.#listings.get(hit.id as string);
      if (listing !== undefined) out.push(listing);
      if (out.length >= limit) break;
    }
    return out;
  }
}
