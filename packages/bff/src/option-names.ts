/**
 * What `validateBffOptions` (options.ts) says of an option it does not know: the name people likely meant (`apiSecret`
 * → `marketplace.secret`, or a near spelling), else every option known where it was written.
 */
import { didYouMean } from './config/kit.ts';
import { BROKERAGE_OPTION_KEYS } from './brokerage/index.ts';
import { CONSOLE_OPTION_KEYS } from './console/index.ts';
import { SEARCH_CACHE_ALIASES, searchOptionsShape } from './search/index.ts';
import { MARKETPLACE_ALIASES, marketplaceSchema } from './upstream/options.ts';
import { WEBHOOK_ALIASES, webhookOptionsShape } from './webhooks/index.ts';
import { WHOIS_OPTION_KEYS } from './whois/index.ts';

/** Likely intended names for keys people type (`apiSecret` → `secret`), by the object they sit in. */
const ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '': {
    secret: 'marketplace.secret',
    apiSecret: 'marketplace.secret',
    keyId: 'marketplace.keyId',
    baseUrl: 'marketplace.baseUrl',
    headerPrefix: 'marketplace.headerPrefix',
    dispatcher: 'marketplace.dispatcher',
    credential: 'marketplace',
    credentials: 'marketplace',
    origins: 'allowedOrigins',
    corsOrigins: 'allowedOrigins',
    allowOrigins: 'allowedOrigins',
    allowedOrigin: 'allowedOrigins',
    cors: 'allowedOrigins',
    return_url: 'returnUrl',
    returnURL: 'returnUrl',
    successUrl: 'returnUrl',
    cancel_url: 'cancelUrl',
    cancelURL: 'cancelUrl',
    cache: 'searchCache',
    db: 'database',
    databaseUrl: 'database',
    paymentAdapter: 'payments',
    payment: 'payments',
    webhooks: 'webhook',
    webhookSecret: 'webhook',
    handlers: 'onEvent',
    on: 'onEvent',
    events: 'onEvent',
    rateLimits: 'visitorLimits',
    budget: 'upstreamBudget',
  },
  marketplace: MARKETPLACE_ALIASES,
  searchCache: SEARCH_CACHE_ALIASES,
  webhook: WEBHOOK_ALIASES,
};

/** An option's path as written in code: `marketplace.baseUrl`, `allowedOrigins[0]`. */
export function optionPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** The option names known at `path` (`top`: those of the options object itself). */
function knownAt(path: ReadonlyArray<PropertyKey>, top: readonly string[]): readonly string[] {
  if (path.length === 0) return top;
  if (path[0] === 'marketplace') return Object.keys(marketplaceSchema.shape);
  const nested: Record<string, readonly string[]> = {
    searchCache: Object.keys(searchOptionsShape.searchCache.unwrap().shape),
    webhook: Object.keys(webhookOptionsShape.webhook.unwrap().shape),
    siblings: ['ttlSeconds', 'staleWhileRevalidateSeconds', 'staleIfErrorSeconds', 'maxEntries'],
    upstreamBudget: ['search', 'write', 'maxWaitMs', 'searchMaxWaitMs'],
    visitorLimits: ['searchesPerMinute', 'writesPerMinute', 'keyGenerator'],
    background: ['recoveryIntervalSeconds', 'catchUpIntervalSeconds', 'leaseSeconds', 'enabled', 'mode'],
    database: ['url', 'schema', 'dataDir', 'memory', 'perRequest'],
    metrics: ['token'],
    brokerage: BROKERAGE_OPTION_KEYS,
    console: CONSOLE_OPTION_KEYS,
    mcp: ['toolCallsPerMinute', 'allowedHosts', 'shopName', 'shopUrl'],
    whois: WHOIS_OPTION_KEYS,
  };
  return nested[String(path[0])] ?? [];
}

/**
 * One line per unknown option `keys` found at `path` (as zod reports `unrecognized_keys`), each naming the option and
 * either the one likely meant or the known ones there. `top`: the names of the options object itself.
 */
export function unknownOptionProblems(
  path: ReadonlyArray<PropertyKey>,
  keys: readonly string[],
  top: readonly string[],
): string[] {
  const scope = path.map(String).join('.');
  const known = knownAt(path, top);
  return keys.map((key) => {
    const name = scope ? `${scope}.${key}` : key;
    const hint = didYouMean(key, known, ALIASES[scope] ?? {});
    const full = hint === undefined ? undefined : hint.includes('.') || !scope ? hint : `${scope}.${hint}`;
    return full
      ? `received \`${name}\`; did you mean \`${full}\`?`
      : `received unknown option \`${name}\`; known options${scope ? ` of \`${scope}\`` : ''}: ${known.join(', ')}`;
  });
}
