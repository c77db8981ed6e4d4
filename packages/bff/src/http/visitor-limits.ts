/**
 * Per-visitor request limits, so one visitor cannot spend the upstream budget every visitor shares (Partner API
 * spec 8): a fixed window per visitor (60 s from its first request), counted before the route runs. A visitor over
 * the limit gets 429 `rate_limited` with `Retry-After` and `error.retry_after` (seconds), in the BFF's error shape;
 * every answer of a limited route carries `RateLimit-Policy` and `RateLimit` (IETF draft-ietf-httpapi-ratelimit-headers
 * 07, as before).
 *
 * Where the counts live: in this process's memory ({@link MemoryVisitorHitStore}) with PGlite or no database
 * (one process), and in the `bff_visitor_hits` table ({@link SqlVisitorHitStore}) when the BFF runs on PostgreSQL,
 * so every process sharing it counts a visitor's requests together: behind a round-robin balancer a visitor gets the
 * limit once, never once per process.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { BffDb } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import { errorFields } from '../logger.ts';
import type { VisitorLimitOptions } from '../options.ts';

/** A visitor's count in its window. */
export interface IncrementResponse {
  /** Requests counted in the window, this one included. */
  readonly totalHits: number;
  /** When the window ends. */
  readonly resetTime: Date | undefined;
}

/** Where one limit's counts live. */
export interface VisitorHitStore {
  /** Told the window length before the first count. */
  init?(options: { readonly windowMs: number }): void;
  /** Counts one request of `key` (the visitor), starting a window at its first. */
  increment(key: string): Promise<IncrementResponse> | IncrementResponse;
}

/** Counts in this process's memory; a visitor's entry goes once its window has ended (swept once a window). */
export class MemoryVisitorHitStore implements VisitorHitStore {
  readonly #hits = new Map<string, { hits: number; resetMs: number }>();
  readonly #now: () => number;
  #windowMs = 60_000;
  #sweptMs = 0;

  /** @param now - clock, ms since the epoch. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  init(options: { readonly windowMs: number }): void {
    this.#windowMs = options.windowMs;
  }

  increment(key: string): IncrementResponse {
    const now = this.#now();
    if (now - this.#sweptMs >= this.#windowMs) {
      this.#sweptMs = now;
      for (const [k, entry] of this.#hits) if (entry.resetMs <= now) this.#hits.delete(k);
    }
    let entry = this.#hits.get(key);
    if (entry === undefined || entry.resetMs <= now) {
      entry = { hits: 0, resetMs: now + this.#windowMs };
      this.#hits.set(key, entry);
    }
    entry.hits++;
    return { totalHits: entry.hits, resetTime: new Date(entry.resetMs) };
  }
}

/** Default searches per visitor per minute. */
export const DEFAULT_VISITOR_SEARCHES_PER_MINUTE = 30;
/** Default writes (checkout, quotes, orders) per visitor per minute. */
export const DEFAULT_VISITOR_WRITES_PER_MINUTE = 10;

/** Per-visitor limits; `false` when turned off. */
export type VisitorLimits =
  | false
  | {
      readonly searchesPerMinute: number;
      readonly writesPerMinute: number;
      readonly keyGenerator: VisitorLimitOptions['keyGenerator'];
      /** The window the limits count in (ms); 60 000. */
      readonly windowMs: number;
    };

/**
 * A store counting each visitor's requests in the `bff_visitor_hits` table: one atomic
 * upsert per request (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so processes sharing the PostgreSQL count
 * together. A window starts at a visitor's first request and lasts `windowMs`, as the memory store's does. Keys are
 * stored as `prefix` + SHA-256 of the visitor's key (the client IP by default), never the IP itself; rows of windows
 * that ended are deleted at most once a window. When the database fails, the request is counted in this process's
 * memory instead (logged at warn, once a window), so the limit still holds per process and the visitor is never
 * answered an error for it.
 */
export class SqlVisitorHitStore implements VisitorHitStore {
  /** Counts are shared by every process: a key counted here counts everywhere. */
  readonly localKeys = false;
  readonly prefix: string;
  readonly #db: () => Promise<BffDb>;
  readonly #now: () => number;
  readonly #logger: Logger;
  readonly #fallback: MemoryVisitorHitStore;
  #windowMs = 60_000;
  #prunedMs = 0;
  #warnedMs = -Infinity;

  /**
   * @param db - the open database (PostgreSQL shared by the BFF's processes).
   * @param prefix - what keeps this limit's counts apart from the other limits' (`search:`, `write:`…).
   * @param now - clock, ms since the epoch.
   */
  constructor(options: { db: () => Promise<BffDb>; prefix: string; now: () => number; logger: Logger }) {
    this.#db = options.db;
    this.prefix = options.prefix;
    this.#now = options.now;
    this.#logger = options.logger;
    this.#fallback = new MemoryVisitorHitStore(options.now);
  }

  init(options: { readonly windowMs: number }): void {
    this.#windowMs = options.windowMs;
    this.#fallback.init(options);
  }

