/**
 * How `GET /search` spends the upstream search budget (spec 8: 60 a minute per credential, shared by every visitor
 * and every BFF process) as well as it can:
 *
 * 1. **In-process layer**: the hottest answers in this process's memory (least recently used dropped first).
 * 2. **Shared answers**: every answer any process of this credential fetched, in the BFF database (PostgreSQL shared
 *    by replicas, or PGlite in the data folder), so a replica that starts or restarts answers at once. Answers are
 *    kept long (listings change rarely) and dropped when the BFF learns a domain they list may no longer be for sale
 *    (sold, refunded: an order, an event, a 404/409 upstream), in every process.
 *
 * Every price the BFF learns (any search answer, a quote, a checkout session, a domain detail) is the newest known
 * for its domain (kept in the listing index, and in the store's listings): every answer held that lists the domain
 * at another price, fetched no later than the price was learned, is corrected at once, here and in the store, and
 * every other process corrects its own at its next sync. An answer read later (from the store, or at start) is
 * corrected against the index before it is kept. The in-memory hit path ({@link SearchService.peek}) only reads.
 * 3. **Demand-ordered miss queue** ({@link DemandQueue}): a miss waits at most `maxWaitMs` for a token, tokens
 *    going to the query most visitors want; spare tokens refresh stale answers and prefetch wanted queries.
 * 4. **Listing index** ({@link ListingIndex}): a miss the budget cannot serve is answered with the matching names
 *    seen recently, flagged `index`; with no match the visitor is told "busy", never a false "no results".
 */
import type { DomainSearchResponse } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { type BffUpstreamBudget, UpstreamBusyError } from '../upstream/budget.ts';
import type { LearnedPrice } from '../upstream/domain-changes.ts';
import type { ChangeCursor, SqlAnswerStore } from './answer-store.ts';
import { DemandQueue, type DemandQueueStats } from './demand-queue.ts';
import { ListingIndex, nameTerms, queryWords, type SeenListing } from './listing-index.ts';

/**
 * Where an answer came from: `cache` (fresh, this process or the shared store), `stale` (served while a spare token
 * may refresh it), `queue` (fetched upstream for waiting visitors), `stale_if_error` (upstream failed or busy, an
 * older answer served), `index` (names seen recently matching the query).
 */
export type SearchSource = 'cache' | 'stale' | 'queue' | 'stale_if_error' | 'index';

/** An answer to a search. */
export type SearchAnswer =
  | { readonly source: Exclude<SearchSource, 'index'>; readonly value: DomainSearchResponse }
  | { readonly source: 'index'; readonly listings: readonly SeenListing[] };

/** Counters of what the search did, for metrics (each a running total since start). */
export interface SearchStats extends DemandQueueStats {
  /** Answered fresh from this process's memory. */
  hits: number;
  /** Answered fresh from the shared store. */
  sharedHits: number;
  /** Answered stale (a refresh may follow). */
  stale: number;
  /** Answered from an upstream fetch (alone, or sharing one in flight). */
  fetched: number;
  /** Answered from an older answer because upstream was busy or failing. */
  staleIfError: number;
  /** Answered from the listing index. */
  index: number;
  /** Answered "busy". */
  busy: number;
  /** Visitors waiting for a token now (a gauge). */
  waiting: number;
}

