/**
 * Configuration of the standalone BFF from environment variables, checked at start: one error names every
 * missing or invalid variable (and never echoes the secret).
 *
 * | variable | required | meaning |
 * |---|---|---|
 * | DOMAINKIT_API_BASE_URL | yes | marketplace service address (`https://…`, required with NODE_ENV=production unless loopback; no userinfo; the client adds `/api/partner/v1`) |
 * | DOMAINKIT_KEY_ID | yes | Partner API key id (`pk_…`) |
 * | DOMAINKIT_API_SECRET | yes | Partner API secret (`sk_…`) |
 * | DOMAINKIT_HEADER_PREFIX | no | signing header prefix, default `X-Service-` |
 * | DOMAINKIT_ALLOWED_ORIGINS | no | comma-separated origins allowed by CORS (exact match) |
 * | DOMAINKIT_RETURN_URL | no | checkout return URL |
 * | DOMAINKIT_CANCEL_URL | no | checkout cancel URL |
 * | PORT | no | default 8787 |
 * | HOST | no | default 127.0.0.1 |
 * | DATABASE_URL | no | PostgreSQL URL (state shared by several BFF processes); default embedded PGlite |
 * | DOMAINKIT_DATABASE_SCHEMA | no | PostgreSQL schema, default `public` |
 * | DOMAINKIT_DATA_DIR | no | PGlite data folder, default `.data/bff` |
 * | DOMAINKIT_PAYMENTS | no | `test_card`: MoR with the test-card adapter (SANDBOX credential only; refused with NODE_ENV=production unless the next) |
 * | DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION | no | `true`: a staging shop takes test cards with NODE_ENV=production (never with a LIVE key) |
 * | DOMAINKIT_WEBHOOK_SECRET | no | webhook signing secret: enables `POST /webhooks` |
 * | DOMAINKIT_WEBHOOK_PUBLIC_URL | no | public URL of `POST /webhooks`, registered at start |
 * | DOMAINKIT_TRUST_PROXY | no | the proxies in front: their number (`1`) or addresses and CIDR ranges (`10.0.0.0/8, loopback`); `true` refused |
 * | DOMAINKIT_LOG_LEVEL | no | pino level, default `info` |
 * | DOMAINKIT_LOG_FORMAT | no | `json` or `pretty`; default `pretty` on a terminal, else `json` |
 * | DOMAINKIT_PROFILE | no | `test`: the test profile for e2e tests (refused with NODE_ENV=production) |
 * | DOMAINKIT_METRICS | no | `true`: serve `GET /metrics` (Prometheus text format) |
 * | DOMAINKIT_METRICS_TOKEN | no | bearer token `GET /metrics` requires (16+ characters); implies DOMAINKIT_METRICS |
 * | DOMAINKIT_SEARCH_BUDGET_PER_MINUTE, DOMAINKIT_SEARCH_BUDGET_BURST | no | upstream search budget, default 60 and 6 |
 * | DOMAINKIT_WRITE_BUDGET_PER_MINUTE, DOMAINKIT_WRITE_BUDGET_BURST | no | upstream write budget, default 20 and 5 |
 * | DOMAINKIT_BUDGET_MAX_WAIT_MS | no | longest wait for a write or detail token (ms), default 1500 |
 * | DOMAINKIT_SEARCH_MAX_WAIT_MS | no | longest wait of a search for a token (ms), default 300 |
 * | DOMAINKIT_SEARCH_CACHE_TTL_SECONDS | no | seconds a search answer is fresh, default 21600 |
 * | DOMAINKIT_SEARCH_CACHE_STALE_SECONDS | no | then seconds served while a spare token may refresh it, default 64800 |
 * | DOMAINKIT_SEARCH_CACHE_STALE_IF_ERROR_SECONDS | no | then seconds served when upstream is busy or failing, default 86400 |
 * | DOMAINKIT_SEARCH_CACHE_MEMORY_ENTRIES | no | answers kept in each process's memory, default 5000 |
 * | DOMAINKIT_SEARCH_INDEX | no | `false`: no answers from the listing index; default `true` |
 * | DOMAINKIT_SEARCH_CACHE_MODE | no | `shared` (default) or `process` (the earlier per-process cache) |
 * | DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE, DOMAINKIT_VISITOR_WRITES_PER_MINUTE | no | per-visitor limits, default 30 and 10; `off` turns both off |
 */
