/**
 * The search cache: the upstream budget (spec 8: 60 searches per minute per credential) is shared by every visitor,
 * so equal queries are answered from memory for a short time, and identical searches in flight share one upstream
 * call. In-memory for this release; issue 4 moves budgets to the database and adds stale-while-revalidate.
 */

/**
 * The cache key and the query sent upstream: trimmed, lowercased, inner whitespace collapsed to one space.
 * `"  Coffee   Shop "` → `"coffee shop"`.
 */
export function normaliseQuery(q: string): string {
  return q.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Settings of a {@link SearchCache}. */
export interface SearchCacheSettings {
  /** How long an answer is reused, in milliseconds (0 disables reuse; coalescing still applies). */
  readonly ttlMs: number;
  /** Most entries kept; the oldest is dropped first. */
  readonly maxEntries: number;
  /** Clock in ms since the epoch. */
  readonly now: () => number;
}

/** Where an answer came from. */
export type CacheSource = 'cache' | 'coalesced' | 'upstream';

/**
 * A TTL cache with in-flight coalescing, keyed by normalised query. Failures are not cached: the next caller tries
 * upstream again.
 */
export class SearchCache<T> {
  readonly #settings: SearchCacheSettings;
  readonly #entries = new Map<string, { value: T; expiresAt: number }>();
  readonly #inFlight = new Map<string, Promise<T>>();

  constructor(settings: SearchCacheSettings) {
    this.#settings = settings;
  }

  /**
   * The answer for `key`: from the cache while fresh, else from the call already in flight for the same key, else
   * from `load` (its rejection is passed to every waiting caller, and nothing is cached).
   */
  async get(key: string, load: () => Promise<T>): Promise<{ value: T; source: CacheSource }> {
    const now = this.#settings.now();
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      if (entry.expiresAt > now) return { value: entry.value, source: 'cache' };
      this.#entries.delete(key);
    }
    const pending = this.#inFlight.get(key);
    if (pending !== undefined) return { value: await pending, source: 'coalesced' };
    const promise = load();
    this.#inFlight.set(key, promise);
    try {
      const value = await promise;
      this.#store(key, value);
      return { value, source: 'upstream' };
    } finally {
      this.#inFlight.delete(key);
    }
  }

  /** Entries currently held (fresh or not yet evicted). */
  get size(): number {
    return this.#entries.size;
  }

  #store(key: string, value: T): void {
    const { ttlMs, maxEntries, now } = this.#settings;
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: now() + ttlMs });
    while (this.#entries.size > maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
