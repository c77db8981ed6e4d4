/**
 * The upstream budget (Partner API spec 8: 60 searches and 20 writes per minute per credential, shared by every visitor):
 * token buckets asked before every upstream attempt, paused by a 429's `Retry-After`, and shared by every BFF
 * process through the database when it is PostgreSQL.
 *
 * A bucket of capacity `burst` refilled at `(perMinute − burst) / 60` tokens per second lets through at most
 * `perMinute` requests in any 60-second window of *send* times. The marketplace counts *arrival* times, and an
 * attempt arrives some time after it is sent (a slow network, a busy marketplace, an attempt timed out here that
 * is still processed there): so every send is also held in a log of sends, and counts against its class until a
 * full window has passed since it was *answered* (an answer proves the arrival is behind it). A send with no answer
 * yet, or none ever (timed out, connection lost), counts until its attempt timeout plus the window (and that again
 * when it ended without an answer). A new send needs fewer than `perMinute` sends still counting, so no 60-second
 * window of arrivals can ever hold more than `perMinute`, whatever the delays.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { BudgetRequest, RateClass, RateLimitedNotice, UpstreamBudget } from '@domainkit/client';
import { sql } from 'kysely';
import type { BffDb } from '../db/tables.ts';
import { UpstreamBusyError } from '../errors.ts';

export { UpstreamBusyError };

/** One class's limit. */
export interface BucketLimit {
  /** Requests allowed in any 60-second window. */
  readonly perMinute: number;
  /** Requests that may go at once after a quiet spell (the bucket's capacity); less than `perMinute`. */
  readonly burst: number;
}

/** Limits of the classes the BFF calls (Partner API spec 8), defaults `search` 60/min (burst 6), `write` 20/min (burst 5: a start-up registration plus one visitor's quote, order, re-quote and order). */
export interface BudgetLimits {
  readonly search: BucketLimit;
  readonly write: BucketLimit;
}

/** The spec's limits. */
export const DEFAULT_BUDGET_LIMITS: BudgetLimits = {
  search: { perMinute: 60, burst: 6 },
  write: { perMinute: 20, burst: 5 },
};

/**
 * The answer of a take: a token (with the id of the send it was recorded as, when a {@link SendHold} was given), or
 * how long until one is expected (or until the pause ends).
 */
export type TakeResult =
  | {
      readonly ok: true;
      readonly ticket?: string | undefined;
      /** Milliseconds until the next token without reserve (0: one is left now). */
      readonly nextMs?: number | undefined;
    }
  | {
      readonly ok: false;
      /** Milliseconds until a token with the reserve asked for (or until the pause ends). */
      readonly waitMs: number;
      /** Milliseconds until a token without reserve (a visitor's). */
      readonly nextMs?: number | undefined;
    };

/** Milliseconds until `tokens` reach 1 at `rate` tokens per ms (0 when they already do). */
function untilOne(tokens: number, rate: number): number {
  return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / rate);
}

/** A send recorded with its token: it counts against its class until `untilMs` (see the module comment). */
export interface SendHold {
  /** Unique id of the send (to settle it once its attempt ended). */
  readonly id: string;
  /** Until when it counts while its attempt has not ended (epoch ms). */
  readonly untilMs: number;
}

/** The answer of {@link BucketStore.takeSends}: recorded, or how long until the first send stops counting (ms). */
export type SendsResult = { readonly ok: true } | { readonly ok: false; readonly waitMs: number };

/** Longest wait (ms) a take suggests when the send log is full: sends in flight may be settled sooner. */
const LOG_FULL_RECHECK_MS = 1_000;

/** Where bucket state lives. */
export interface BucketStore {
  /**
   * Takes one token from `name` if it is not paused and holds at least `1 + reserve` tokens (a reserve is left for
   * visitors by background work); with `hold`, also only while fewer than `limit.perMinute` sends still count, and
   * records this one (atomically with the token).
   */
  take(name: string, limit: BucketLimit, nowMs: number, reserve?: number, hold?: SendHold): Promise<TakeResult>;
  /**
   * Records `holds` as sends of `name` only if, with them, at most `perMinute` sends would still count (those whose
   * bound passed are forgotten first); all of them or none, atomically with every other take of `name`, and without
   * tokens: the send log alone bounds the window (the console's reporting reads, console/cache.ts).
   * @returns `ok`, or `waitMs` until the first send still counting stops counting.
   */
  takeSends?(name: string, perMinute: number, nowMs: number, holds: readonly SendHold[]): Promise<SendsResult>;
  /** Sets until when send `id` of `name` counts (its attempt ended); never extends it past a later value. */
  settle?(name: string, id: string, untilMs: number): Promise<void>;
  /** Pauses `name` until `untilMs` (the marketplace said 429 with that Retry-After); the tokens stay. */
  pause(name: string, untilMs: number): Promise<void>;
  /** Reads `name` without taking anything: tokens now and the end of a pause (metrics); undefined if never used. */
  peek?(
    name: string,
    limit: BucketLimit,
    nowMs: number,
  ): Promise<{ tokens: number; blockedUntilMs: number } | undefined>;
}