import { createLogger, redactText, type LogFormat } from './logger.ts';
import { DEFAULT_BFF_DATA_DIR, describeDatabaseUrl } from './db/database.ts';
import {
  envReader,
  firstMessage,
  originSchema,
  plainHttpServiceUrlProblem,
  serviceUrl,
  type EnvReader,
  type EnvVariable,
} from './config/kit.ts';
import { BROKERAGE_ENV_VARIABLES, readBrokerageEnv } from './brokerage/index.ts';
import { CHECKOUT_ENV_VARIABLES, readCheckoutEnv } from './checkout/index.ts';
import { PURCHASE_ENV_VARIABLES, readPurchaseEnv } from './purchase/index.ts';
import { readSearchEnv, SEARCH_ENV_VARIABLES } from './search/index.ts';
import { readWebhookEnv, WEBHOOK_ENV_VARIABLES } from './webhooks/index.ts';
import { readTrustProxy, type TrustProxySetting } from './http/proxy-trust.ts';
import { DEFAULT_HOST, DEFAULT_PORT, type BffServerOptions } from './server.ts';

export type { EnvVariable } from './config/kit.ts';

/** The variables, in the order the README documents them. */
export const BFF_ENV_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'DOMAINKIT_API_BASE_URL',
    required: true,
    description:
      'the marketplace service address, such as https://marketplace.example (without /api/partner/v1; https:// with NODE_ENV=production unless loopback)',
  },
  { name: 'DOMAINKIT_KEY_ID', required: true, description: 'the public key id of your Partner API credential (pk_…)' },
  { name: 'DOMAINKIT_API_SECRET', required: true, description: 'the API secret of your Partner API credential (sk_…)' },
  { name: 'DOMAINKIT_HEADER_PREFIX', required: false, description: 'the signing header prefix, default X-Service-' },
  {
    name: 'DOMAINKIT_ALLOWED_ORIGINS',
    required: false,
    description: 'comma-separated origins allowed to call the BFF from a browser, such as https://shop.example',
  },
  ...CHECKOUT_ENV_VARIABLES,
  { name: 'PORT', required: false, description: `the TCP port, default ${DEFAULT_PORT}` },
  { name: 'HOST', required: false, description: `the interface to bind, default ${DEFAULT_HOST}` },
  {
    name: 'DATABASE_URL',
    required: false,
    description:
      'a postgres:// URL; several BFF processes can share it. Default: embedded PGlite in DOMAINKIT_DATA_DIR',
  },
  {
    name: 'DOMAINKIT_DATABASE_SCHEMA',
    required: false,
    description: 'the PostgreSQL schema of the BFF tables, default public',
  },
  { name: 'DOMAINKIT_DATA_DIR', required: false, description: 'the embedded PGlite data folder, default .data/bff' },
  ...PURCHASE_ENV_VARIABLES,
  ...WEBHOOK_ENV_VARIABLES,
  ...BROKERAGE_ENV_VARIABLES,
  {
    name: 'DOMAINKIT_TRUST_PROXY',
    required: false,
    description:
      'the reverse proxies whose forwarding headers are believed: their number (1) or their addresses and CIDR ranges (10.0.0.0/8, loopback); default none',
  },
  {
    name: 'DOMAINKIT_LOG_LEVEL',
    required: false,
    description: 'the log level: fatal, error, warn, info, debug, trace or silent; default info',
  },
  {
    name: 'DOMAINKIT_LOG_FORMAT',
    required: false,
    description: 'json or pretty (human-readable); default pretty when stdout is a terminal, else json',
  },
  {
    name: 'DOMAINKIT_PROFILE',
    required: false,
    description:
      'test: relaxed visitor limits and write burst for your own e2e tests (refused when NODE_ENV=production)',
  },
  {
    name: 'DOMAINKIT_METRICS',
    required: false,
    description: 'true to serve GET /metrics in the Prometheus text format; default false',
  },
  {
    name: 'DOMAINKIT_METRICS_TOKEN',
    required: false,
    description: 'a bearer token (16+ characters) GET /metrics requires; setting it turns metrics on',
  },
  ...(
    [
      ['DOMAINKIT_SEARCH_BUDGET_PER_MINUTE', 'upstream searches allowed in any 60 s (spec 8), default 60'],
      ['DOMAINKIT_SEARCH_BUDGET_BURST', 'searches that may go at once after a quiet spell, default 6'],
      ['DOMAINKIT_WRITE_BUDGET_PER_MINUTE', 'upstream writes allowed in any 60 s (spec 8), default 20'],
      ['DOMAINKIT_WRITE_BUDGET_BURST', 'writes that may go at once after a quiet spell, default 5'],
      ['DOMAINKIT_BUDGET_MAX_WAIT_MS', 'longest wait for an upstream token before "busy" (ms), default 1500'],
      ['DOMAINKIT_SEARCH_MAX_WAIT_MS', 'longest wait of a visitor search for an upstream token (ms), default 300'],
    ] as const
  ).map(([name, description]) => ({ name, required: false, description })),
  ...SEARCH_ENV_VARIABLES,
  ...(
    [
      ['DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE', 'searches per visitor per minute, default 30; off: no visitor limits'],
      ['DOMAINKIT_VISITOR_WRITES_PER_MINUTE', 'purchases and other writes per visitor per minute, default 10'],
    ] as const
  ).map(([name, description]) => ({ name, required: false, description })),
];

