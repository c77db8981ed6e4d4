/**
 * The back-office console feature (docs/console-api.md; option `console`): the partner's own admin reads its orders,
 * settlements, transactions, payouts, commissions, brokerage cases, referral links and events through the BFF, and
 * refunds an order or creates a link, with a short-lived console session token the partner's `authorize(request)`
 * hook lets the BFF mint. Reads share one cache kept inside the marketplace's 30 reporting calls a minute, in the
 * database when there is one (every process on one PostgreSQL shares it); a webhook event drops what it changes. The entry every other module of the BFF imports it through.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { RouteSpec } from '../http/index.ts';
import type { ResolvedBffOptions } from '../resolved-options.ts';
import type { BffRuntime } from '../runtime.ts';
import { MemoryBucketStore, SqlBucketStore } from '../upstream/budget.ts';
import { ConsoleCache, MemoryConsoleReads } from './cache.ts';
import type { ConsoleApi, ConsoleDeps } from './guard.ts';
import { consoleSigningKey } from './token.ts';
import { SqlConsoleReads } from './store.ts';
import { readRoutes, TAGS } from './views.ts';
import { createLinkRoute, writeRoutes } from './writes.ts';

export {
  CONSOLE_OPTION_KEYS,
  consoleOptionsShape,
  DEFAULT_CONSOLE,
  resolveConsole,
  type ConsoleActor,
  type ConsoleAuthorize,
  type ConsoleOptions,
  type ResolvedConsole,
} from './options.ts';
export { ConsoleCache, MemoryConsoleReads, type ConsoleCacheOptions, type ConsoleReads } from './cache.ts';
export { SqlConsoleReads } from './store.ts';
export { consoleSigningKey, mintConsoleToken, verifyConsoleToken } from './token.ts';
export { isRefundable } from './views.ts';
export type { ConsoleApi, ConsoleDeps } from './guard.ts';

/** Copies kept at most per credential. */
const MAX_READS = 2000;
/** How long a copy is kept past its freshness, to be served while the budget is spent (ms). */
const KEEP_STALE_MS = 60 * 60_000;

const CONSOLE_METHODS = ['orders', 'refunds', 'settlements', 'transactions', 'payouts', 'links', 'me', 'analytics'];

/** Whether `client` has every resource the console reads (a PartnerClient does; a narrow fake may not). */
export function isConsoleApi(client: object): client is ConsoleApi {
  return CONSOLE_METHODS.every((m) => typeof (client as Record<string, unknown>)[m] === 'object');
}

/** The console's routes for these deps (tests build them with a fake client and clock). */
export function consoleRoutes(deps: ConsoleDeps): RouteSpec[] {
  const reads = readRoutes(deps);
  const links = reads.find((r) => r.path === '/console/links');
  return [
    ...reads.map((r) =>
      // Creating a link counts as a visitor's write; reading the list is the console's own read, never counted.
      r === links ? { ...r, POST: createLinkRoute(deps), sameSiteWrite: true, limit: { POST: 'write' as const } } : r,
    ),
    ...writeRoutes(deps),
  ];
}

/**
 * The console feature of one BFF (option `console`; needs a client with the reporting resources): its routes, and
 * event handlers that drop the cached views an event changes.
 */
export function consoleFeature(o: ResolvedBffOptions, runtime: BffRuntime, logger: Logger): RouteSpec[] {
  const settings = o.console;
  if (settings === undefined) return [];
  const client = runtime.client as object;
  if (!isConsoleApi(client)) {
    logger.warn('console: the client has no reporting resources (a PartnerClient has); the console is off');
    return [];
  }
  const apiSecret = o.marketplace?.secret;
  if (settings.sessionSecret === undefined && apiSecret === undefined)
    logger.warn('console: no sessionSecret and no API secret; console tokens are valid in this process only');
  const key =
    settings.sessionSecret === undefined && apiSecret === undefined
      ? randomBytes(32)
      : consoleSigningKey(settings.sessionSecret, apiSecret ?? '');
  const database = runtime.database;
  const db = () => database.db();
  const shared = o.database.kind !== 'none';
  // On PostgreSQL the copies and the budget live there, shared by every process on it; the budget in the upstream
  // budget's own send log, under a bucket of its own. Embedded PGlite is one process's: the budget lives there (kept
  // across a restart) and the copies in memory (nothing to share, and a query per read would slow every answer).
  const cache = new ConsoleCache({
    freshnessMs: settings.freshnessMs,
    perMinute: settings.reportingCallsPerMinute,
    now: o.now,
    reads:
      o.database.kind === 'postgres'
        ? new SqlConsoleReads(db, o.keyId, { keepMs: settings.freshnessMs + KEEP_STALE_MS, maxRows: MAX_READS })
        : new MemoryConsoleReads(MAX_READS),
    budget: { store: shared ? new SqlBucketStore(db) : new MemoryBucketStore(), name: `${o.keyId}:console` },
    attemptTimeoutMs: o.upstream.timeoutMs,
    logger,
  });
  runtime.on('*', (event) => cache.invalidate(event.type.startsWith('brokerage.') ? TAGS.brokerage : TAGS.order));
  return consoleRoutes({
    client,
    cache,
    key,
    settings,
    keyId: o.keyId,
    db: shared ? db : undefined,
    now: o.now,
    logger,
  });
}