function logFullWait(firstUntilMs: number, nowMs: number): number {
  return Math.min(LOG_FULL_RECHECK_MS, Math.max(1, Math.ceil(firstUntilMs - nowMs)));
}

function ratePerMs(limit: BucketLimit): number {
  return Math.max(limit.perMinute - limit.burst, 1) / 60_000;
}

/** Bucket state in this process's memory (a BFF without a database: nothing survives a restart). */
export class MemoryBucketStore implements BucketStore {
  readonly #buckets = new Map<string, { tokens: number; updatedMs: number; blockedUntilMs: number }>();
  /** Sends still counting, per bucket: id → until (ms). */
  readonly #sends = new Map<string, Map<string, number>>();

  async take(name: string, limit: BucketLimit, nowMs: number, reserve = 0, hold?: SendHold): Promise<TakeResult> {
    const rate = ratePerMs(limit);
    const need = 1 + reserve;
    let bucket = this.#buckets.get(name);
    if (bucket === undefined) {
      bucket = { tokens: limit.burst, updatedMs: nowMs, blockedUntilMs: 0 };
      this.#buckets.set(name, bucket);
    }
    bucket.tokens = Math.min(limit.burst, bucket.tokens + Math.max(0, nowMs - bucket.updatedMs) * rate);
    bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
    if (bucket.blockedUntilMs > nowMs) return { ok: false, waitMs: bucket.blockedUntilMs - nowMs };
    if (bucket.tokens < need)
      return {
        ok: false,
        waitMs: Math.max(1, Math.ceil((need - bucket.tokens) / rate)),
        nextMs: untilOne(bucket.tokens, rate),
      };
    if (hold !== undefined) {
      const sends = this.#liveSends(name, nowMs);
      if (sends.size >= limit.perMinute) {
        const waitMs = logFullWait(Math.min(...sends.values()), nowMs);
        return { ok: false, waitMs, nextMs: waitMs };
      }
      sends.set(hold.id, hold.untilMs);
    }
    bucket.tokens -= 1;
    return { ok: true, ticket: hold?.id, nextMs: untilOne(bucket.tokens, rate) };
  }

  async takeSends(name: string, perMinute: number, nowMs: number, holds: readonly SendHold[]): Promise<SendsResult> {
    const sends = this.#liveSends(name, nowMs);
    if (sends.size + holds.length > perMinute) {
      // More holds than the window allows at all: a window from now (it never passes; the caller asked too much).
      const first = sends.size === 0 ? nowMs + 60_000 : Math.min(...sends.values());
      return { ok: false, waitMs: Math.max(1, Math.ceil(first - nowMs)) };
    }
    for (const hold of holds) sends.set(hold.id, hold.untilMs);
    return { ok: true };
  }

  /** The sends of `name` still counting at `nowMs` (those whose bound passed are forgotten). */
  #liveSends(name: string, nowMs: number): Map<string, number> {
    const sends = this.#sends.get(name) ?? new Map<string, number>();
    this.#sends.set(name, sends);
    for (const [id, until] of sends) if (until <= nowMs) sends.delete(id);
    return sends;
  }

  async settle(name: string, id: string, untilMs: number): Promise<void> {
    const sends = this.#sends.get(name);
    const until = sends?.get(id);
    if (until !== undefined && untilMs < until) sends!.set(id, untilMs);
  }

  async peek(name: string, limit: BucketLimit, nowMs: number) {
    const bucket = this.#buckets.get(name);
    if (bucket === undefined) return undefined;
    const tokens = Math.min(limit.burst, bucket.tokens + Math.max(0, nowMs - bucket.updatedMs) * ratePerMs(limit));
    return { tokens, blockedUntilMs: bucket.blockedUntilMs };
  }

  async pause(name: string, untilMs: number): Promise<void> {
    const bucket = this.#buckets.get(name);
    if (bucket === undefined) this.#buckets.set(name, { tokens: 0, updatedMs: untilMs, blockedUntilMs: untilMs });
    else bucket.blockedUntilMs = Math.max(bucket.blockedUntilMs, untilMs);
  }
}

