/**
 * The WHOIS feature's option (`whois`: `GET /whois?domain=`, who holds a domain, through the marketplace's Public API
 * `POST /api/tools/whois`) and its defaults: on whenever the BFF has a `marketplace` credential (as `siblings`).
 */
import { z } from 'zod';
import { seconds } from '../config/kit.ts';

/** Option `whois` as an object: the route is on, with these settings. */
export interface WhoisOptions {
  /**
   * How long an answer is served as fresh, in seconds; default 86 400 (a day: a name's registrar and registration date
   * change on a transfer or a new registration, rarely within a day, and the visitor is told they are "registered
   * since", not live).
   */
  readonly ttlSeconds?: number | undefined;
  /** Lookups this BFF process sends to the Public API per minute, all visitors together; default 20. */
  readonly lookupsPerMinute?: number | undefined;
  /** Answers kept (least recently used dropped first); default 1 000. */
  readonly maxEntries?: number | undefined;
}

/** The WHOIS settings once resolved (milliseconds). */
export interface ResolvedWhois {
  readonly ttlMs: number;
  readonly lookupsPerMinute: number;
  readonly maxEntries: number;
}

/** The defaults of {@link WhoisOptions}. */
export const DEFAULT_WHOIS: ResolvedWhois = Object.freeze({
  ttlMs: 86_400_000,
  lookupsPerMinute: 20,
  maxEntries: 1000,
});

/** The `createBff` options of the WHOIS feature, as checked at creation. */
export const whoisOptionsShape = {
  whois: z
    .union(
      [
        z.boolean(),
        z.strictObject({
          ttlSeconds: seconds('how long a WHOIS answer is served as fresh').optional(),
          lookupsPerMinute: z
            .number()
            .int('must be a whole number of lookups per minute')
            .positive('must be at least 1 lookup per minute')
            .optional(),
          maxEntries: z.number().int().positive().optional(),
        }),
      ],
      { error: 'must be true, false (turns GET /whois off), or { ttlSeconds, lookupsPerMinute, maxEntries }' },
    )
    .optional(),
};

/** The keys of `whois` as an object (for "did you mean"). */
export const WHOIS_OPTION_KEYS: readonly string[] = ['ttlSeconds', 'lookupsPerMinute', 'maxEntries'];

/** What the WHOIS feature reads of the options. */
interface WhoisInput {
  readonly whois?: boolean | WhoisOptions | undefined;
  readonly marketplace?: unknown;
}

/**
 * The WHOIS settings, or `undefined` when `GET /whois` is off: `whois: false`, or no `marketplace` (the Public API is
 * called at `marketplace.baseUrl`).
 */
export function resolveWhois(value: WhoisInput): ResolvedWhois | undefined {
  if (value.whois === false || value.marketplace === undefined) return undefined;
  const o = typeof value.whois === 'object' ? value.whois : {};
  return Object.freeze({
    ttlMs: (o.ttlSeconds ?? DEFAULT_WHOIS.ttlMs / 1000) * 1000,
    lookupsPerMinute: o.lookupsPerMinute ?? DEFAULT_WHOIS.lookupsPerMinute,
    maxEntries: o.maxEntries ?? DEFAULT_WHOIS.maxEntries,
  });
}
