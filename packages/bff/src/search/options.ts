/**
 * The search feature's options (`searchCache`), their defaults and their environment variables, in one place: the
 * schema `createBff` validates, the resolution every other module reads (durations in ms), and the
 * `DOMAINKIT_SEARCH_CACHE_*` variables of the standalone server.
 */
import { z } from 'zod';
import type { BucketLimit } from '../upstream/budget.ts';
import { seconds, type EnvReader, type EnvVariable } from '../config/kit.ts';

/**
 * The search cache (Partner API spec 8: 60 searches per minute per credential, shared by every visitor). With a database,
 * answers are shared by every BFF process on it and survive restarts; each process keeps the hottest in memory.
 * Each setting has one default, in either `mode`; `GET /siblings` has its own cache (option `siblings`).
 */
export interface SearchCacheOptions {
  /** How long an answer is served as fresh, in seconds; default 21 600 (6 h): changes evict it earlier. */
  readonly ttlSeconds?: number | undefined;
  /** Answers kept in each process's memory (least recently used dropped first); default 5 000. */
  readonly maxEntries?: number | undefined;
  /** After `ttlSeconds`, how long an answer is still served while a spare token may refresh it; default 64 800. */
  readonly staleWhileRevalidateSeconds?: number | undefined;
  /** After that, how long an answer is served when the marketplace is busy or failing; default 86 400. */
  readonly staleIfErrorSeconds?: number | undefined;
  /** Answer a search the budget cannot serve from the names seen recently (`source: "index"`); default true. */
  readonly index?: boolean | undefined;
  /** Milliseconds between reads of other processes' evictions, answers and listings (PostgreSQL); default 1 000. */
  readonly syncIntervalMs?: number | undefined;
  /**
   * `shared` (default): the budget model (shared answers, demand-ordered queue, listing index). `process`: the
   * earlier per-process cache (no queue, no index), for comparison; it reads the settings above with the same
   * defaults (the earlier figures were 30 s fresh, 270 s stale, 600 s if failing, 1 000 entries).
   */
  readonly mode?: 'shared' | 'process' | undefined;
}

/** The `createBff` options of the search feature, as checked at creation. */
export const searchOptionsShape = {
  searchCache: z
    .strictObject({
      ttlSeconds: z.number().nonnegative('must be 0 (no caching) or more seconds').optional(),
      maxEntries: z.number().int().positive().optional(),
      staleWhileRevalidateSeconds: seconds('how long a stale answer is served while it is refreshed').optional(),
      staleIfErrorSeconds: seconds(
        'how long a stale answer is served when the marketplace is busy or failing',
      ).optional(),
      index: z.boolean().optional(),
      syncIntervalMs: z.number().int().positive().optional(),
      mode: z.enum(['shared', 'process'], { error: 'must be "shared" or "process"' }).optional(),
    })
    .optional(),
};

/** Likely intended names of mistyped `searchCache` keys. */
export const SEARCH_CACHE_ALIASES: Readonly<Record<string, string>> = {
  ttl: 'ttlSeconds',
  ttlMs: 'ttlSeconds',
  max: 'maxEntries',
  size: 'maxEntries',
  swr: 'staleWhileRevalidateSeconds',
};

/** A per-process memory cache (`GET /search` in `process` mode, `GET /siblings`), in ms. */
export interface ResolvedSearchCache {
  /** How long an answer is fresh. */
  readonly ttlMs: number;
  /** Then served at once while one background call refreshes it. */
  readonly staleWhileRevalidateMs: number;
  /** Then served when upstream is busy or failing. */
  readonly staleIfErrorMs: number;
  /** Most answers kept. */
  readonly maxEntries: number;
}

/**
 * How `GET /search` spends the search budget (see `search-service.ts`); options `searchCache.*` and
 * `upstreamBudget.searchMaxWaitMs`.
 */
export interface ResolvedSearch {
  /** `shared` (the database-backed cache, queue and index) or `process` (the earlier per-process cache). */
  readonly mode: 'shared' | 'process';
  /** How long an answer is fresh; option `searchCache.ttlSeconds`, default 6 h. */
  readonly freshMs: number;
  /** Then served while a spare token may refresh it; `staleWhileRevalidateSeconds`, default 18 h. */
  readonly staleMs: number;
  /** Then served when upstream is busy or failing; `staleIfErrorSeconds`, default 24 h. */
  readonly staleIfErrorMs: number;
  /** Answers in each process's memory; `maxEntries`, default 5 000. */
  readonly memoryEntries: number;
  /** Longest wait of a search for a token; `upstreamBudget.searchMaxWaitMs`, else `maxWaitMs`, else 300. */
  readonly maxWaitMs: number;
  /** Answer from the listing index; `searchCache.index`, default true. */
  readonly index: boolean;
  /** Reads of other processes' evictions, answers and listings (PostgreSQL); `syncIntervalMs`, default 1 000. */
  readonly syncIntervalMs: number;
  /** Tokens background work leaves in the shared bucket for visitors: the search burst less one (at least 1). */
  readonly reserve: number;
}

