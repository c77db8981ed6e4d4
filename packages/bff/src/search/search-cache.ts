/**
 * The search cache: the upstream budget (Partner API spec 8: 60 searches per minute per credential) is shared by every
 * visitor, so answers are reused by normalised query, identical searches in flight share one upstream call, a
 * stale answer is served at once while one background call refreshes it (stale-while-revalidate, RFC 5861 3),
 * and an older answer is served when upstream is busy or failing (stale-if-error, RFC 5861 4).
 *
 * In the memory of each process: answers are cheap to fetch again, and budgets, not caches, must be shared.
 */
import { idnaWords } from './idna.ts';

/**
 * The cache key and the query sent upstream: Unicode NFC, trimmed, lowercased, inner whitespace collapsed to one
 * space, and each word that holds a character outside ASCII mapped to its ASCII domain form by IDNA (UTS #46
 * processing, as WHATWG URL's host parser does it on every runtime), so that a name typed in Unicode and its
 * `xn--` form (RFC 5890) are the same search: `"  Coffee   Shop "` → `"coffee shop"`, `"MÜNCHEN.de"` and
 * `"xn--mnchen-3ya.de"` → `"xn--mnchen-3ya.de"`. A word that is no valid host name stays as typed.
 */
export function normaliseQuery(q: string): string {
  return isNormalWord(q) ? q : idnaWords(q.trim().toLowerCase().replace(/\s+/g, ' '));
}

/** Whether `q` is its own normal form already, being only `a-z`, `0-9`, `.` and `-` (as most searches are typed). */
function isNormalWord(q: string): boolean {
  for (let i = 0; i < q.length; i++) {
    const c = q.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46)) return false;
  }
  return true;
}

/** Settings of a {@link SearchCache}; durations in milliseconds, each counted after the previous one. */
export interface SearchCacheSettings {
  /** How long an answer is served as fresh (0 disables reuse; coalescing still applies). */
  readonly ttlMs: number;
  /** After that, how long it is still served at once while a background call refreshes it; default 0. */
  readonly staleWhileRevalidateMs?: number | undefined;
  /** After that, how long it is served when upstream is busy or failing; default 0. */
  readonly staleIfErrorMs?: number | undefined;
  /** Most entries kept; the least recently used is dropped first. */
  readonly maxEntries: number;
  /** Clock in ms since the epoch. */
  readonly now: () => number;
  /** Told about a failed background refresh (the stale answer stays). */
  readonly onBackgroundError?: ((key: string, error: unknown) => void) | undefined;
}

/**
 * Where an answer came from: `cache` (fresh), `stale` (served while a refresh runs), `coalesced` (shared an
 * upstream call in flight), `upstream`, `stale_if_error` (upstream failed, an older answer was served).
 */
export type CacheSource = 'cache' | 'stale' | 'coalesced' | 'upstream' | 'stale_if_error';

/** Whether a load serves a waiting visitor or refreshes the cache in the background. */
export type LoadMode = 'foreground' | 'background';

/**
 * A cache with in-flight coalescing, stale-while-revalidate and stale-if-error, keyed by normalised query.
 * Failures are never cached.
 */
export class SearchCache<T> {
  readonly #settings: SearchCacheSettings;
  readonly #entries = new Map<string, { value: T; storedAt: number }>();
  readonly #inFlight = new Map<string, Promise<T>>();
  /** Evictions made while a load was in flight, per key: such a load's answer is not kept if one matches it. */
  readonly #evictedDuring = new Map<string, Array<(value: T, key: string) => boolean>>();

  constructor(settings: SearchCacheSettings) {
    this.#settings = settings;
  }

  /**
   * The answer for `key` (see {@link CacheSource}). `load` is called at most once at a time per key; its
   * rejection reaches every waiting caller unless an answer young enough for stale-if-error exists.
   */
  async get(key: string, load: (mode: LoadMode) => Promise<T>): Promise<{ value: T; source: CacheSource }> {
    const { ttlMs, now } = this.#settings;
    const swr = this.#settings.staleWhileRevalidateMs ?? 0;
    const sie = this.#settings.staleIfErrorMs ?? 0;
    const entry = this.#entries.get(key);
    const age = entry === undefined ? Infinity : now() - entry.storedAt;
    if (entry !== undefined) {
      if (age >= ttlMs + swr + sie) this.#entries.delete(key);
      else {
        this.#touch(key, entry);
        if (age < ttlMs) return { value: entry.value, source: 'cache' };
        if (age < ttlMs + swr) {
          if (!this.#inFlight.has(key)) {
            this.#start(key, () => load('background')).catch((error: unknown) =>
              this.#settings.onBackgroundError?.(key, error),
            );
          }
          return { value: entry.value, source: 'stale' };
        }
      }
    }
    const pending = this.#inFlight.get(key);
    try {
      if (pending !== undefined) return { value: await pending, source: 'coalesced' };
      return { value: await this.#start(key, () => load('foreground')), source: 'upstream' };
    } catch (error) {
      const kept = this.#entries.get(key);
      if (kept !== undefined && now() - kept.storedAt < ttlMs + swr + sie)
        return { value: kept.value, source: 'stale_if_error' };
      throw error;
    }
  }

  /**
   * Drops every kept answer for which `matches(value, key)` is true (fresh or stale: the next `get` of such a key
   * goes upstream), and keeps no answer matching it from a load already in flight. Everything else stays
   * cached. Scans every entry (at most `maxEntries`).
   * @returns how many answers were dropped.
   */
  evict(matches: (value: T, key: string) => boolean): number {
    let dropped = 0;
    for (const [key, entry] of this.#entries) {
      if (matches(entry.value, key)) {
        this.#entries.delete(key);
        dropped++;
      }
    }
    for (const key of this.#inFlight.keys()) this.#evictedDuring.get(key)?.push(matches);
    return dropped;
  }

  /** Entries currently held. */
  get size(): number {
    return this.#entries.size;
  }

  #start(key: string, load: () => Promise<T>): Promise<T> {
    const evicted: Array<(value: T, key: string) => boolean> = [];
    const promise: Promise<T> = Promise.resolve()
      .then(load)
      .then((value) => {
        // An answer loaded before an eviction that names it may predate the change: serve it, never keep it.
        if (!evicted.some((matches) => matches(value, key))) this.#store(key, value);
        return value;
      })
      .finally(() => {
        if (this.#inFlight.get(key) === promise) {
          this.#inFlight.delete(key);
          this.#evictedDuring.delete(key);
        }
      });
    this.#inFlight.set(key, promise);
    this.#evictedDuring.set(key, evicted);
    return promise;
  }

  #touch(key: string, entry: { value: T; storedAt: number }): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
  }

  #store(key: string, value: T): void {
    const { ttlMs, maxEntries, now } = this.#settings;
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, storedAt: now() });
    while (this.#entries.size > maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