/** Raised by {@link loadBffConfigFromEnv}; `problems` has one entry per variable. */
export class BffConfigError extends Error {
  /** Stable code. */
  readonly code = 'invalid_bff_environment';
  /** Each offending variable with what is wrong. */
  readonly problems: ReadonlyArray<{ readonly variable: string; readonly problem: string }>;

  constructor(problems: ReadonlyArray<{ variable: string; problem: string }>) {
    super(
      `The BFF's environment is not valid:\n${problems.map((p) => `  - ${p.variable} ${p.problem}`).join('\n')}\nSee the environment table in the @domainkit/bff README.`,
    );
    this.name = 'BffConfigError';
    this.problems = problems;
  }
}

/**
 * Reads the standalone BFF's configuration from environment variables (table above).
 *
 * @param env - default `process.env`.
 * @returns options for `startBff`.
 * @throws {BffConfigError} naming every missing or invalid variable at once.
 */
export function loadBffConfigFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): BffServerOptions {
  const reader = envReader(env);
  const problems = reader.problems;
  const get = reader.get;
  const required = (name: string): string | undefined => {
    const value = get(name);
    if (value === undefined) {
      const { description } = BFF_ENV_VARIABLES.find((v) => v.name === name)!;
      problems.push({ variable: name, problem: `is missing: set it to ${description}` });
    }
    return value;
  };

  const baseUrl = required('DOMAINKIT_API_BASE_URL');
  if (baseUrl !== undefined) {
    const message = firstMessage(serviceUrl, baseUrl) ?? plainHttpServiceUrlProblem(baseUrl, env.NODE_ENV);
    if (message)
      problems.push({
        variable: 'DOMAINKIT_API_BASE_URL',
        problem: `${message}; received ${JSON.stringify(redactText(baseUrl))}`,
      });
  }
  const keyId = required('DOMAINKIT_KEY_ID');
  const secret = required('DOMAINKIT_API_SECRET');
  if (secret?.startsWith('pk_')) {
    problems.push({
      variable: 'DOMAINKIT_API_SECRET',
      problem: 'looks like a key id (pk_…): put the sk_… API secret here and the pk_… value in DOMAINKIT_KEY_ID',
    });
  }
  const headerPrefix = get('DOMAINKIT_HEADER_PREFIX');
  if (headerPrefix !== undefined && !/^[A-Za-z][A-Za-z0-9-]*-$/.test(headerPrefix)) {
    problems.push({
      variable: 'DOMAINKIT_HEADER_PREFIX',
      problem: `must be letters, digits and dashes ending in "-", such as "X-Service-"; received ${JSON.stringify(headerPrefix)}`,
    });
  }
  const originsRaw = get('DOMAINKIT_ALLOWED_ORIGINS');
  const allowedOrigins = originsRaw
    ?.split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of allowedOrigins ?? []) {
    const message = firstMessage(originSchema, origin);
    if (message)
      problems.push({ variable: 'DOMAINKIT_ALLOWED_ORIGINS', problem: `entry ${JSON.stringify(origin)} ${message}` });
  }
  const checkout = readCheckoutEnv(reader);
  const portRaw = get('PORT');
  const port = portRaw === undefined ? DEFAULT_PORT : Number(portRaw);
  if (portRaw !== undefined && !(/^\d+$/.test(portRaw) && port <= 65535)) {
    problems.push({
      variable: 'PORT',
      problem: `must be an integer from 0 to 65535; received ${JSON.stringify(portRaw)}`,
    });
  }
  const host = get('HOST') ?? DEFAULT_HOST;

  const databaseUrl = get('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push({
      variable: 'DATABASE_URL',
      problem: `must be a postgres:// URL; received ${JSON.stringify(describeDatabaseUrl(databaseUrl))}`,
    });
  }
  const schema = get('DOMAINKIT_DATABASE_SCHEMA');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    problems.push({
      variable: 'DOMAINKIT_DATABASE_SCHEMA',
      problem: `must be lowercase letters, digits and "_" (not starting with a digit); received ${JSON.stringify(schema)}`,
    });
  }
  if (schema !== undefined && databaseUrl === undefined)
    problems.push({
      variable: 'DOMAINKIT_DATABASE_SCHEMA',
      problem: 'applies to PostgreSQL only: set DATABASE_URL too, or remove it',
    });
  const dataDir = get('DOMAINKIT_DATA_DIR');
  const purchase = readPurchaseEnv(reader, keyId);
  const webhooks = readWebhookEnv(reader, secret);
  const brokerage = readBrokerageEnv(reader);
  const trustRaw = get('DOMAINKIT_TRUST_PROXY');
  let trustProxy: TrustProxySetting | undefined;
  if (trustRaw !== undefined) {
    const trust = readTrustProxy(trustRaw);
    if ('setting' in trust) trustProxy = trust.setting;
    else
      problems.push({
        variable: 'DOMAINKIT_TRUST_PROXY',
        problem: `${trust.problem}; received ${JSON.stringify(trustRaw.slice(0, 200))}`,
      });
  }
  const logLevel = get('DOMAINKIT_LOG_LEVEL');
  const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (logLevel !== undefined && !LEVELS.includes(logLevel))
    problems.push({
      variable: 'DOMAINKIT_LOG_LEVEL',
      problem: `must be one of ${LEVELS.join(', ')}; received ${JSON.stringify(logLevel)}`,
    });

  const logFormat = get('DOMAINKIT_LOG_FORMAT');
  if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty')
    problems.push({
      variable: 'DOMAINKIT_LOG_FORMAT',
      problem: `must be json or pretty; received ${JSON.stringify(logFormat)}`,
    });
  const profile = get('DOMAINKIT_PROFILE');
  if (profile !== undefined && profile !== 'test' && profile !== 'production')
    problems.push({
      variable: 'DOMAINKIT_PROFILE',
      problem: `must be test or production; received ${JSON.stringify(profile)}`,
    });
  if (profile === 'test' && env.NODE_ENV === 'production')
    problems.push({
      variable: 'DOMAINKIT_PROFILE',
      problem:
        'test is refused when NODE_ENV=production: it lifts the visitor limits that protect your upstream budget',
    });
  const metricsRaw = get('DOMAINKIT_METRICS');
  if (metricsRaw !== undefined && metricsRaw !== 'true' && metricsRaw !== 'false')
    problems.push({
      variable: 'DOMAINKIT_METRICS',
      problem: `must be true or false; received ${JSON.stringify(metricsRaw)}`,
    });
  const metricsToken = get('DOMAINKIT_METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16)
    problems.push({ variable: 'DOMAINKIT_METRICS_TOKEN', problem: 'must be at least 16 characters' });
  const metrics =
    metricsToken !== undefined ? { token: metricsToken } : metricsRaw === undefined ? undefined : metricsRaw === 'true';
  const tuning = readTuning(reader);

  if (problems.length > 0) throw new BffConfigError(problems);
  return {
    ...tuning,
    marketplace: {
      baseUrl: baseUrl!,
      keyId: keyId!,
      secret: secret!,
      ...(headerPrefix !== undefined && { headerPrefix }),
    },
    ...(allowedOrigins !== undefined && { allowedOrigins }),
    ...checkout,
    ...(databaseUrl !== undefined && { database: { url: databaseUrl, ...(schema !== undefined && { schema }) } }),
    // The standalone server always keeps its state (search answers, budgets) in a database: PGlite by default.
    ...(databaseUrl === undefined && { database: { dataDir: dataDir ?? DEFAULT_BFF_DATA_DIR } }),
    ...purchase,
    ...webhooks,
    ...brokerage,
    ...(trustProxy !== undefined && { trustProxy }),
    ...((logLevel !== undefined || logFormat !== undefined) && {
      logger:
        logLevel === 'silent'
          ? false
          : createLogger({
              level: logLevel ?? 'info',
              ...(logFormat !== undefined && { format: logFormat as LogFormat }),
            }),
    }),
    ...(metrics !== undefined && { metrics }),
    ...(profile !== undefined && { profile: profile as 'test' | 'production' }),
    port,
    host,
  };
}

