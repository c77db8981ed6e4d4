/**
 * A small least-recently-used cache with a time-to-live, for the search answers of one page: typing "cof",
 * "coff", back to "cof" answers from memory instead of asking the BFF again.
 */
import type { DkClock } from './clock.ts';

/** Keeps at most `max` entries, each for `ttlMs` milliseconds of `clock` time. */
export class LruCache<V> {
  readonly #entries = new Map<string, { at: number; value: V }>();
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #clock: () => DkClock;

  /** @param clock read at each call, so a host's replaced clock is used. */
  constructor(max: number, ttlMs: number, clock: () => DkClock) {
    this.#max = max;
    this.#ttlMs = ttlMs;
    this.#clock = clock;
  }

  /** The fresh value of `key` (now the most recently used), or `undefined`. Expired entries are dropped. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (this.#clock().now() - entry.at >= this.#ttlMs) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` under `key`, evicting the least recently used entry beyond `max`. */
  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { at: this.#clock().now(), value });
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** Forgets everything (e.g. after a purchase, when availability changed). */
  clear(): void {
    this.#entries.clear();
  }
}
