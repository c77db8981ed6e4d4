/**
 * Search-as-you-type for `<dk-domain-search>`: debounce, minimum length, one request in flight, stale
 * answers dropped, a per-page cache, and the `busy` / `offline` waits. Modelled on `@lit/task`: a status, an
 * `AbortSignal` handed to the request, a call counter.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { DkApiError, isAbortError, toApiError } from '../api.ts';
import type { DkClock } from '../clock.ts';
import { LruCache } from '../lru.ts';
import type { DomainResult, SearchResponse } from '../types.ts';

/**
 * Where a search stands; reflected on the host as `data-state`. `busy`: the BFF answered 503 `busy` and the
 * search is repeated after its `retry_after`. `offline`: the browser is offline or the BFF could not be
 * reached; the search is repeated when the browser reports it is back online (or on Retry).
 */
export type SearchStatus = 'initial' | 'loading' | 'results' | 'empty' | 'error' | 'busy' | 'offline';

/** What {@link SearchController} needs from its host. */
export interface SearchControllerOptions {
  /** Runs one search. Must reject with an `AbortError` (or settle, ignored) once `signal` aborts. */
  readonly search: (query: string, signal: AbortSignal) => Promise<SearchResponse>;
  /** The host's clock (debounce, cache ages, busy countdown); read at each use. */
  readonly clock: () => DkClock;
  /** Called when a search starts (also one answered from the cache). */
  readonly onStart?: (query: string) => void;
  /** Called when the newest search answered (status `results` or `empty`). */
  readonly onResults?: (query: string, results: readonly DomainResult[]) => void;
  /** Called when the newest search failed (status `error`, `busy` or `offline`). */
  readonly onError?: (error: DkApiError) => void;
}

/** How many answers the page keeps, and for how long (milliseconds). */
const CACHE_SIZE = 20;
const CACHE_TTL = 60_000;

/**
 * Runs the search of a search box and holds its state for rendering.
 *
 * - {@link schedule} is called on every keystroke; it waits `delayMs` of quiet before searching.
 * - Starting a request aborts the one in flight (its `AbortSignal`), and a call counter drops any answer
 *   that still arrives for an older call, so older answers are never shown over newer ones.
 * - Answers are kept for a minute (20 queries at most): the same query again is answered from memory.
 * - A query shorter than `minLength` (after trimming) cancels everything and returns to `initial`.
 */
export class SearchController implements ReactiveController {
  /** Current status; `initial` until a query long enough is searched. */
  status: SearchStatus = 'initial';
  /** The query being searched or last searched (trimmed); `''` in `initial`. */
  query = '';
  /** Results of `query`, best first, when `status` is `results`. */
  results: readonly DomainResult[] = [];
  /** The failure of `query`, when `status` is `error`, `busy` or `offline`. */
  error: DkApiError | undefined = undefined;
  /** With `busy`: the clock time (ms) at which the search is repeated. */
  retryAt = 0;

  readonly #host: ReactiveControllerHost;
  readonly #options: SearchControllerOptions;
  readonly #cache: LruCache<SearchResponse>;
  #timer: unknown;
  #inFlight: AbortController | undefined;
  #calls = 0;
  #interrupted = false;

  constructor(host: ReactiveControllerHost, options: SearchControllerOptions) {
    this.#host = host;
    this.#options = options;
    this.#cache = new LruCache(CACHE_SIZE, CACHE_TTL, options.clock);
    host.addController(this);
  }

  /**
   * Searches `text` (trimmed) after `delayMs` milliseconds unless called again before then. Returns to
   * `initial` at once when the query is shorter than `minLength`; does nothing when the query is the one
   * already shown or in flight.
   */
  schedule(text: string, delayMs: number, minLength: number): void {
    const query = text.trim();
    if (query.length < minLength) return this.reset();
    if (query === this.query && /^(loading|results|empty)$/.test(this.status)) return this.#clearTimer();
    this.#wait(() => void this.run(query), delayMs);
  }

  /**
   * Searches `query` now: aborts the request in flight, answers from the cache or sets `loading`, then
   * `results`, `empty`, `error`, `busy` or `offline` unless a newer call started meanwhile. Never rejects.
   */
  async run(query: string): Promise<void> {
    this.#cancel();
    const call = this.#calls;
    const abort = new AbortController();
    this.#inFlight = abort;
    this.query = query;
    this.error = undefined;
    this.results = [];
    const cached = this.#cache.get(query);
    this.#options.onStart?.(query);
    try {
      if (cached) return this.#answer(query, cached);
      if (globalThis.navigator?.onLine === false) throw new DkApiError('offline', 'The browser is offline.');
      this.#set('loading');
      const response = await this.#options.search(query, abort.signal);
      if (call !== this.#calls) return;
      this.#cache.set(query, response);
      this.#answer(query, response);
    } catch (caught) {
      if (call !== this.#calls || isAbortError(caught)) return;
      const error = (this.error = toApiError(caught));
      if (error.code === 'busy') {
        const seconds = Math.max(1, error.retryAfter ?? 5);
        this.retryAt = this.#options.clock().now() + seconds * 1000;
        this.#set('busy');
        this.#countdown(query);
      } else {
        this.#set(error.code === 'offline' || error.code === 'network_error' ? 'offline' : 'error');
      }
      this.#options.onError?.(error);
    } finally {
      if (this.#inFlight === abort) this.#inFlight = undefined;
    }
  }

  /** Repeats the current query now (the Retry button, coming back online). Does nothing in `initial`. */
  retry(): void {
    if (this.query !== '') void this.run(this.query);
  }

  /** Cancels the pending and in-flight search and returns to `initial`. */
  reset(): void {
    this.#cancel();
    this.query = '';
    this.results = [];
    this.error = undefined;
    this.#set('initial');
  }

  /** Forgets every cached answer (availability changed, e.g. after a purchase). */
  clearCache(): void {
    this.#cache.clear();
  }

  hostConnected(): void {
    globalThis.addEventListener('online', this.#onOnline);
    // Moved in the DOM mid-request: the request was cancelled on disconnect, so run it again.
    if (this.#interrupted) {
      this.#interrupted = false;
      this.retry();
    }
  }

  hostDisconnected(): void {
    globalThis.removeEventListener('online', this.#onOnline);
    this.#interrupted = /^(loading|busy)$/.test(this.status);
    this.#cancel();
  }

  readonly #onOnline = (): void => {
    if (this.status === 'offline') this.retry();
  };

  /** Re-renders the busy countdown each second, then searches again once `retryAt` is reached. */
  #countdown(query: string): void {
    const left = this.retryAt - this.#options.clock().now();
    if (left <= 0) return void this.run(query);
    this.#host.requestUpdate();
    this.#wait(() => this.#countdown(query), left % 1000 || 1000);
  }

  #answer(query: string, response: SearchResponse): void {
    this.results = response.results;
    this.#set(response.results.length > 0 ? 'results' : 'empty');
    this.#options.onResults?.(query, response.results);
  }

  #set(status: SearchStatus): void {
    this.status = status;
    this.#host.requestUpdate();
  }

  #wait(callback: () => void, ms: number): void {
    this.#clearTimer();
    this.#timer = this.#options.clock().setTimeout(callback, ms);
  }

  #cancel(): void {
    this.#clearTimer();
    this.#calls++;
    this.#inFlight?.abort();
    this.#inFlight = undefined;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.#options.clock().clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
