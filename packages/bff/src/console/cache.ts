/**
 * The console's read cache and reporting budget (docs/console-api.md): every tab's identical read is answered from one
 * copy, fresh for `freshnessMs`; a miss goes upstream only while this process has sent fewer than
 * `reportingCallsPerMinute` reads in the last 60 seconds (Partner API spec 8: 30 reporting calls a minute); past it a
 * stale copy is served, else 503 `busy`. Identical misses in flight share one call. Entries are tagged by what they
 * show (`orders`, `settlements`, …) so an event or a write drops exactly those.
 */
import { UpstreamBusyError } from '../upstream/budget.ts';

interface Entry {
  readonly value: unknown;
  readonly at: number;
  readonly tags: readonly string[];
}

/** A read of the cache: its value and when it was read upstream (ms since the epoch). */
export interface CachedRead<T> {
  readonly value: T;
  readonly at: number;
}

/** The console's shared cache and sliding-window reporting budget. */
export class ConsoleCache {
  readonly #entries = new Map<string, Entry>();
  readonly #inFlight = new Map<string, Promise<CachedRead<unknown>>>();
  /** Send times (ms) of the upstream reads of the last 60 s. */
  readonly #sends: number[] = [];
  readonly #freshnessMs: number;
  readonly #perMinute: number;
  readonly #now: () => number;
  readonly #maxEntries: number;

  constructor(options: { freshnessMs: number; perMinute: number; now: () => number; maxEntries?: number }) {
    this.#freshnessMs = options.freshnessMs;
    this.#perMinute = options.perMinute;
    this.#now = options.now;
    this.#maxEntries = options.maxEntries ?? 2000;
  }

  /** Upstream reads sent in the last 60 seconds. */
  get sentLastMinute(): number {
    this.#prune(this.#now());
    return this.#sends.length;
  }

  /**
   * The value of `key`: fresh from the cache, or read by `load` (which makes `calls` upstream calls) when the budget
   * has room, else the stale copy.
   * @throws {UpstreamBusyError} when nothing is cached and the budget has no room (503 `busy`).
   */
  async get<T>(key: string, tags: readonly string[], calls: number, load: () => Promise<T>): Promise<CachedRead<T>> {
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && now - entry.at < this.#freshnessMs) return entry as CachedRead<T>;
    const running = this.#inFlight.get(key);
    if (running !== undefined) return (await running) as CachedRead<T>;
    this.#prune(now);
    if (this.#sends.length + calls > this.#perMinute) {
      if (entry !== undefined) return entry as CachedRead<T>;
      const oldest = this.#sends[0] ?? now;
      throw new UpstreamBusyError('reporting', Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000)));
    }
    for (let i = 0; i < calls; i++) this.#sends.push(now);
    const work = (async () => {
      const value = await load();
      const read = { value, at: this.#now(), tags };
      if (this.#entries.size >= this.#maxEntries) {
        const first = this.#entries.keys().next().value;
        if (first !== undefined) this.#entries.delete(first);
      }
      this.#entries.set(key, read);
      return read;
    })();
    this.#inFlight.set(key, work);
    try {
      return (await work) as CachedRead<T>;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  /** Drops every entry tagged with one of `tags` (an event or a write changed what they show). */
  invalidate(tags: readonly string[]): void {
    for (const [key, entry] of this.#entries) {
      if (entry.tags.some((t) => tags.includes(t))) this.#entries.delete(key);
    }
  }

  #prune(now: number): void {
    while (this.#sends.length > 0 && (this.#sends[0] ?? 0) <= now - 60_000) this.#sends.shift();
  }
}