const ms = (value: number | undefined, fallbackSeconds: number) => (value ?? fallbackSeconds) * 1000;

/** The `process` mode's cache (ms): the same settings, with the same defaults, as the shared search's. */
export function resolveMemoryCache(search: ResolvedSearch): ResolvedSearchCache {
  return Object.freeze({
    ttlMs: search.freshMs,
    staleWhileRevalidateMs: search.staleMs,
    staleIfErrorMs: search.staleIfErrorMs,
    maxEntries: search.memoryEntries,
  });
}

/**
 * How `GET /search` spends its budget.
 * @param budget - `upstreamBudget.searchMaxWaitMs` / `maxWaitMs` (ms) and the search bucket in force.
 */
export function resolveSearch(
  cache: SearchCacheOptions | undefined,
  budget: { searchMaxWaitMs?: number | undefined; maxWaitMs?: number | undefined; search: BucketLimit },
): ResolvedSearch {
  return Object.freeze({
    mode: cache?.mode ?? 'shared',
    freshMs: ms(cache?.ttlSeconds, 6 * 3600),
    staleMs: ms(cache?.staleWhileRevalidateSeconds, 18 * 3600),
    staleIfErrorMs: ms(cache?.staleIfErrorSeconds, 24 * 3600),
    memoryEntries: cache?.maxEntries ?? 5_000,
    maxWaitMs: budget.searchMaxWaitMs ?? budget.maxWaitMs ?? 300,
    index: cache?.index !== false,
    syncIntervalMs: cache?.syncIntervalMs ?? 1_000,
    // Background work (refreshes, prefetches, the queries of visitors told "busy" who left) spends only a token
    // that would otherwise overflow the bucket: the burst stays for visitors, of this process or another.
    reserve: Math.max(1, budget.search.burst - 1),
  });
}

/** The search cache's environment variables, in the order the README documents them. */
export const SEARCH_ENV_VARIABLES: readonly EnvVariable[] = (
  [
    ['DOMAINKIT_SEARCH_CACHE_TTL_SECONDS', 'seconds a search answer is served fresh, default 21600 (6 h)'],
    [
      'DOMAINKIT_SEARCH_CACHE_STALE_SECONDS',
      'seconds after that an answer is served while a spare token may refresh it, default 64800',
    ],
    [
      'DOMAINKIT_SEARCH_CACHE_STALE_IF_ERROR_SECONDS',
      'seconds after that an answer is served when the marketplace is busy or failing, default 86400',
    ],
    ['DOMAINKIT_SEARCH_CACHE_MEMORY_ENTRIES', "search answers kept in each process's memory, default 5000"],
    ['DOMAINKIT_SEARCH_INDEX', 'false: never answer from the listing index (names seen recently); default true'],
    ['DOMAINKIT_SEARCH_CACHE_MODE', 'shared (default: the database-backed cache) or process (per-process cache)'],
  ] as const
).map(([name, description]) => ({ name, required: false, description }));

/** `searchCache` from the `DOMAINKIT_SEARCH_CACHE_*` variables, or `undefined` when none is set. */
export function readSearchEnv(env: EnvReader): SearchCacheOptions | undefined {
  const ttlSeconds = env.int('DOMAINKIT_SEARCH_CACHE_TTL_SECONDS', 0);
  const staleWhileRevalidateSeconds = env.int('DOMAINKIT_SEARCH_CACHE_STALE_SECONDS', 0);
  const staleIfErrorSeconds = env.int('DOMAINKIT_SEARCH_CACHE_STALE_IF_ERROR_SECONDS', 0);
  const maxEntries = env.int('DOMAINKIT_SEARCH_CACHE_MEMORY_ENTRIES', 1);
  const index = env.bool('DOMAINKIT_SEARCH_INDEX');
  const mode = env.get('DOMAINKIT_SEARCH_CACHE_MODE');
  if (mode !== undefined && mode !== 'shared' && mode !== 'process')
    env.problem('DOMAINKIT_SEARCH_CACHE_MODE', `must be shared or process; received ${JSON.stringify(mode)}`);
  const searchCache = {
    ...(ttlSeconds !== undefined && { ttlSeconds }),
    ...(staleWhileRevalidateSeconds !== undefined && { staleWhileRevalidateSeconds }),
    ...(staleIfErrorSeconds !== undefined && { staleIfErrorSeconds }),
    ...(maxEntries !== undefined && { maxEntries }),
    ...(index !== undefined && { index }),
    ...((mode === 'shared' || mode === 'process') && { mode: mode as 'shared' | 'process' }),
  };
  return Object.keys(searchCache).length > 0 ? searchCache : undefined;
}
