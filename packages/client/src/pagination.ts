/**
 * Cursor pagination (docs/architecture.md "Lists"): a list answers `{<plural>: [...], next_cursor}` and the next page is asked
 * for with that cursor (`cursor=` on most lists, `after_id=` on `GET /events`, Partner API spec 4.1). A {@link PageIterator}
 * walks the pages lazily: `for await (const order of client.orders.list({ status: 'SETTLED' })) { … }`.
 */

/** One page of a cursor list. */
export interface Page<TItem, TRaw = unknown> {
  /** The page's items, in the order the marketplace answered them. */
  readonly items: readonly TItem[];
  /** The cursor of the next page, or `null` on the last page (for events: caught up). */
  readonly nextCursor: string | null;
  /** The whole parsed answer (for fields beside the list, such as the totals of `GET /transactions`). */
  readonly raw: TRaw;
}

/** Fetches the page after `cursor` (`undefined`: the first page). */
export type PageFetcher<TItem, TRaw> = (
  cursor: string | undefined,
  signal: AbortSignal | undefined,
) => Promise<Page<TItem, TRaw>>;

/**
 * An async iterable over every item of a cursor list, fetching pages only as they are needed. Iterating twice
 * starts again from the first page. A list whose server answers the cursor it was given (a loop) ends with a
 * `TypeError` rather than looping forever.
 */
export class PageIterator<TItem, TRaw = unknown> implements AsyncIterable<TItem> {
  readonly #fetchPage: PageFetcher<TItem, TRaw>;
  readonly #firstCursor: string | undefined;
  readonly #signal: AbortSignal | undefined;

  /**
   * @param fetchPage - fetches one page.
   * @param firstCursor - where to start (`after_id` of events; `undefined` for the beginning).
   */
  constructor(fetchPage: PageFetcher<TItem, TRaw>, firstCursor?: string, signal?: AbortSignal) {
    this.#fetchPage = fetchPage;
    this.#firstCursor = firstCursor;
    this.#signal = signal;
  }

  /** Every page in turn, the first included even when empty. */
  async *pages(): AsyncGenerator<Page<TItem, TRaw>, void, undefined> {
    let cursor = this.#firstCursor;
    const seen = new Set<string>();
    for (;;) {
      this.#signal?.throwIfAborted();
      const page = await this.#fetchPage(cursor, this.#signal);
      yield page;
      const next = page.nextCursor;
      if (next === null || next === '' || page.items.length === 0) return;
      if (next === cursor || seen.has(next)) {
        throw new TypeError(
          `the marketplace answered the cursor ${JSON.stringify(next)} twice: stopping instead of looping`,
        );
      }
      seen.add(next);
      cursor = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<TItem, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /**
   * Collects the items into an array.
   * @param options.max - stop after this many items (default 10 000, a guard against unbounded lists).
   */
  async toArray(options: { max?: number } = {}): Promise<TItem[]> {
    const max = options.max ?? 10_000;
    const out: TItem[] = [];
    if (max <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}
