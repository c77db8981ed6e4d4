/**
 * Rate limits of the Public API, the OAuth endpoints and the MCP server (Partner API spec 8 leaves them open: the sandbox's
 * choice, docs/spec-decisions.md). Fixed one-minute (or one-hour) windows counted in the database, so
 * several sandbox processes on one PostgreSQL share the budget (docs/architecture.md "Storage"), and driven by the sandbox clock
 * (tests move it to open a new window). Exceeding a limit answers 429 `rate_limited` with `Retry-After` (seconds
 * until the window ends).
 */
import type { Request } from 'express';
import { sql } from 'kysely';
import type { RateLimit } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { PublicDb } from '../db/public-tables.ts';
import type { RateDecision } from './decision.ts';

/**
 * The budgets. A subject is the signed-in user (`user:<id>`) when the request carries a valid access token, else
 * the client IP address (`ip:<address>`).
 */
export const PUBLIC_RATE_LIMITS = {
  /** Reads (search, WHOIS, pricing, TLD metadata, listings, batch, MCP requests) of anonymous callers, per IP. A batch costs one unit per operation. */
  anonymous: { limit: 120, windowSeconds: 60 },
  /** The same reads for signed-in callers, per user. */
  signedIn: { limit: 300, windowSeconds: 60 },
  /** Bulk operations and `GET /api/domains`, per user. */
  bulk: { limit: 30, windowSeconds: 60 },
  /** Client registrations, per IP. */
  register: { limit: 60, windowSeconds: 3600 },
  /** Token and revocation requests, per IP. */
  token: { limit: 60, windowSeconds: 60 },
  /** Sign-in attempts on the consent page, per IP. */
  signIn: { limit: 20, windowSeconds: 60 },
} as const satisfies Record<string, RateLimit>;

export type RateBucket = keyof typeof PUBLIC_RATE_LIMITS;

/** Spends from the Public API's budgets, in the database. */
export interface PublicRateLimiter {
  /**
   * Spends `cost` units of `bucket` for `subject`.
   * @returns whether the request may proceed; a refused request still counts (retrying early does not help).
   */
  consume(bucket: RateBucket, subject: string, cost?: number): Promise<RateDecision>;
}

/** The subject of an anonymous request: its client address. */
export function ipSubject(req: Request): string {
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** A limiter over the `public_rate_windows` table. */
export function createPublicRateLimiter(db: PublicDb, clock: Clock, logger: Logger): PublicRateLimiter {
  let calls = 0;
  return {
    async consume(bucket, subject, cost = 1) {
      const { limit, windowSeconds } = PUBLIC_RATE_LIMITS[bucket];
      const nowMs = clock();
      const windowMs = windowSeconds * 1000;
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const row = await db
        .insertInto('public_rate_windows')
        .values({ bucket, subject: subject.slice(0, 200), window_start: new Date(start), count: cost })
        .onConflict((oc) =>
          oc
            .columns(['bucket', 'subject', 'window_start'])
            .doUpdateSet({ count: sql`public_rate_windows.count + excluded.count` }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      if (++calls % 500 === 0) {
        // Forget windows older than a day, now and then.
        db.deleteFrom('public_rate_windows')
          .where('window_start', '<', new Date(nowMs - 86_400_000))
          .execute()
          .catch((err: unknown) => logger.warn({ err }, 'could not prune rate-limit windows'));
      }
      const resetSeconds = Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000));
      return { allowed: row.count <= limit, limit, remaining: Math.max(0, limit - row.count), resetSeconds };
    },
  };
}
