/**
 * Per-visitor request limits (express-rate-limit, in this process's memory), so one visitor cannot spend the
 * upstream budget every visitor shares (Partner API spec 8). A visitor over the limit gets 429 `rate_limited` with
 * `Retry-After` and `error.retry_after` (seconds), in the BFF's error shape.
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { BffHttpError } from './errors.ts';
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

const pass: RequestHandler = function domainkitBffNoVisitorLimit(_req, _res, next) {
  next();
};

function limiter(
  perMinute: number,
  windowMs: number,
  what: string,
  keyGenerator: VisitorLimitOptions['keyGenerator'],
): RequestHandler {
  return rateLimit({
    windowMs,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(keyGenerator !== undefined && { keyGenerator, validate: { keyGeneratorIpFallback: false } }),
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
 */
export function visitorLimiters(limits: VisitorLimits): {
  search: RequestHandler;
  siblings: RequestHandler;
  write: RequestHandler;
} {
  if (limits === false) return { search: pass, siblings: pass, write: pass };
  const { searchesPerMinute, writesPerMinute, windowMs, keyGenerator } = limits;
  return {
    search: limiter(searchesPerMinute, windowMs, 'searches', keyGenerator),
    siblings: limiter(searchesPerMinute, windowMs, 'searches', keyGenerator),
    write: limiter(writesPerMinute, windowMs, 'purchase requests', keyGenerator),
  };
}
