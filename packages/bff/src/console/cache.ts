/**
 * The console's read cache and reporting budget (docs/console-api.md "Cache and budget"): every tab's identical read
 * is answered from one copy, fresh for `freshnessMs`; a miss goes upstream only while fewer than
 * `reportingCallsPerMinute` console reads still count against the window (Partner API spec 8: 30 reporting calls a
 * minute); past it a stale copy is served, else 503 `busy`. Entries are tagged by what they show (`orders`,
 * `settlements`, …) so an event or a write drops exactly those. A read asked to revalidate (a person's Refresh,
 * `Cache-Control: no-cache`) goes upstream even while its copy is fresh, inside the same budget.
 *
 * On PostgreSQL both live in the database (the same pattern as the upstream budget and the search answers): the
 * copies in `bff_console_reads` (store.ts) and the budget in the upstream budget's send log (`bff_budget_sends`, taken
 * under the row lock of its `bff_buckets` row, upstream/budget.ts), so every BFF process of the credential on one
 * PostgreSQL shares one cache and one budget, and two processes at the limit never both send the last call. On
 * embedded PGlite (one process) the budget lives there too and the copies in memory; without a database, both in
 * memory. Identical misses in flight in one process share one load; across processes, the first to find a copy
 * stale claims it and reads it again while the others serve the stale copy (a view is read once per freshness
 * period however many processes serve it).
 *
 * A read counts against the window from when it is taken until a minute after its load ended (the marketplace
 * counts arrivals, which come after the send); a load that ended without an answer keeps counting until its first
 * bound, the attempt timeout of each of its calls plus the window.
 */
import { randomUUID } from 'node:crypto';
import { MarketplaceError } from '@domainkit/client';
import type { Logger } from 'pino';
import { type BucketStore, MemoryBucketStore, type SendHold, UpstreamBusyError } from '../upstream/budget.ts';

/** A cached read: its value, when it was read upstream (ms since the epoch) and what it shows. */
export interface StoredRead {
  readonly value: unknown;
  readonly at: number;
  readonly tags: readonly string[];
}

/** A read of the cache: its value and when it was read upstream (ms since the epoch). */
export interface CachedRead<T> {
  readonly value: T;
  readonly at: number;
}

/** Where the console's copies live: this process's memory, or the BFF database (store.ts `SqlConsoleReads`). */
export interface ConsoleReads {
  /** The copy of `key`, fresh or not, if any. */
  get(key: string): Promise<StoredRead | undefined>;
  /** Stores the copy of `key` (a later read replaces an earlier one). */
  put(key: string, read: StoredRead): Promise<void>;
  /** Drops every copy tagged with one of `tags`. */
  drop(tags: readonly string[]): Promise<void>;
  /**
   * Marks the copy `stale` of `key` as read again by this process until `untilMs`, unless another process already
   * is (or the copy was replaced since): `true` when this process should read it. Absent when one process holds the
   * copies (in-flight reads are shared in memory).
   */
  claim?(key: string, stale: StoredRead, untilMs: number, nowMs: number): Promise<boolean>;
  /** Ends this process's claim `untilMs` on `key` (its read failed or was refused), so another may read it. */
  release?(key: string, untilMs: number): Promise<void>;
}

/** The copies in this process's memory: the oldest stored goes first past `maxEntries`. */
export class MemoryConsoleReads implements ConsoleReads {
  readonly #entries = new Map<string, StoredRead>();
  readonly #maxEntries: number;

  /** @param maxEntries - copies kept at most; default 2000. */
  constructor(maxEntries = 2000) {
    this.#maxEntries = maxEntries;
  }

  async get(key: string): Promise<StoredRead | undefined> {
    return this.#entries.get(key);
  }

  async put(key: string, read: StoredRead): Promise<void> {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const first = this.#entries.keys().next().value;
      if (first !== undefined) this.#entries.delete(first);
    }
    this.#entries.set(key, read);
  }

  async drop(tags: readonly string[]): Promise<void> {
    for (const [key, entry] of this.#entries) {
      if (entry.tags.some((t) => tags.includes(t))) this.#entries.delete(key);
    }
  }
}

/** The marketplace's window (Partner API spec 8), ms. */
const WINDOW_MS = 60_000;

/** What {@link ConsoleCache} is built from. */
export interface ConsoleCacheOptions {
  /** How long a copy is served before the marketplace is read again (ms). */
  readonly freshnessMs: number;
  /** Console reads allowed in any 60 seconds, every process of the credential together. */
  readonly perMinute: number;
  readonly now: () => number;
  /** Where the copies live; default this process's memory. */
  readonly reads?: ConsoleReads | undefined;
  /**
   * Where the budget lives (the upstream budget's {@link BucketStore}: `SqlBucketStore` with a database) and the
   * name of its bucket (`{key id}:console`); default this process's memory.
   */
  readonly budget?: { readonly store: BucketStore; readonly name: string } | undefined;
  /** Limit of one upstream attempt (ms), the client's `timeoutMs`; default 10 000. */
  readonly attemptTimeoutMs?: number | undefined;
  /** Told when dropping copies failed (they then stay until their freshness ends). */
  readonly logger?: Pick<Logger, 'warn'> | undefined;
}

/** The console's shared cache and reporting budget. */
export class ConsoleCache {
  readonly #inFlight = new Map<string, Promise<CachedRead<unknown>>>();
  readonly #freshnessMs: number;
  readonly #perMinute: number;
  readonly #now: () => number;
  readonly #reads: ConsoleReads;
  readonly #store: Required<Pick<BucketStore, 'takeSends' | 'settle'>>;
  readonly #bucket: string;
  readonly #attemptTimeoutMs: number;
  readonly #logger: Pick<Logger, 'warn'> | undefined;