/** Settings of a {@link SearchService}; durations in ms. */
export interface SearchServiceOptions {
  readonly budget: Pick<BffUpstreamBudget, 'tryTake' | 'tokenIntervalMs'>;
  /** Fetches a normalised query upstream; `context` goes to the client's budget (it holds the token taken). */
  readonly fetch: (
    query: string,
    context: { maxWaitMs: number; prepaid: number; tickets: string[] },
  ) => Promise<DomainSearchResponse>;
  /** The store in the BFF database; none: this process's memory only. */
  readonly store?: SqlAnswerStore | undefined;
  /**
   * Whether other processes write the store too (PostgreSQL): a miss in memory reads it, and it is read every
   * `syncIntervalMs` for their evictions, answers and listings. Otherwise (embedded PGlite, one process) memory
   * holds everything the store does (filled from it at start), and the store is only written.
   */
  readonly shared?: boolean | undefined;
  /** How long an answer is served as fresh. */
  readonly freshMs: number;
  /** After that, how long it is served at once while a spare token may refresh it. */
  readonly staleMs: number;
  /** After that, how long it is served when upstream is busy or failing. */
  readonly staleIfErrorMs: number;
  /** Answers kept in this process's memory. */
  readonly maxEntries: number;
  /** Longest wait of a visitor for a search token. */
  readonly maxWaitMs: number;
  /** Tokens left in the shared bucket by background work, for visitors of any process; default 1. */
  readonly reserve?: number | undefined;
  /** Whether a search the budget cannot serve is answered from the listing index; default true. */
  readonly index?: boolean | undefined;
  /** How often the shared store is read for other processes' evictions and listings; default 1 000. */
  readonly syncIntervalMs?: number | undefined;
  readonly now: () => number;
  readonly logger: Logger;
}

interface Entry {
  readonly value: DomainSearchResponse;
  readonly storedMs: number;
}

/** Most results an index answer holds (as many as an upstream search answer, spec 4.1). */
const INDEX_RESULTS = 5;

/**
 * `entry` with the price and availability of each domain it lists replaced by the newest known (`known(domain)`),
 * when that was learned no earlier than the entry was fetched and differs; the same object when nothing changes.
 */
function corrected(entry: Entry, known: (domain: string) => SeenListing | undefined): Entry {
  let domains: Array<DomainSearchResponse['domains'][number]> | undefined;
  entry.value.domains.forEach((d, i) => {
    const listing = known(d.domain.toLowerCase());
    if (listing === undefined || listing.seenMs < entry.storedMs || sameOffer(listing, d)) return;
    domains ??= [...entry.value.domains];
    domains[i] = { ...d, available: listing.available, price_cents: listing.price_cents, currency: listing.currency };
  });
  return domains === undefined ? entry : { storedMs: entry.storedMs, value: { ...entry.value, domains } };
}

/** Whether two sightings of a domain offer it alike (availability, price, currency). */
function sameOffer(a: Pick<SeenListing, 'available' | 'price_cents' | 'currency'>, b: typeof a): boolean {
  return a.available === b.available && a.price_cents === b.price_cents && a.currency === b.currency;
}