  #key(key: string): string {
    return `${this.prefix}${createHash('sha256').update(key, 'utf8').digest('hex')}`;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const now = this.#now();
    const reset = now + this.#windowMs;
    try {
      const db = await this.#db();
      const { rows } = await sql<{ hits: number; reset_ms: number }>`
        insert into bff_visitor_hits (key, hits, reset_ms) values (${this.#key(key)}, 1, ${reset})
        on conflict (key) do update set
          hits = case when bff_visitor_hits.reset_ms <= ${now} then 1 else bff_visitor_hits.hits + 1 end,
          reset_ms = case when bff_visitor_hits.reset_ms <= ${now} then ${reset} else bff_visitor_hits.reset_ms end
        returning hits, reset_ms`.execute(db);
      const row = rows[0]!;
      if (now - this.#prunedMs >= this.#windowMs) {
        this.#prunedMs = now;
        db.deleteFrom('bff_visitor_hits')
          .where('reset_ms', '<', now)
          .execute()
          .catch(() => {}); // a later prune retries
      }
      return { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_ms)) };
    } catch (error) {
      if (now - this.#warnedMs >= this.#windowMs) {
        this.#warnedMs = now;
        this.#logger.warn(
          { ...errorFields(error) },
          'visitor limits: the database did not answer; counting in this process only meanwhile',
        );
      }
      return this.#fallback.increment(key);
    }
  }

  async decrement(key: string): Promise<void> {
    const db = await this.#db();
    await db
      .updateTable('bff_visitor_hits')
      .set({ hits: sql`greatest(hits - 1, 0)` })
      .where('key', '=', this.#key(key))
      .execute();
  }

  async resetKey(key: string): Promise<void> {
    const db = await this.#db();
    await db.deleteFrom('bff_visitor_hits').where('key', '=', this.#key(key)).execute();
  }
}

/** Makes the store of one limit (`prefix` names the limit), or undefined for this process's memory. */
export type VisitorHitStores = ((prefix: string) => VisitorHitStore) | undefined;

/**
 * The key of a visitor's address: an IPv4 address as it is (an IPv4-mapped IPv6 one as IPv4), an IPv6 visitor by its
 * /56 (what one subscriber is usually given), so a visitor cannot step round the limit through its own prefix.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%', 1)[0]!.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  const hex = groups.slice(0, 4).map((g) => Number.parseInt(g || '0', 16) || 0);
  hex[3] = hex[3]! & 0xff00;
  return `${hex.map((g) => g.toString(16)).join(':')}::/56`;
}

/** A visitor's answer headers of one limit (draft-7 `RateLimit-Policy` / `RateLimit`). */
export type RateLimitHeaders = ReadonlyArray<readonly [string, string]>;

/** One limit: counts a request, refusing it past the limit. */
export type VisitorLimiter = (key: string) => Promise<RateLimitHeaders>;

function limiter(
  perMinute: number,
  windowMs: number,
  what: string,
  store: VisitorHitStore,
  now: () => number,
): VisitorLimiter {
  store.init?.({ windowMs });
  const policy = `${perMinute};w=${Math.ceil(windowMs / 1000)}`;
  return async (key) => {
    const { totalHits, resetTime } = await store.increment(key);
    const resetMs = resetTime?.getTime() ?? now() + windowMs;
    const seconds = Math.max(0, Math.ceil((resetMs - now()) / 1000));
    const headers: RateLimitHeaders = [
      ['RateLimit-Policy', policy],
      ['RateLimit', `limit=${perMinute}, remaining=${Math.max(0, perMinute - totalHits)}, reset=${seconds}`],
    ];
    if (totalHits <= perMinute) return headers;
    const retryAfter = Math.max(1, seconds);
    throw Object.assign(
      new BffHttpError('rate_limited', `Too many ${what} from you; retry in ${retryAfter} s.`, { retryAfter }),
      { headers: Object.fromEntries(headers) },
    );
  };
}

/** The limits of one BFF, by class; `undefined` where a limit is off. */
export type VisitorLimiters = Readonly<Record<'search' | 'siblings' | 'write', VisitorLimiter | undefined>>;

/**
 * The limiters of one BFF: `search` for reads that reach upstream, `siblings` for `GET /siblings` (its own count of
 * `searchesPerMinute`, so the widget's sibling lookups never use up the visitor's searches), `write` for checkout,
 * quotes and orders, brokerage requests, and the console's sign-in and writes (a refund, a new link; not its reads).
 * Each throws {@link BffHttpError} 429 `rate_limited` past its limit.
 * @param stores - where each limit counts: {@link SqlVisitorHitStore}s on a shared PostgreSQL; undefined for this
 *   process's memory.
 */
export function visitorLimiters(
  limits: VisitorLimits,
  stores: VisitorHitStores,
  now: () => number = Date.now,
): VisitorLimiters {
  if (limits === false) return { search: undefined, siblings: undefined, write: undefined };
  const { searchesPerMinute, writesPerMinute, windowMs } = limits;
  const store = (prefix: string): VisitorHitStore => stores?.(prefix) ?? new MemoryVisitorHitStore(now);
  return {
    search: limiter(searchesPerMinute, windowMs, 'searches', store('search:'), now),
    siblings: limiter(searchesPerMinute, windowMs, 'searches', store('siblings:'), now),
    write: limiter(writesPerMinute, windowMs, 'purchases and other changes', store('write:'), now),
  };
}