/**
 * Forgets the sends of `name` whose bound passed, then counts those still counting and the earliest bound among them
 * (`nowMs` when none). Run inside the transaction holding the bucket's row lock.
 */
async function liveSends(trx: BffDb, name: string, nowMs: number): Promise<{ count: number; firstUntilMs: number }> {
  await trx.deleteFrom('bff_budget_sends').where('name', '=', name).where('until_ms', '<=', nowMs).execute();
  const live = await trx
    .selectFrom('bff_budget_sends')
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('until_ms').as('first')])
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return { count: Number(live.n), firstUntilMs: Number(live.first ?? nowMs) };
}

/**
 * Bucket state in the `bff_buckets` table: one atomic `UPDATE … RETURNING` per take, so BFF processes sharing a
 * PostgreSQL share the budget exactly, and a restart on embedded PGlite (kept in the data folder) starts from the
 * tokens left, never from a full bucket: a restart can never spend more than the window allows.
 */
export class SqlBucketStore implements BucketStore {
  readonly #db: () => Promise<BffDb>;
  readonly #created = new Set<string>();

  /** @param db - resolves to the open database (waits for it on first use). */
  constructor(db: () => Promise<BffDb>) {
    this.#db = db;
  }

  /** Creates the row of bucket `name` (the one every take of it locks) unless it exists. */
  async #ensure(db: BffDb, name: string, tokens: number, nowMs: number): Promise<void> {
    if (this.#created.has(name)) return;
    await db
      .insertInto('bff_buckets')
      .values({ name, tokens, updated_ms: nowMs, blocked_until_ms: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    this.#created.add(name);
  }

  async take(name: string, limit: BucketLimit, nowMs: number, reserve = 0, hold?: SendHold): Promise<TakeResult> {
    const need = 1 + reserve;
    const db = await this.#db();
    await this.#ensure(db, name, limit.burst, nowMs);
    const rate = ratePerMs(limit);
    // One transaction, the bucket's row locked first: processes sharing a PostgreSQL take one after the other, and
    // each statement after the lock sees the sends the others committed.
    return db.transaction().execute(async (trx): Promise<TakeResult> => {
      const row = await trx
        .selectFrom('bff_buckets')
        .select(['tokens', 'updated_ms', 'blocked_until_ms'])
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) {
        this.#created.delete(name); // truncated under us (tests): recreate on the next take
        return { ok: false, waitMs: 0 };
      }
      if (row.blocked_until_ms > nowMs)
        return { ok: false, waitMs: row.blocked_until_ms - nowMs, nextMs: row.blocked_until_ms - nowMs };
      const tokens = Math.min(limit.burst, row.tokens + Math.max(0, nowMs - row.updated_ms) * rate);
      if (tokens < need)
        return { ok: false, waitMs: Math.max(1, Math.ceil((need - tokens) / rate)), nextMs: untilOne(tokens, rate) };
      if (hold !== undefined) {
        const live = await liveSends(trx, name, nowMs);
        if (live.count >= limit.perMinute) {
          const waitMs = logFullWait(live.firstUntilMs, nowMs);
          return { ok: false, waitMs, nextMs: waitMs };
        }
        await trx.insertInto('bff_budget_sends').values({ name, id: hold.id, until_ms: hold.untilMs }).execute();
      }
      await trx
        .updateTable('bff_buckets')
        .set({ tokens: tokens - 1, updated_ms: Math.max(row.updated_ms, nowMs) })
        .where('name', '=', name)
        .execute();
      return { ok: true, ticket: hold?.id, nextMs: untilOne(tokens - 1, rate) };
    });
  }

  async takeSends(name: string, perMinute: number, nowMs: number, holds: readonly SendHold[]): Promise<SendsResult> {
    const db = await this.#db();
    await this.#ensure(db, name, 0, nowMs);
    // As `take`: the bucket's row locked first, so two processes at the limit never both record the last send.
    const result = await db.transaction().execute(async (trx): Promise<SendsResult | undefined> => {
      const row = await trx
        .selectFrom('bff_buckets')
        .select('name')
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return undefined; // truncated under us (tests)
      const live = await liveSends(trx, name, nowMs);
      if (live.count + holds.length > perMinute) {
        const first = live.count === 0 ? nowMs + 60_000 : live.firstUntilMs; // as in MemoryBucketStore
        return { ok: false, waitMs: Math.max(1, Math.ceil(first - nowMs)) };
      }
      if (holds.length > 0)
        await trx
          .insertInto('bff_budget_sends')
          .values(holds.map((h) => ({ name, id: h.id, until_ms: h.untilMs })))
          .execute();
      return { ok: true };
    });
    if (result !== undefined) return result;
    this.#created.delete(name);
    return this.takeSends(name, perMinute, nowMs, holds); // the row is made again first
  }

  async settle(name: string, id: string, untilMs: number): Promise<void> {
    const db = await this.#db();
    await db
      .updateTable('bff_budget_sends')
      .set({ until_ms: untilMs })
      .where('name', '=', name)
      .where('id', '=', id)
      .where('until_ms', '>', untilMs)
      .execute();
  }

  async peek(name: string, limit: BucketLimit, nowMs: number) {
    const db = await this.#db();
    const row = await db
      .selectFrom('bff_buckets')
      .select(['tokens', 'updated_ms', 'blocked_until_ms'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const tokens = Math.min(limit.burst, row.tokens + Math.max(0, nowMs - row.updated_ms) * ratePerMs(limit));
    return { tokens, blockedUntilMs: row.blocked_until_ms };
  }

  async pause(name: string, untilMs: number): Promise<void> {
    const db = await this.#db();
    await db
      .insertInto('bff_buckets')
      .values({ name, tokens: 0, updated_ms: untilMs, blocked_until_ms: untilMs })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ blocked_until_ms: sql`greatest(bff_buckets.blocked_until_ms, excluded.blocked_until_ms)` }),
      )
      .execute();
  }
}

