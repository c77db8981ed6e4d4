/**
 * Per-visitor request limits (express-rate-limit), so one visitor cannot spend the upstream budget every visitor
 * shares (Partner API spec 8). A visitor over the limit gets 429 `rate_limited` with `Retry-After` and
 * `error.retry_after` (seconds), in the BFF's error shape.
 *
 * Where the counts live: in this process's memory (express-rate-limit's `MemoryStore`) with PGlite or no database
 * (one process), and in the `bff_visitor_hits` table ({@link SqlVisitorHitStore}) when the BFF runs on PostgreSQL,
 * so every process sharing it counts a visitor's requests together: behind a round-robin balancer a visitor gets the
 * limit once, never once per process.
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import {
  MemoryStore,
  ipKeyGenerator,
  rateLimit,
  type IncrementResponse,
  type Options,
  type Store,
} from 'express-rate-limit';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { BffDb } from './db/tables.ts';
import { BffHttpError } from './errors.ts';
import { errorFields } from './logger.ts';
import type { VisitorLimitOptions } from './options.ts';

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
 * An express-rate-limit `Store` counting each visitor's requests in the `bff_visitor_hits` table: one atomic
 * upsert per request (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), so processes sharing the PostgreSQL count
 * together. A window starts at a visitor's first request and lasts `windowMs`, as the memory store's does. Keys are
 * stored as `prefix` + SHA-256 of the visitor's key (the client IP by default), never the IP itself; rows of windows
 * that ended are deleted at most once a window. When the database fails, the request is counted in this process's
 * memory instead (logged at warn, once a window), so the limit still holds per process and the visitor is never
 * answered an error for it.
 */
export class SqlVisitorHitStore implements Store {
  /** Counts are shared by every process: a key counted here counts everywhere. */
  readonly localKeys = false;
  readonly prefix: string;
  readonly #db: () => Promise<BffDb>;
  readonly #now: () => number;
  readonly #logger: Logger;
  readonly #fallback = new MemoryStore();
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
  }

  init(options: Options): void {
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
export type VisitorHitStores = ((prefix: string) => Store) | undefined;

/** The handler of a limit that is off: passes every request. */
const noVisitorLimit: RequestHandler = function domainkitBffNoVisitorLimit(_req, _res, next) {
  next();
};

/** Who a visitor is, and where express-rate-limit's own complaints go. */
export interface VisitorIdentity {
  /** The visitor's IP address through the trusted proxies only (proxy-trust.ts `clientAddress`). */
  readonly clientAddress: (req: Request) => string;
  /** Where express-rate-limit reports a problem: one line, message and code, never a stack trace. */
  readonly logger: Logger;
}

function limiter(
  perMinute: number,
  windowMs: number,
  what: string,
  keyGenerator: VisitorLimitOptions['keyGenerator'],
  store: Store | undefined,
  identity: VisitorIdentity,
): RequestHandler {
  const report =
    (level: 'warn' | 'error') =>
    (...args: unknown[]): void =>
      identity.logger[level](
        { ...errorFields(args.find((arg) => arg instanceof Error) ?? args[0]) },
        `visitor limits: ${args.find((arg) => typeof arg === 'string') ?? 'express-rate-limit reported a problem'}`,
      );
  return rateLimit({
    windowMs,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(store !== undefined && { store }),
    // By the visitor's address through the trusted proxies only (an IPv6 visitor by its /56, as
    // express-rate-limit's own default): a visitor cannot pick its key with a header of its own.
    keyGenerator: keyGenerator ?? ((req) => ipKeyGenerator(identity.clientAddress(req))),
    validate: { keyGeneratorIpFallback: false },
    logger: { warn: report('warn'), error: report('error') },
    handler(req, _res, next) {
      const reset = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
      next(new BffHttpError('rate_limited', `Too many ${what} from you; retry in ${retryAfter} s.`, { retryAfter }));
    },
  });
}

/**
 * The limiters of one router: `search` for reads that reach upstream, `siblings` for `GET /siblings` (its own count
 * of `searchesPerMinute`, so the widget's sibling lookups never use up the visitor's searches), `write` for
 * checkout, quotes and orders.
 * @param stores - where each limit counts: {@link SqlVisitorHitStore}s on a shared PostgreSQL; undefined for this
 *   process's memory.
 * @param identity - the visitor's address (through the trusted proxies) and the logger of express-rate-limit.
 */
export function visitorLimiters(
  limits: VisitorLimits,
  stores: VisitorHitStores,
  identity: VisitorIdentity,
): {
  search: RequestHandler;
  siblings: RequestHandler;
  write: RequestHandler;
} {
  if (limits === false) return { search: noVisitorLimit, siblings: noVisitorLimit, write: noVisitorLimit };
  const { searchesPerMinute, writesPerMinute, windowMs, keyGenerator } = limits;
  return {
    search: limiter(searchesPerMinute, windowMs, 'searches', keyGenerator, stores?.('search:'), identity),
    siblings: limiter(searchesPerMinute, windowMs, 'searches', keyGenerator, stores?.('siblings:'), identity),
    write: limiter(writesPerMinute, windowMs, 'purchase requests', keyGenerator, stores?.('write:'), identity),
  };
}
