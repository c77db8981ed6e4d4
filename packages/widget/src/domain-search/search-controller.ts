/**
 * Search-as-you-type for `<dk-domain-search>`: debounce, minimum length, one request in flight, stale
 * answers dropped, a per-page cache, and the `busy` / `offline` waits (see {@link DkController}).
 */
import { DkApiError, searchDomains, toApiError } from '../api.ts';
import { DkController, type DkHost } from '../controller.ts';
import { DkResultsEvent } from '../events/dk-results.ts';
import { DkSearchEvent } from '../events/dk-search.ts';
import { lazy } from '../lazy.ts';
import { LruCache } from '../lru.ts';
import type { WidgetDomain, SearchResponse, SiblingsAnswer } from '../types.ts';
import type * as resultsModule from './results.ts';
import type * as siblingsModule from './siblings.ts';

/** What the search box's host adds to {@link DkHost}. */
export interface SearchHost extends DkHost {
  /** Whether to look up alternate-TLD siblings after each answer (a whole domain typed is looked up anyway, for its verdict). */
  readonly siblings: boolean;
}

/** A cached answer, with its siblings (and the typed domain's standing) once they arrived. */
type Answer = { -readonly [K in keyof SearchResponse]: SearchResponse[K] } & { found?: SiblingsAnswer };

/**
 * Where a search stands; reflected on the host as `data-state`. `busy`: the BFF answered 503 `busy` (or 429
 * `rate_limited`) and the search is repeated after its `retry_after`. `offline`: the browser is offline or the
 * BFF could not be reached; the search is repeated when the browser is back online (or on Retry).
 */
export type SearchStatus = 'initial' | 'loading' | 'results' | 'empty' | 'error' | 'busy' | 'offline';

/** The siblings module (`siblings` attribute, and the verdict on a whole domain typed), loaded on first use. */
export type SiblingsModule = typeof siblingsModule;

/** Loads the siblings module once (see {@link lazy}). */
export const loadSiblingsModule = lazy(() => import('./siblings.ts'));

/** The result rows module, loaded on demand (prefetched when the browser is idle). */
export type ResultsModule = typeof resultsModule;

/** Loads the result rows module once (see {@link lazy}). */
export const loadResultsModule = lazy(() => import('./results.ts'));

/**
 * Whether `query` is under `minLength` characters as a reader counts them: grapheme clusters (`Intl.Segmenter`), so
 * "é" typed as e + a combining accent, or an emoji with its modifier, is one. A query in Chinese, Japanese or Korean
 * script may be one shorter (at least 1): two of its characters are often a whole word.
 */
export function tooShort(query: string, minLength: number): boolean {
  // Printable ASCII (most queries): each character is a grapheme and none is CJK. The Unicode checks below are skipped
  // then: their first use loads the ICU segmentation and script data in the keystroke (80 ms at 4x CPU slowdown).
  if (/^[ -~]*$/.test(query)) return query.length < minLength;
  const cjk = /[\p{sc=Han}\p{sc=Hira}\p{sc=Kana}\p{sc=Hang}]/u.test(query);
  return [...new Intl.Segmenter().segment(query)].length < (cjk ? Math.max(1, minLength - 1) : minLength);
}

/** How many answers the page keeps, and for how long (milliseconds). */
const CACHE_SIZE = 20;
const CACHE_TTL = 60_000;

/**
 * Runs the search of a search box and holds its state for rendering; fires `dk-search`, `dk-results` and
 * `dk-error` on its host.
 *
 * - {@link schedule} is called on every keystroke; it waits `delayMs` of quiet before searching.
 * - Starting a request aborts the one in flight (its `AbortSignal`); an answer that still arrives for it finds
 *   its signal aborted and is dropped, so older answers are never shown over newer ones.
 * - Answers are kept for a minute (20 queries at most): the same query again is answered from memory.
 * - A query shorter than `minLength` (after trimming; see {@link tooShort}) cancels everything and returns to
 *   `initial`. Queries are searched in Unicode NFC.
 */
export class SearchController extends DkController<SearchStatus> {
  /** The query being searched or last searched (trimmed); `''` in `initial`. */
  query = '';
  /** Results of `query`, best first, when `status` is `results`. */
  results: readonly WidgetDomain[] = [];
  /**
   * Alternate-TLD siblings of `query` not among `results`, and the standing of the domain typed (with the host's
   * `siblings` on, or a query with a dot), once they arrived.
   */
  found: SiblingsAnswer | undefined;
  /** With `busy`: the clock time (ms) at which the search is repeated. */
  retryAt = 0;
  /** The result rows module, once loaded (results are shown once it is). */
  declare rows: ResultsModule | undefined;
  /** The siblings module, once loaded (it renders the verdict and the siblings). */
  declare extras: SiblingsModule | undefined;

  declare protected readonly host: SearchHost;
  readonly #cache = new LruCache<Answer>(CACHE_SIZE, CACHE_TTL, () => this.host.clock);
  #interrupted = false;