  /** @throws {TypeError} when the budget's store cannot take several sends at once (it has no `takeSends`). */
  constructor(options: ConsoleCacheOptions) {
    this.#freshnessMs = options.freshnessMs;
    this.#perMinute = options.perMinute;
    this.#now = options.now;
    this.#reads = options.reads ?? new MemoryConsoleReads();
    const store = options.budget?.store ?? new MemoryBucketStore();
    if (typeof store.takeSends !== 'function' || typeof store.settle !== 'function')
      throw new TypeError('the console budget needs a bucket store with takeSends and settle');
    this.#store = store as Required<Pick<BucketStore, 'takeSends' | 'settle'>>;
    this.#bucket = options.budget?.name ?? 'console';
    this.#attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
    this.#logger = options.logger;
  }

  /**
   * The value of `key`: fresh from the cache, or read by `load` (which makes at most `calls` upstream calls) when
   * the budget has room for all of them, else the stale copy. With `revalidate` (RFC 9111 5.2.1.4 `no-cache`: a
   * person asked for what the marketplace has now), a fresh copy counts as stale.
   * @throws {UpstreamBusyError} when nothing is cached and the budget has no room (503 `busy`, with `retry_after`).
   */
  async get<T>(
    key: string,
    tags: readonly string[],
    calls: number,
    load: () => Promise<T>,
    options: { readonly revalidate?: boolean } = {},
  ): Promise<CachedRead<T>> {
    const running = this.#inFlight.get(key);
    if (running !== undefined) return (await running) as CachedRead<T>;
    const stored = await this.#reads.get(key);
    if (stored !== undefined && options.revalidate !== true && this.#now() - stored.at < this.#freshnessMs)
      return stored as CachedRead<T>;
    const again = this.#inFlight.get(key); // started while the copy was read
    if (again !== undefined) return (await again) as CachedRead<T>;
    const work = this.#load(key, tags, calls, stored, load);
    this.#inFlight.set(key, work);
    try {
      return (await work) as CachedRead<T>;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  async #load(
    key: string,
    tags: readonly string[],
    calls: number,
    stored: StoredRead | undefined,
    load: () => Promise<unknown>,
  ): Promise<StoredRead> {
    const now = this.#now();
    const loadMs = calls * this.#attemptTimeoutMs;
    if (stored === undefined || this.#reads.claim === undefined) return this.#spend(key, tags, calls, stored, load);
    const claimUntil = now + loadMs;
    if (!(await this.#reads.claim(key, stored, claimUntil, now))) {
      // Another process reads it again (or just did): its copy if stored by now, else the stale one; none when an
      // event or a write dropped it meanwhile, and then it is read as a first read is.
      const latest = await this.#reads.get(key);
      if (latest === undefined) return this.#spend(key, tags, calls, undefined, load);
      return latest.at > stored.at ? latest : stored;
    }
    let read: StoredRead | undefined;
    try {
      read = await this.#spend(key, tags, calls, stored, load);
      return read;
    } finally {
      // Storing a new copy ended the claim; otherwise end it now, so another process may read (else it lapses).
      if (read === stored || read === undefined) await this.#reads.release?.(key, claimUntil).catch(() => {});
    }
  }

  /**
   * Reads `key` upstream when the budget has room for its `calls`, and stores the copy; else `stored`.
   * @throws {UpstreamBusyError} when the budget has no room and there is no copy.
   */
  async #spend(
    key: string,
    tags: readonly string[],
    calls: number,
    stored: StoredRead | undefined,
    load: () => Promise<unknown>,
  ): Promise<StoredRead> {
    const now = this.#now();
    const holds: SendHold[] = Array.from({ length: calls }, () => ({
      id: randomUUID(),
      untilMs: now + calls * this.#attemptTimeoutMs + WINDOW_MS,
    }));
    const taken = await this.#store.takeSends(this.#bucket, this.#perMinute, now, holds);
    if (!taken.ok) {
      if (stored !== undefined) return stored;
      throw new UpstreamBusyError('reporting', Math.max(1, Math.ceil(taken.waitMs / 1000)));
    }
    let answered = false;
    try {
      const value = await load();
      answered = true;
      const read: StoredRead = { value, at: this.#now(), tags };
      await this.#reads.put(key, read);
      return read;
    } catch (error) {
      answered = error instanceof MarketplaceError && error.status !== undefined;
      throw error;
    } finally {
      // An answer proves the calls arrived: they count one window from now. Without one they may still arrive.
      if (answered) {
        const until = this.#now() + WINDOW_MS;
        await Promise.all(holds.map((h) => this.#store.settle(this.#bucket, h.id, until))).catch(() => {
          // The sends keep counting until their first bound: safe, only slower.
        });
      }
    }
  }

  /**
   * Drops every copy tagged with one of `tags` (an event or a write changed what they show), for every process
   * sharing the database. Never throws: when the database fails, the copies stay until their freshness ends.
   */
  async invalidate(tags: readonly string[]): Promise<void> {
    try {
      await this.#reads.drop(tags);
    } catch (error) {
      this.#logger?.warn(
        { tags, error: error instanceof Error ? error.message : String(error) },
        'console: cached reads not dropped; they are served until their freshness ends',
      );
    }
  }
}