/** The search answering machinery of one `createBff` router. */
export class SearchService {
  readonly #o: SearchServiceOptions;
  readonly #entries = new Map<string, Entry>();
  /** The key last moved to the end of `#entries` (the most recently used, while it is held): moved again for nothing. */
  #newest: string | undefined;
  readonly #index = new ListingIndex();
  readonly #queue: DemandQueue<DomainSearchResponse>;
  /** When each load under way started, so an eviction during it keeps its answer from being stored. */
  readonly #loadStarted = new Map<string, number>();
  /** Domains evicted recently, with when. */
  readonly #evictedAt = new Map<string, number>();
  readonly #stats = {
    hits: 0,
    sharedHits: 0,
    stale: 0,
    fetched: 0,
    staleIfError: 0,
    index: 0,
    busy: 0,
  };
  #cursor: ChangeCursor | undefined;
  #syncTimer: NodeJS.Timeout | undefined;
  #syncing: Promise<void> | undefined;
  /** Evictions and prices being written to the store (a read of the store waits for them). */
  #writing: Promise<void> | undefined;
  #closed = false;

  constructor(options: SearchServiceOptions) {
    this.#o = options;
    const reserve = options.reserve ?? 1;
    this.#queue = new DemandQueue<DomainSearchResponse>({
      take: (mode) => options.budget.tryTake('search', mode === 'background' ? reserve : 0),
      load: (key, _mode, ticket) => this.#load(key, ticket),
      onBackgroundError: (_key, error) =>
        options.logger.debug(
          { error: error instanceof Error ? error.message : String(error) },
          'background search refresh failed; the kept answer stays',
        ),
      tokenIntervalMs: options.budget.tokenIntervalMs('search'),
      now: options.now,
    });
  }

  /** Running totals, for metrics. */
  get stats(): SearchStats {
    return { ...this.#stats, ...this.#queue.stats, waiting: this.#queue.waiting };
  }

  /** Answers held in this process's memory, and listings in its index. */
  get sizes(): { entries: number; listings: number } {
    return { entries: this.#entries.size, listings: this.#index.size };
  }

  /**
   * The fresh answer to `key` held in this process's memory, or `undefined` (the lean path of `GET /search`:
   * synchronous, no database, no token).
   */
  peek(key: string): DomainSearchResponse | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || this.#o.now() - entry.storedMs >= this.#o.freshMs) return undefined;
    this.#touch(key, entry);
    this.#stats.hits++;
    return entry.value;
  }

  /**
   * Answers normalised query `key` (see the module comment for the order).
   * @throws {UpstreamBusyError} when neither the budget nor the index can answer in time.
   * @throws {MarketplaceError} when upstream refused or failed and no older answer is kept.
   * @throws {DOMException} `AbortError` when `signal` aborted while waiting (no token was taken for it).
   */
  async search(key: string, signal?: AbortSignal): Promise<SearchAnswer> {
    const now = this.#o.now();
    const { freshMs, staleMs, staleIfErrorMs } = this.#o;
    let entry = this.#entries.get(key);
    if (entry !== undefined && now - entry.storedMs >= freshMs + staleMs + staleIfErrorMs) {
      this.#entries.delete(key);
      entry = undefined;
    }
    if (entry === undefined && this.#o.store !== undefined && this.#o.shared === true) {
      try {
        await this.#writing;
        const stored = await this.#o.store.get(key);
        if (
          stored !== undefined &&
          now - stored.storedMs < freshMs + staleMs + staleIfErrorMs &&
          !this.#predatesEviction(stored.answer, stored.storedMs)
        ) {
          entry = this.#remember(key, { value: stored.answer, storedMs: stored.storedMs });
          if (now - entry.storedMs < freshMs) {
            this.#stats.sharedHits++;
            this.#queue.forget(key);
            return { source: 'cache', value: entry.value };
          }
        }
      } catch (error) {
        this.#o.logger.debug({ error: (error as Error).message }, 'shared search answers unreadable; asking upstream');
      }
    }
    if (entry !== undefined) {
      const age = now - entry.storedMs;
      this.#touch(key, entry);
      if (age < freshMs) {
        this.#stats.hits++;
        return { source: 'cache', value: entry.value };
      }
      if (age < freshMs + staleMs) {
        this.#stats.stale++;
        this.#queue.want(key);
        return { source: 'stale', value: entry.value };
      }
    }
    let busy: UpstreamBusyError | undefined;
    try {
      const outcome = await this.#queue.wait(key, this.#o.maxWaitMs, signal);
      if (outcome.status === 'loaded') {
        this.#stats.fetched++;
        return { source: 'queue', value: outcome.value };
      }
      if (outcome.status === 'aborted') throw new DOMException('the visitor went away', 'AbortError');
    } catch (error) {
      if (!(error instanceof UpstreamBusyError)) {
        if (entry !== undefined && !(error instanceof DOMException)) {
          this.#stats.staleIfError++;
          return { source: 'stale_if_error', value: entry.value };
        }
        throw error;
      }
      busy = error;
    }
    if (entry !== undefined) {
      this.#stats.staleIfError++;
      return { source: 'stale_if_error', value: entry.value };
    }
    if (this.#o.index !== false) {
      const listings = this.#index.search(key, INDEX_RESULTS);
      if (listings.length > 0) {
        this.#stats.index++;
        return { source: 'index', listings };
      }
    }
    this.#stats.busy++;
    throw busy ?? new UpstreamBusyError('search', this.#queue.retryAfterSeconds());
  }

  /**
   * Drops every answer listing `domain` (lowercased) here, in the shared store and, through it, in every other
   * process; answers of loads under way that list it are served but not kept.
   */
  domainChanged(domain: string): void {
    const now = this.#o.now();
    this.#evictedAt.set(domain, now);
    for (const [at, when] of this.#evictedAt) if (now - when > 600_000) this.#evictedAt.delete(at);
    this.#evictLocal(domain);
    this.#write(domain, 'could not drop shared search answers', (store) => store.evict(domain, now));
  }

  /**
   * Takes `price` (from a quote, a checkout session or a domain detail) as the newest known for its domain: every
   * answer held that lists it at another price is corrected, and so are the listing index, the shared store and,
   * through it, every other process. An unavailable domain is dropped instead ({@link domainChanged}).
   */
  priceLearned(price: LearnedPrice): void {
    const domain = price.domain.toLowerCase();
    if (!price.available) {
      this.domainChanged(domain);
      return;
    }
    const { price_cents, currency } = price;
    const listing: SeenListing = { domain, available: true, price_cents, currency, terms: '', seenMs: this.#o.now() };
    if (this.#learn([listing]))
      this.#write(domain, 'could not correct shared search answers', (store) => store.reprice(listing));
  }

  /** Runs `op` on the store after the writes before it; a failure is logged with `failed`. */
  #write(domain: string, failed: string, op: (store: SqlAnswerStore) => Promise<void>): void {
    const store = this.#o.store;
    if (store === undefined) return;
    const previous = this.#writing;
    const writing: Promise<void> = (async () => {
      await previous;
      try {
        await op(store);
      } catch (error) {
        this.#o.logger.warn({ domain, error: (error as Error).message }, failed);
      }
    })().finally(() => {
      if (this.#writing === writing) this.#writing = undefined;
    });
    this.#writing = writing;
  }

  /**
   * Adds listings seen at their `seenMs` to the index; each whose offer differs from the one known, and is not older
   * than it, corrects every answer held that lists it. @returns whether any offer changed.
   */
  #learn(listings: readonly SeenListing[]): boolean {
    const changed = new Map<string, SeenListing>();
    for (const listing of listings) {
      const known = this.#index.get(listing.domain);
      if (known === undefined || (known.seenMs <= listing.seenMs && !sameOffer(known, listing)))
        changed.set(listing.domain, listing);
    }
    this.#index.add(listings);
    if (changed.size === 0) return false;
    for (const [key, entry] of this.#entries) {
      const fixed = corrected(entry, (domain) => changed.get(domain));
      if (fixed !== entry) this.#entries.set(key, fixed); // same key: its place in the LRU order stays
    }
    return true;
  }

  /** Whether `answer`, fetched at `storedMs`, lists a domain evicted since (it may show it available: unusable). */
  #predatesEviction(answer: DomainSearchResponse, storedMs: number): boolean {
    if (this.#evictedAt.size === 0) return false;
    return answer.domains.some((d) => (this.#evictedAt.get(d.domain.toLowerCase()) ?? -Infinity) >= storedMs);
  }

  /**
   * Starts reading the shared store for other processes' evictions and listings (every `syncIntervalMs`), after
   * loading the listing index from it. Without a store, does nothing.
   */
  async start(): Promise<void> {
    const store = this.#o.store;
    if (store === undefined || this.#closed) return;
    const cursor = await store.currentCursor();
    const recent = await store.recentAnswers(this.#o.maxEntries);
    const all = await store.changesSince({ ...cursor, listingMs: 0 });
    this.#learn(all.listings);
    const now = this.#o.now();
    const { freshMs, staleMs, staleIfErrorMs } = this.#o;
    for (const answer of recent.reverse()) {
      if (this.#predatesEviction(answer.answer, answer.storedMs)) continue;
      if (now - answer.storedMs < freshMs + staleMs + staleIfErrorMs && !this.#entries.has(answer.key))
        this.#remember(answer.key, { value: answer.answer, storedMs: answer.storedMs });
    }
    this.#cursor = { ...all.cursor, answerMs: Math.max(1, recent[recent.length - 1]?.storedMs ?? 1) };
    if (this.#o.shared !== true) return; // one process: nobody else writes the store
    const every = this.#o.syncIntervalMs ?? 1_000;
    let sinceprune = 0;
    const loop = () => {
      this.#syncTimer = setTimeout(() => {
        sinceprune += every;
        void this.sync()
          .then(async () => {
            if (sinceprune >= 600_000) {
              sinceprune = 0;
              const now = this.#o.now();
              const { freshMs, staleMs, staleIfErrorMs } = this.#o;
              await store.prune(now - freshMs - staleMs - staleIfErrorMs, now - 3_600_000);
            }
          })
          .catch((error: unknown) =>
            this.#o.logger.debug({ error: (error as Error).message }, 'shared search answers: sync failed'),
          )
          .finally(() => {
            if (!this.#closed) loop();
          });
      }, every);
      this.#syncTimer.unref?.();
    };
    loop();
  }

  /** Applies the evictions and listings other processes recorded since the last sync (tests call it directly). */
  sync(): Promise<void> {
    const store = this.#o.store;
    if (store === undefined || this.#cursor === undefined) return Promise.resolve();
    this.#syncing ??= (async () => {
      try {
        const changes = await store.changesSince(this.#cursor!);
        for (const domain of changes.evicted) this.#evictLocal(domain);
        // Prices other processes learned correct the answers held here.
        this.#learn(changes.listings.filter((l) => !changes.evicted.includes(l.domain)));
        for (const answer of changes.answers) {
          const kept = this.#entries.get(answer.key);
          if (this.#predatesEviction(answer.answer, answer.storedMs)) continue;
          if (kept === undefined || kept.storedMs < answer.storedMs) {
            this.#remember(answer.key, { value: answer.answer, storedMs: answer.storedMs });
            this.#queue.forget(answer.key);
          }
        }
        this.#cursor = changes.cursor;
      } finally {
        this.#syncing = undefined;
      }
    })();
    return this.#syncing;
  }

  /** Stops the sync timer and the queue (visitors still waiting are told busy). */
  close(): void {
    this.#closed = true;
    if (this.#syncTimer !== undefined) clearTimeout(this.#syncTimer);
    this.#queue.close();
  }

  #evictLocal(domain: string): void {
    for (const [key, entry] of this.#entries) {
      if (entry.value.domains.some((d) => d.domain.toLowerCase() === domain)) this.#entries.delete(key);
    }
    this.#index.remove(domain);
  }

  /** Makes the held `entry` of `key` the most recently used (already so when it was the last one moved). */
  #touch(key: string, entry: Entry): void {
    if (this.#newest === key) return;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#newest = key;
  }

  /** Keeps `entry` as the most recently used, corrected with the newest prices known; returns what was kept. */
  #remember(key: string, entry: Entry): Entry {
    const kept = corrected(entry, (domain) => this.#index.get(domain));
    this.#entries.delete(key);
    this.#entries.set(key, kept);
    this.#newest = key;
    while (this.#entries.size > this.#o.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return kept;
  }

  /** Fetches `key` with the token the queue took, and keeps the answer (in the store before anyone sees it). */
  async #load(key: string, ticket?: string): Promise<DomainSearchResponse> {
    this.#loadStarted.set(key, this.#o.now());
    let value: DomainSearchResponse;
    try {
      value = await this.#o.fetch(key, { maxWaitMs: 0, prepaid: 1, tickets: ticket === undefined ? [] : [ticket] });
    } catch (error) {
      this.#loadStarted.delete(key);
      throw error;
    }
    await this.#keep(key, value);
    return value;
  }

  async #keep(key: string, value: DomainSearchResponse): Promise<void> {
    const started = this.#loadStarted.get(key) ?? 0;
    this.#loadStarted.delete(key);
    this.#queue.forget(key);
    // An answer loaded before an eviction that names it may predate the change: served, never kept.
    const names = value.domains.map((d) => d.domain.toLowerCase());
    if (names.some((d) => (this.#evictedAt.get(d) ?? -Infinity) >= started)) return;
    const now = this.#o.now();
    if (this.#o.freshMs <= 0) return;
    this.#remember(key, { value, storedMs: now });
    const words = queryWords(key);
    const listings: SeenListing[] = value.domains.map((d, i) => ({
      domain: names[i]!,
      available: d.available,
      price_cents: d.price_cents,
      currency: d.currency,
      terms: nameTerms(names[i]!, words),
      seenMs: now,
    }));
    // The newest prices of these domains: every other answer held that lists one at another price is corrected.
    this.#learn(listings);
    try {
      await this.#o.store?.put(key, value, now, listings);
    } catch (error) {
      this.#o.logger.warn({ error: (error as Error).message }, 'could not share a search answer');
    }
  }
}