  constructor(host: SearchHost) {
    super(host, 'initial');
  }

  /**
   * Searches `text` (trimmed) after `delayMs` milliseconds unless called again before then. Returns to
   * `initial` at once when the query is shorter than `minLength`; does nothing when the query is the one
   * already shown or in flight.
   */
  schedule(text: string, delayMs: number, minLength: number): void {
    const query = text.trim().normalize(); // Unicode NFC
    if (tooShort(query, minLength)) this.reset();
    else if (query === this.query && /^(loading|results|empty)$/.test(this.status)) this.wait();
    else this.wait(() => void this.run(query), delayMs);
  }

  /**
   * Searches `query` now: aborts the request in flight, answers from the cache or sets `loading`, then
   * `results`, `empty`, `error`, `busy` or `offline` unless a newer call started meanwhile. Never rejects.
   */
  async run(query: string): Promise<void> {
    const signal = this.start('loading');
    const host = this.host;
    // The previous results (and siblings) stay, dimmed, until the answer replaces them: nothing jumps.
    this.query = query;
    host.dispatchEvent(new DkSearchEvent({ query }));
    try {
      let response = this.#cache.get(query);
      if (!response) {
        if (globalThis.navigator?.onLine === false) throw new DkApiError('offline', 'The browser is offline.');
        response = await searchDomains(host.api, query, { signal });
        if (signal.aborted) return;
        this.#cache.set(query, response);
      }
      // The rows' module is normally there long before (prefetched at idle); a failed load fails the search.
      if (response.results.length) this.rows ??= await loadResultsModule();
      if (signal.aborted) return;
      this.results = response.results;
      this.found = response.found;
      this.set(this.results.length > 0 ? 'results' : 'empty');
      host.dispatchEvent(new DkResultsEvent({ query, results: this.results }));
      if ((host.siblings || query.includes('.')) && !response.found) void this.#loadSiblings(query, response, signal);
    } catch (caught) {
      if (signal.aborted) return;
      const { code, retryAfter } = toApiError(caught);
      const busy = code === 'busy' || code === 'rate_limited';
      if (busy) this.retryAt = host.clock.now() + (retryAfter || 5) * 1000;
      this.fail(caught, busy ? 'busy' : code === 'offline' || code === 'network_error' ? 'offline' : 'error');
      // Re-renders the countdown each second, then searches again.
      if (busy) this.countdown(this.retryAt, () => void this.run(query));
    }
  }

  /**
   * Looks up the siblings of `query` after its `answer` is shown (never delaying it), dropping those among its results.
   * Aborted with the search; a late answer for an older query is dropped; a failure leaves the results as they
   * are (no siblings, no `dk-error`: they are extra).
   */
  async #loadSiblings(query: string, answer: Answer, signal: AbortSignal): Promise<void> {
    try {
      this.extras ??= await loadSiblingsModule();
      const found = await this.extras.loadSiblings(this.host.api, query, answer.results, signal);
      if (signal.aborted) return;
      // The domain typed, when among the results, first (kept so in the cached answer).
      this.results = answer.results = this.extras.exactFirst(answer.results, query);
      this.found = answer.found = found;
      this.host.requestUpdate();
    } catch {
      // Extra information only: the results stay as they are.
    }
  }

  /** Repeats the current query now (the Retry button, coming back online). Does nothing in `initial`. */
  retry(): void {
    if (this.query !== '') void this.run(this.query);
  }

  /** Cancels the pending and in-flight search and returns to `initial`. */
  reset(): void {
    this.stop();
    this.query = '';
    this.results = [];
    this.found = undefined;
    this.error = undefined;
    this.set('initial');
  }

  /** Forgets every cached answer (availability changed, e.g. after a purchase). */
  clearCache(): void {
    this.#cache.clear();
  }

  /**
   * Shows `domain`'s row at the price the BFF just gave for it (a quote, a checkout session: minor units of
   * `currency`) when it lists another, and forgets the cached answers, which may hold the old one.
   */
  reprice(domain: string, price_cents?: number, currency?: string): void {
    const row = this.results.find((r) => r.domain === domain);
    if (!row || price_cents === undefined || (row.price_cents === price_cents && row.currency === currency)) return;
    this.results = this.results.map((r) => (r === row ? { ...r, price_cents, currency: currency ?? null } : r));
    this.clearCache();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    globalThis.addEventListener('online', this.#onOnline);
    // Moved in the DOM mid-request: the request was cancelled on disconnect, so run it again.
    if (this.#interrupted) {
      this.#interrupted = false;
      this.retry();
    }
  }

  override hostDisconnected(): void {
    globalThis.removeEventListener('online', this.#onOnline);
    this.#interrupted = /^(loading|busy)$/.test(this.status);
    super.hostDisconnected();
  }

  readonly #onOnline = (): void => {
    if (this.status === 'offline') this.retry();
  };
}