/** Per-call context a caller hands through the client (`CallOptions.context`): how long it may wait. */
export interface BudgetCallContext {
  /** Longest wait for a token, in ms, before the call fails with {@link UpstreamBusyError}. */
  readonly maxWaitMs?: number | undefined;
  /**
   * Tokens already taken for this call with {@link BffUpstreamBudget.tryTake} (the miss queue takes first, then
   * calls): each attempt uses one of them before taking anew. Decremented as used.
   */
  prepaid?: number | undefined;
  /** The sends recorded for the prepaid tokens ({@link TakeResult} `ticket`), used in order with them. */
  tickets?: string[] | undefined;
}

/**
 * What {@link createUpstreamBudget} takes: the resolved limits and where the buckets live (the partner-facing
 * option of `createBff` is `UpstreamBudgetOptions`, options.ts).
 */
export interface CreateUpstreamBudgetInput {
  readonly store: BucketStore;
  /** Bucket names are prefixed with it (the key id), so credentials sharing a database never share a bucket. */
  readonly namespace: string;
  readonly limits?: BudgetLimits | undefined;
  /** Default longest wait for a token (ms) when the call gives none; default 1 500. */
  readonly maxWaitMs?: number | undefined;
  /**
   * Limit of one upstream attempt (ms), the client's `timeoutMs`; default 10 000. A send counts until this plus the
   * window while it has no answer (module comment).
   */
  readonly attemptTimeoutMs?: number | undefined;
  readonly now?: (() => number) | undefined;
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** The budget the BFF hands to its Partner API client, plus what it needs beyond the client's hook. */
export interface BffUpstreamBudget extends UpstreamBudget {
  /**
   * Takes a token of `rateClass` now, waiting at most `maxWaitMs` (a BFF reserves the order record's write before
   * charging the buyer).
   * @throws {UpstreamBusyError} when none comes in time.
   */
  reserve(rateClass: RateClass, maxWaitMs?: number): Promise<void>;
  /** The `search` and `write` buckets now: tokens left and the pause left (metrics); nothing is taken. */
  snapshot(): Promise<Array<{ rateClass: RateClass; tokens: number; pausedMs: number }>>;
  /**
   * Takes a token of `rateClass` now if there is one beyond `reserve` (left for waiting visitors), without waiting.
   * @returns the token, with the `ticket` of the send recorded for it (hand it to the call in
   *   {@link BudgetCallContext.tickets}, so the send is settled when its attempt ends), or how long until one is
   *   expected (ms).
   */
  tryTake(rateClass: RateClass, reserve?: number): Promise<TakeResult>;
  /** Milliseconds between two tokens of `rateClass` once its burst is spent. */
  tokenIntervalMs(rateClass: RateClass): number;
}

/**
 * Creates the upstream budget: `search` and `write` calls take tokens; every class is paused by a 429 for its
 * `Retry-After` seconds (at least 1 s).
 */
export function createUpstreamBudget(options: CreateUpstreamBudgetInput): BffUpstreamBudget {
  const limits = options.limits ?? DEFAULT_BUDGET_LIMITS;
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : undefined));
  const defaultWait = options.maxWaitMs ?? 1_500;
  const name = (rateClass: RateClass) => `${options.namespace}:${rateClass}`;
  // How long a send counts (module comment): the marketplace's window, plus the attempt's timeout while (or when)
  // no answer shows that it arrived.
  const windowMs = 60_000;
  const unansweredMs = (options.attemptTimeoutMs ?? 10_000) + windowMs;
  const newHold = (): SendHold => ({ id: randomUUID(), untilMs: now() + unansweredMs });
  // The send recorded for each attempt under way (the client hands the same request object to `settled`).
  const sendOf = new WeakMap<object, { rateClass: RateClass; id: string }>();
  // Classes without a token budget still honour a pause; a bucket that never runs dry models that.
  const unlimited: BucketLimit = { perMinute: 1_000_000, burst: 1_000_000 };
  const limitOf = (rateClass: RateClass): BucketLimit =>
    rateClass === 'search' ? limits.search : rateClass === 'write' ? limits.write : unlimited;

  // Callers of this process already waiting, per class: a newcomer queues behind them, so it fails at once when
  // the tokens due within its wait limit are all spoken for (a crowd never holds connections for nothing).
  const waiting = new Map<RateClass, number>();

  async function take(rateClass: RateClass, maxWaitMs: number, signal?: AbortSignal): Promise<string | undefined> {
    const started = now();
    const limit = limitOf(rateClass);
    const tokenMs = 60_000 / Math.max(limit.perMinute - limit.burst, 1);
    let queued = false;
    try {
      for (;;) {
        const hold = rateClass === 'search' || rateClass === 'write' ? newHold() : undefined;
        const result = await options.store.take(name(rateClass), limit, now(), 0, hold);
        if (result.ok) return result.ticket;
        const ahead = (waiting.get(rateClass) ?? 0) - (queued ? 1 : 0);
        const expected = result.waitMs + ahead * tokenMs;
        const waited = now() - started;
        if (waited + expected > maxWaitMs) {
          throw new UpstreamBusyError(rateClass, Math.max(1, Math.ceil(expected / 1000)));
        }
        if (!queued) {
          queued = true;
          waiting.set(rateClass, (waiting.get(rateClass) ?? 0) + 1);
        }
        await sleep(Math.max(1, result.waitMs), signal);
      }
    } finally {
      if (queued) waiting.set(rateClass, (waiting.get(rateClass) ?? 1) - 1);
    }
  }

  return {
    async acquire(request: BudgetRequest & { context?: unknown }) {
      const context = request.context as BudgetCallContext | undefined;
      let ticket: string | undefined;
      if (context?.prepaid !== undefined && context.prepaid > 0) {
        context.prepaid--;
        ticket = context.tickets?.shift();
      } else ticket = await take(request.rateClass, context?.maxWaitMs ?? defaultWait, request.signal);
      if (ticket !== undefined) sendOf.set(request, { rateClass: request.rateClass, id: ticket });
    },
    settled(request, outcome) {
      const send = sendOf.get(request);
      if (send === undefined || options.store.settle === undefined) return;
      sendOf.delete(request);
      // An answer proves the attempt arrived: it counts one window from now. Without one it may still arrive.
      const until = now() + (outcome.answered ? windowMs : unansweredMs);
      options.store.settle(name(send.rateClass), send.id, until).catch(() => {
        // The send keeps counting until its first bound: safe, only slower.
      });
    },
    async onRateLimited(notice: RateLimitedNotice) {
      const seconds = Math.max(1, notice.retryAfter ?? 5);
      await options.store.pause(name(notice.rateClass), now() + seconds * 1000);
    },
    async reserve(rateClass, maxWaitMs) {
      // The call that follows says `budgetAcquired`: its send counts until its first bound (not settled early).
      await take(rateClass, maxWaitMs ?? defaultWait);
    },
    async snapshot() {
      const nowMs = now();
      const classes: RateClass[] = ['search', 'write'];
      return Promise.all(
        classes.map(async (rateClass) => {
          const limit = limitOf(rateClass);
          const state = await options.store.peek?.(name(rateClass), limit, nowMs);
          return {
            rateClass,
            tokens: state?.tokens ?? limit.burst,
            pausedMs: Math.max(0, (state?.blockedUntilMs ?? 0) - nowMs),
          };
        }),
      );
    },
    tryTake(rateClass, reserve = 0) {
      const hold = rateClass === 'search' || rateClass === 'write' ? newHold() : undefined;
      return options.store.take(name(rateClass), limitOf(rateClass), now(), reserve, hold);
    },
    tokenIntervalMs(rateClass) {
      const limit = limitOf(rateClass);
      return 60_000 / Math.max(limit.perMinute - limit.burst, 1);
    },
  };
}
