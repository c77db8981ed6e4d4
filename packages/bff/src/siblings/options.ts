/**
 * The siblings feature's option (`siblings`: `GET /siblings?q=`, the visitor's word under other TLDs through the
 * marketplace's Public API) and its default: on whenever the BFF has a `marketplace` credential.
 */
import { z } from 'zod';
import { seconds } from '../config/kit.ts';
import type { ResolvedSearchCache } from '../search/index.ts';

/**
 * The cache of `GET /siblings` (option `siblings` as an object: the route is on, with these settings). It is kept in
 * each process's memory and emptied of a domain when this process learns it changed, so its answers live much
 * shorter than the search cache's.
 */
export interface SiblingsOptions {
  /** How long an answer is served as fresh, in seconds; default 30. */
  readonly ttlSeconds?: number | undefined;
  /** After `ttlSeconds`, how long an answer is still served while one background call refreshes it; default 270. */
  readonly staleWhileRevalidateSeconds?: number | undefined;
  /** After that, how long an answer is served when the marketplace is busy or failing; default 600. */
  readonly staleIfErrorSeconds?: number | undefined;
  /** Answers kept (least recently used dropped first); default 1 000. */
  readonly maxEntries?: number | undefined;
}

/** The `createBff` options of the siblings feature, as checked at creation. */
export const siblingsOptionsShape = {
  siblings: z
    .union(
      [
        z.boolean(),
        z.strictObject({
          ttlSeconds: z.number().nonnegative('must be 0 (no caching) or more seconds').optional(),
          staleWhileRevalidateSeconds: seconds('how long a stale answer is served while it is refreshed').optional(),
          staleIfErrorSeconds: seconds(
            'how long a stale answer is served when the marketplace is busy or failing',
          ).optional(),
          maxEntries: z.number().int().positive().optional(),
        }),
      ],
      { error: 'must be true or false (false turns GET /siblings off)' },
    )
    .optional(),
};

/** What the siblings feature reads of the options. */
interface SiblingsInput {
  readonly siblings?: boolean | SiblingsOptions | undefined;
  readonly marketplace?: unknown;
  readonly client?: unknown;
}

/** Why `siblings` cannot be on with these options, or `undefined`: the Public API is called at `marketplace.baseUrl`. */
export function siblingsProblem(value: SiblingsInput): string | undefined {
  if (
    value.siblings !== undefined &&
    value.siblings !== false &&
    value.marketplace === undefined &&
    value.client !== undefined
  )
    return '`siblings` needs `marketplace` (the Public API is called at `marketplace.baseUrl`): with a ready `client`, leave `siblings` out';
  return undefined;
}

/** Whether `GET /siblings` is served: default on with `marketplace`, off with a ready `client` or `siblings: false`. */
export function resolveSiblings(value: SiblingsInput): boolean {
  return value.siblings !== false && value.marketplace !== undefined;
}

/** The settings of the siblings cache (ms), from `siblings` when it is an object; each has one default. */
export function resolveSiblingsCache(siblings: boolean | SiblingsOptions | undefined): ResolvedSearchCache {
  const o = typeof siblings === 'object' ? siblings : {};
  return Object.freeze({
    ttlMs: (o.ttlSeconds ?? 30) * 1000,
    staleWhileRevalidateMs: (o.staleWhileRevalidateSeconds ?? 270) * 1000,
    staleIfErrorMs: (o.staleIfErrorSeconds ?? 600) * 1000,
    maxEntries: o.maxEntries ?? 1000,
  });
}