/** Reads the budget, search cache and visitor-limit variables (all optional; each problem is added to `problems`). */
function readTuning(reader: EnvReader): Pick<BffServerOptions, 'upstreamBudget' | 'searchCache' | 'visitorLimits'> {
  const { get, problems } = reader;
  const int = reader.int;
  const bucket = (what: 'SEARCH' | 'WRITE') => {
    const perMinute = int(`DOMAINKIT_${what}_BUDGET_PER_MINUTE`, 2);
    const burst = int(`DOMAINKIT_${what}_BUDGET_BURST`, 1);
    if (perMinute === undefined && burst === undefined) return undefined;
    const defaults = what === 'SEARCH' ? { perMinute: 60, burst: 6 } : { perMinute: 20, burst: 5 };
    const limit = {
      perMinute: perMinute ?? defaults.perMinute,
      burst: burst ?? Math.min(defaults.burst, (perMinute ?? 2) - 1),
    };
    if (limit.burst >= limit.perMinute) {
      problems.push({
        variable: `DOMAINKIT_${what}_BUDGET_BURST`,
        problem: `must be less than DOMAINKIT_${what}_BUDGET_PER_MINUTE (${limit.perMinute})`,
      });
    }
    return limit;
  };
  const search = bucket('SEARCH');
  const write = bucket('WRITE');
  const maxWaitMs = int('DOMAINKIT_BUDGET_MAX_WAIT_MS', 0);
  const searchMaxWaitMs = int('DOMAINKIT_SEARCH_MAX_WAIT_MS', 0);
  const upstreamBudget = {
    ...(search !== undefined && { search }),
    ...(write !== undefined && { write }),
    ...(maxWaitMs !== undefined && { maxWaitMs }),
    ...(searchMaxWaitMs !== undefined && { searchMaxWaitMs }),
  };

  const searchCache = readSearchEnv(reader);

  const off = get('DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE') === 'off';
  const searchesPerMinute = off ? undefined : int('DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE', 1);
  const writesPerMinute = int('DOMAINKIT_VISITOR_WRITES_PER_MINUTE', 1);
  const visitorLimits = off
    ? false
    : {
        ...(searchesPerMinute !== undefined && { searchesPerMinute }),
        ...(writesPerMinute !== undefined && { writesPerMinute }),
      };
  return {
    ...(Object.keys(upstreamBudget).length > 0 && { upstreamBudget }),
    ...(searchCache !== undefined && { searchCache }),
    ...((visitorLimits === false || Object.keys(visitorLimits).length > 0) && { visitorLimits }),
  };
}
