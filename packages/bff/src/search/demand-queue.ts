/**
 * The miss queue: when the upstream search budget (spec 8: 60 searches a minute per credential) is short, searches
 * the cache cannot answer wait here, and each token goes to the query the most visitors want: first the query with
 * the most visitors waiting, then the one asked most often recently (a count decaying with a half-life). A visitor
 * waits at most a bounded time; one whose query cannot get a token in that time is told so at once (its caller
 * answers from the listing index, or "busy"). A visitor request that is aborted leaves no demand behind, and a
 * query nobody waits for any more takes no token.
 *
 * A token no waiting visitor needs is spare: it goes to background work (prefetching the most demanded query not
 * cached, refreshing a stale answer, the queries of visitors who were told "busy" and left), taken with a reserve
 * left in the bucket for visitors (the BFF leaves the burst less one: background work spends only the tokens that
 * would overflow). A visitor waiting never waits on a wake-up set for background work: it takes the next token as
 * soon as one is there.
 */

/** Whether a load serves waiting visitors or spends a spare token. */
export type QueueMode = 'foreground' | 'background';

/** The answer of a token attempt: one was taken, or how long until one is expected (ms). */
export type TokenAttempt =
  | { readonly ok: true; readonly ticket?: string | undefined; readonly nextMs?: number | undefined }
  | { readonly ok: false; readonly waitMs: number; readonly nextMs?: number | undefined };

/** What {@link DemandQueue.wait} resolves to. */
export type WaitOutcome<T> =
  | { readonly status: 'loaded'; readonly value: T }
  /** No token could come within the wait limit for this query (others are in more demand): not queued. */
  | { readonly status: 'declined' }
  /** Waited the whole limit without a token. */
  | { readonly status: 'timeout' }
  /** The visitor went away (its request was aborted). */
  | { readonly status: 'aborted' };

/** Settings of a {@link DemandQueue}. */
export interface DemandQueueOptions<T> {
  /**
   * Takes one search token without waiting. `background` attempts must leave a reserve for visitors (the budget's
   * `reserve` option); `foreground` ones may take the last token.
   */
  readonly take: (mode: QueueMode) => Promise<TokenAttempt>;
  /** Fetches `key` upstream; called only after {@link take} gave a token for it (with the token's `ticket`). */
  readonly load: (key: string, mode: QueueMode, ticket?: string) => Promise<T>;
  /** Told every loaded answer, foreground or background (the caller stores it). */
  readonly onLoaded?: ((key: string, value: T, mode: QueueMode) => void) | undefined;
  /** Told a failed background load (nobody waits for it). */
  readonly onBackgroundError?: ((key: string, error: unknown) => void) | undefined;
  /** Milliseconds between two tokens once the burst is spent (60 000 / refill per minute). */
  readonly tokenIntervalMs: number;
  /** Half-life of a query's recent-ask count, in ms; default 10 minutes. */
  readonly demandHalfLifeMs?: number | undefined;
  /** Most queries whose demand is remembered; default 20 000 (the oldest remembered is forgotten first). */
  readonly maxTracked?: number | undefined;
  /** Clock in ms; default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** How many of the queries in most demand are tracked for admission, and how often they are recomputed (ms). */
const TOP_SIZE = 16;
const TOP_REFRESH_MS = 100;

interface Waiter<T> {
  settle(outcome: WaitOutcome<T>): void;
  fail(error: unknown): void;
  /** A token was taken for its query: the wait limit (for a token) no longer applies. */
  started(): void;
}

interface Demand {
  /** Decayed count of asks, as of `atMs`. */
  score: number;
  atMs: number;
}

/** Counters of what the queue did, for metrics. */
export interface DemandQueueStats {
  /** Tokens spent on waiting visitors. */
  foregroundLoads: number;
  /** Spare tokens spent (prefetch or refresh). */
  backgroundLoads: number;
  /** Misses told at once that no token would come in time. */
  declined: number;
  /** Visitors that waited the whole limit. */
  timedOut: number;
  /** Visitors that went away while waiting. */
  aborted: number;
}

/**
 * The demand-ordered miss queue of one process. Tokens come from the shared budget, so several processes each run
 * one; each ranks by the demand it sees.
 */
export class DemandQueue<T> {
  readonly #o: DemandQueueOptions<T>;
  readonly #now: () => number;
  readonly #halfLife: number;
  readonly #maxTracked: number;
  /** Visitors waiting for a token, per query. */
  readonly #waiting = new Map<string, Set<Waiter<T>>>();
  /** Loads under way and the visitors waiting for each. */
  readonly #loading = new Map<string, Set<Waiter<T>>>();
  /** Recent demand of queries that have no fresh cached answer. */
  readonly #demand = new Map<string, Demand>();
  #pumping = false;
  #topList: Array<[string, number]> | undefined;
  #topAt = -Infinity;
  #wake: NodeJS.Timeout | undefined;
  /** When the next token (with the reserve asked for) is expected, as last seen (0: now). */
  #nextTokenAt = 0;
  /** When the next token for a waiting visitor (no reserve) is expected, as last seen (0: now). */
  #visitorTokenAt = 0;
  #closed = false;
  readonly stats: DemandQueueStats = { foregroundLoads: 0, backgroundLoads: 0, declined: 0, timedOut: 0, aborted: 0 };

  constructor(options: DemandQueueOptions<T>) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#halfLife = options.demandHalfLifeMs ?? 600_000;
    this.#maxTracked = options.maxTracked ?? 20_000;
  }

  /** The decayed recent-ask count of `key` now. */
  demandOf(key: string): number {
    const d = this.#demand.get(key);
    return d === undefined ? 0 : this.#decayed(d);
  }

  /** Visitors waiting for `key` (queued or loading). */
  waitersOf(key: string): number {
    return (this.#waiting.get(key)?.size ?? 0) + (this.#loading.get(key)?.size ?? 0);
  }

  /** Visitors waiting for a token now. */
  get waiting(): number {
    let n = 0;
    for (const set of this.#waiting.values()) n += set.size;
    return n;
  }

  /** Loads under way. */
  get loading(): number {
    return this.#loading.size;
  }

  /**
   * Waits, at most `maxWaitMs`, for an upstream answer to `key` (a visitor's cache miss), counting one ask of it.
   * Joins a load already under way. Resolves `declined` at once when, by demand, no token can come for this query
   * in time; `timeout` or `aborted` otherwise. Rejects with the load's error when the load fails.
   */
  wait(key: string, maxWaitMs: number, signal?: AbortSignal): Promise<WaitOutcome<T>> {
    if (signal?.aborted) return Promise.resolve({ status: 'aborted' });
    this.#ask(key, 1);
    const loading = this.#loading.get(key);
    if (loading === undefined && !this.#admit(key, maxWaitMs)) {
      this.stats.declined++;
      return Promise.resolve({ status: 'declined' });
    }
    return new Promise<WaitOutcome<T>>((resolve, reject) => {
      let done = false;
      let set: Set<Waiter<T>>;
      const finish = () => {
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        set.delete(waiter);
      };
      const waiter: Waiter<T> = {
        started() {
          clearTimeout(timer);
        },
        settle(outcome) {
          if (done) return;
          finish();
          resolve(outcome);
        },
        fail(error) {
          if (done) return;
          finish();
          reject(error);
        },
      };
      const onAbort = () => {
        if (done) return;
        this.stats.aborted++;
        // The visitor went away: its ask is taken back, and a query nobody waits for takes no token.
        this.#ask(key, -1);
        waiter.settle({ status: 'aborted' });
        this.#dropIfEmpty(key);
      };
      const timer = setTimeout(() => {
        if (done) return;
        this.stats.timedOut++;
        waiter.settle({ status: 'timeout' });
        this.#dropIfEmpty(key);
      }, maxWaitMs);
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (loading !== undefined) set = loading;
      else {
        set = this.#waiting.get(key) ?? new Set();
        this.#waiting.set(key, set);
      }
      set.add(waiter);
      this.#pump();
    });
  }

  /**
   * Counts one ask of `key` answered from a stale copy (or from the index): a spare token may refresh or fetch it,
   * by demand. Never takes a token while a visitor waits.
   */
  want(key: string): void {
    this.#ask(key, 1);
    this.#pump();
  }

  /** Forgets the demand of `key` (it now has a fresh answer). */
  forget(key: string): void {
    this.#demand.delete(key);
  }

  /** Seconds a visitor told "busy" should wait before retrying (at least 1). */
  retryAfterSeconds(): number {
    const until = Math.max(this.#visitorTokenAt - this.#now(), this.#o.tokenIntervalMs);
    return Math.max(1, Math.ceil(until / 1000));
  }

  /** Stops the timers; visitors still waiting are answered `timeout`. */
  close(): void {
    this.#closed = true;
    if (this.#wake !== undefined) clearTimeout(this.#wake);
    for (const set of this.#waiting.values()) for (const w of [...set]) w.settle({ status: 'timeout' });
    this.#waiting.clear();
  }

  #decayed(d: Demand): number {
    return d.score * 2 ** (-(this.#now() - d.atMs) / this.#halfLife);
  }

  #ask(key: string, delta: number): void {
    const now = this.#now();
    const d = this.#demand.get(key);
    if (d === undefined) {
      if (delta <= 0) return;
      this.#demand.set(key, { score: delta, atMs: now });
      if (this.#demand.size > this.#maxTracked) {
        const oldest = this.#demand.keys().next().value;
        if (oldest !== undefined) this.#demand.delete(oldest);
      }
      return;
    }
    d.score = Math.max(0, this.#decayed(d) + delta);
    d.atMs = now;
    if (d.score < 1e-6) this.#demand.delete(key);
  }

  /**
   * Whether a token can come for `key` within `maxWaitMs`: the tokens due in that time go to the queries in most
   * demand (waiting, or asked often recently and still without an answer), so a query outside that many is told at
   * once rather than kept waiting for nothing.
   */
  #admit(key: string, maxWaitMs: number): boolean {
    const now = this.#now();
    const untilNext = Math.max(0, this.#visitorTokenAt - now);
    if (untilNext > maxWaitMs) return false;
    const tokensSoon = 1 + Math.floor((maxWaitMs - untilNext) / this.#o.tokenIntervalMs);
    const mine = this.#score(key);
    let ahead = 0;
    for (const [other, score] of this.#top(now)) {
      if (other === key) continue;
      if (score > mine) ahead++;
      if (ahead >= tokensSoon) return false;
    }
    return true;
  }

  /** A query's claim on the next token: visitors waiting for it count first, then its recent demand. */
  #score(key: string): number {
    return (this.#waiting.get(key)?.size ?? 0) * 1e6 + this.demandOf(key);
  }

  /** The queries in most demand, best first (recomputed at most every {@link TOP_REFRESH_MS}). */
  #top(now: number): ReadonlyArray<readonly [string, number]> {
    if (now - this.#topAt < TOP_REFRESH_MS && this.#topList !== undefined) {
      // Waiting counts move faster than demand: refresh the scores of the queries listed.
      return this.#topList.map(([key]) => [key, this.#score(key)] as const);
    }
    const best: Array<[string, number]> = [];
    const consider = (key: string) => {
      if (this.#loading.has(key)) return;
      const score = this.#score(key);
      if (best.length === TOP_SIZE && score <= best[TOP_SIZE - 1]![1]) return;
      if (best.some(([k]) => k === key)) return;
      best.push([key, score]);
      best.sort((a, b) => b[1] - a[1]);
      if (best.length > TOP_SIZE) best.pop();
    };
    for (const key of this.#waiting.keys()) consider(key);
    for (const key of this.#demand.keys()) consider(key);
    this.#topList = best;
    this.#topAt = now;
    return best;
  }

  #dropIfEmpty(key: string): void {
    const set = this.#waiting.get(key);
    if (set !== undefined && set.size === 0) this.#waiting.delete(key);
  }

  /** The waiting query in most demand: most visitors waiting, then most asked recently. */
  #bestWaiting(): string | undefined {
    let best: string | undefined;
    let bestWaiters = 0;
    let bestDemand = -1;
    for (const [key, set] of this.#waiting) {
      if (set.size === 0) continue;
      const demand = this.demandOf(key);
      if (set.size > bestWaiters || (set.size === bestWaiters && demand > bestDemand)) {
        best = key;
        bestWaiters = set.size;
        bestDemand = demand;
      }
    }
    return best;
  }

  /** The query a spare token serves best: the most asked recently without a fresh answer, not loading. */
  #bestSpare(): string | undefined {
    let best: string | undefined;
    let bestDemand = 0;
    for (const [key, d] of this.#demand) {
      if (this.#loading.has(key)) continue;
      const demand = this.#decayed(d);
      if (demand > bestDemand) {
        best = key;
        bestDemand = demand;
      }
    }
    return best;
  }

  #pump(): void {
    if (this.#wake !== undefined) {
      const now = this.#now();
      // The wake may be set for a background token (one beyond the reserve): a visitor waiting now needs none, and
      // must not be held up until then (after a 429 pause, that wait outlasted every visitor's).
      if (this.#visitorTokenAt < this.#nextTokenAt && this.#bestWaiting() !== undefined) {
        this.#nextTokenAt = this.#visitorTokenAt;
        clearTimeout(this.#wake);
        this.#wake = undefined;
        if (this.#nextTokenAt > now) this.#sleep(this.#nextTokenAt - now);
      }
      if (this.#wake !== undefined && this.#nextTokenAt <= now) {
        clearTimeout(this.#wake);
        this.#wake = undefined;
      }
    }
    if (this.#pumping || this.#closed || this.#wake !== undefined) return;
    this.#pumping = true;
    void this.#run().finally(() => {
      this.#pumping = false;
    });
  }

  async #run(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const foreground = this.#bestWaiting() !== undefined;
      if (!foreground && this.#bestSpare() === undefined) return;
      let attempt: TokenAttempt;
      try {
        attempt = await this.#o.take(foreground ? 'foreground' : 'background');
      } catch (error) {
        // The budget's store failed (database gone): waiting visitors get the error, the next ask retries.
        for (const set of this.#waiting.values()) for (const w of [...set]) w.fail(error);
        this.#waiting.clear();
        return;
      }
      this.#visitorTokenAt = this.#now() + (attempt.nextMs ?? (attempt.ok ? 0 : attempt.waitMs));
      if (!attempt.ok) {
        this.#nextTokenAt = this.#now() + attempt.waitMs;
        this.#sleep(attempt.waitMs);
        return;
      }
      this.#nextTokenAt = 0;
      // Demand may have moved while the token was taken: choose now. A waiting visitor always comes first.
      const key = this.#bestWaiting();
      if (key !== undefined) this.#start(key, 'foreground', attempt.ticket);
      else {
        const spare = this.#bestSpare();
        if (spare === undefined) return; // the token goes unused: nobody wants anything any more
        this.#start(spare, 'background', attempt.ticket);
      }
    }
  }

  /** Pumps again in `ms` (the next token expected then). */
  #sleep(ms: number): void {
    this.#wake = setTimeout(
      () => {
        this.#wake = undefined;
        this.#pump();
      },
      Math.max(1, ms),
    );
    this.#wake.unref?.();
  }

  #start(key: string, mode: QueueMode, ticket?: string): void {
    const waiters = this.#waiting.get(key) ?? new Set<Waiter<T>>();
    this.#waiting.delete(key);
    this.#loading.set(key, waiters);
    this.#demand.delete(key);
    for (const w of waiters) w.started();
    if (mode === 'foreground') this.stats.foregroundLoads++;
    else this.stats.backgroundLoads++;
    void Promise.resolve()
      .then(() => this.#o.load(key, mode, ticket))
      .then(
        (value) => {
          this.#loading.delete(key);
          this.#o.onLoaded?.(key, value, mode);
          for (const w of [...waiters]) w.settle({ status: 'loaded', value });
        },
        (error: unknown) => {
          this.#loading.delete(key);
          if (waiters.size === 0) this.#o.onBackgroundError?.(key, error);
          for (const w of [...waiters]) w.fail(error);
        },
      );
  }
}
