/**
 * Options of `startSandbox` and `createSandboxApp`, checked with zod when the sandbox starts: a bad option fails
 * fast with a message naming it.
 */
import { resolve } from 'node:path';
import { DEFAULT_HEADER_PREFIX, headerNames } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { z } from 'zod';
import { systemClock, type Clock } from './clock.ts';
import { SCHEMA_NAME_RE } from './db/database.ts';
import { faultSettingsSchema, type FaultSettingsPatch } from './faults/faults.ts';
import { describeZodError } from './http/api-error.ts';
import { AUTH_FAILURE_LIMITS } from './auth/failure-throttle.ts';
import { DEFAULT_INVENTORY_SEED } from './inventory/generate.ts';

/** The default data folder, relative to the working directory. */
export const DEFAULT_DATA_DIR = '.data/sandbox';
/** The default port of `startSandbox`. */
export const DEFAULT_PORT = 4010;
/** The default host of `startSandbox`: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';

/** Options of `createSandboxApp` (and of `startSandbox`). */
export interface SandboxOptions {
  /** Data folder: PGlite files (`pgdata/`) and `credentials.json`. Default `.data/sandbox`, relative to the cwd. */
  dataDir?: string;
  /**
   * PostgreSQL connection URL. Default `process.env.DATABASE_URL`; when neither is set (or it is `""`), the
   * embedded PGlite in the data folder is used.
   */
  databaseUrl?: string;
  /** PostgreSQL schema for the tables (created when missing); default `public`. Ignored by PGlite. */
  schema?: string;
  /**
   * Base URL of `checkout_url` (`{publicUrl}/checkout?pt=…`). Default: `startSandbox` uses `http://host:port`;
   * `createSandboxApp` uses the protocol, Host header and mount path of the request.
   */
  publicUrl?: string;
  /** Header prefix of the signing headers, default `X-Service-` (docs/architecture.md "Header brand"). */
  headerPrefix?: string;
  /** Seed of the synthetic inventory, used when the data folder is new. Default 1. */
  seed?: number;
  /** A pino logger to log through (a redacting child is used), `false` for none. Default: JSON on stdout. */
  logger?: Logger | false;
  /** Clock in milliseconds since the epoch (tests move it to expire tokens). Default `Date.now`. */
  now?: Clock;
  /**
   * Multiplies the webhook retry schedule (30 s, 1 min, 2 min … after failed attempts): `0.001` makes it
   * milliseconds, for tests. Default `SANDBOX_WEBHOOK_TIME_SCALE`, else 1.
   */
  webhookTimeScale?: number;
  /** How long a webhook receiver has to answer 200, in milliseconds. Default 5000 (Partner API spec 8). */
  webhookTimeoutMs?: number;
  /** Run the webhook outbox worker in this process. Default true. */
  deliverWebhooks?: boolean;
  /**
   * Fault injection to switch on at start (stored in the database, shared by every process on it): `error_rate`
   * (0–1), `latency_ms`, `rate_limit_burst`, `rate_limit_retry_after`, `duplicate_rate`, `out_of_order_rate`.
   */
  faults?: FaultSettingsPatch;
  /**
   * Failed Partner API authentications allowed per client address and minute before it is answered 429
   * `rate_limited` (auth/failure-throttle.ts; a key id is allowed three times as many); `0` switches the throttle
   * off, for a partner's negative-path test suite. Default `SANDBOX_AUTH_FAILURE_LIMIT` (a number, or `off`), else
   * 100. `POST /admin/reset` clears the counts.
   */
  authFailureLimit?: number;
}

/** Options of `startSandbox`. */
export interface StartSandboxOptions extends SandboxOptions {
  /** TCP port; default 4010; 0 picks a free port. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
}

const optionsSchema = z.object({
  dataDir: z.string().min(1, 'must be a folder path').optional(),
  databaseUrl: z.string().optional(),
  schema: z.string().regex(SCHEMA_NAME_RE, 'must be lowercase letters, digits and "_"').optional(),
  publicUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).optional(),
  headerPrefix: z
    .string()
    .refine((p) => {
      try {
        headerNames(p);
        return true;
      } catch {
        return false;
      }
    }, 'must be letters, digits and dashes ending in "-", like "X-Service-"')
    .optional(),
  seed: z.number().int('must be an integer').min(0).max(0xffffffff).optional(),
  port: z.number().int('must be an integer').min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  logger: z.unknown().optional(),
  now: z.function().optional(),
  webhookTimeScale: z.number().positive('must be a positive number').max(1000).optional(),
  webhookTimeoutMs: z.number().int('must be an integer').min(10).max(60_000).optional(),
  deliverWebhooks: z.boolean().optional(),
  faults: faultSettingsSchema.optional(),
  authFailureLimit: z.number().int('must be an integer').min(0).max(1_000_000).optional(),
});

/** Options with defaults applied. */
export interface ResolvedOptions {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly schema: string | undefined;
  readonly publicUrl: string | undefined;
  readonly headerPrefix: string;
  readonly seed: number;
  readonly port: number;
  readonly host: string;
  readonly now: Clock;
  readonly webhookTimeScale: number;
  readonly webhookTimeoutMs: number;
  readonly deliverWebhooks: boolean;
  readonly faults: FaultSettingsPatch | undefined;
  /** Failed authentications allowed per address and minute; 0 = no throttle. */
  readonly authFailureLimit: number;
}

function envTimeScale(): number {
  const raw = process.env.SANDBOX_WEBHOOK_TIME_SCALE;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1000)
    throw new TypeError(
      'invalid sandbox options: SANDBOX_WEBHOOK_TIME_SCALE must be a positive number (0.001 makes retries fast)',
    );
  return n;
}

function envAuthFailureLimit(): number {
  const raw = process.env.SANDBOX_AUTH_FAILURE_LIMIT?.trim();
  if (raw === undefined || raw === '') return AUTH_FAILURE_LIMITS.perAddress;
  if (raw.toLowerCase() === 'off') return 0;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > 1_000_000)
    throw new TypeError(
      'invalid sandbox options: SANDBOX_AUTH_FAILURE_LIMIT must be a whole number of failed authentications per address and minute (0 to 1000000), or "off"',
    );
  return Number(raw);
}

/**
 * Validates options and applies defaults.
 * @throws {TypeError} naming each invalid option.
 */
export function resolveOptions(options: StartSandboxOptions): ResolvedOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new TypeError(`invalid sandbox options: ${describeZodError(parsed.error)}`);
  const o = parsed.data;
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new TypeError(
      `invalid sandbox options: ${options.databaseUrl === undefined ? 'DATABASE_URL' : 'databaseUrl'} must be a postgres:// URL`,
    );
  }
  return {
    dataDir: resolve(o.dataDir ?? DEFAULT_DATA_DIR),
    databaseUrl: databaseUrl === '' ? undefined : databaseUrl,
    schema: o.schema,
    publicUrl: o.publicUrl?.replace(/\/+$/, ''),
    headerPrefix: o.headerPrefix ?? DEFAULT_HEADER_PREFIX,
    seed: o.seed ?? DEFAULT_INVENTORY_SEED,
    port: o.port ?? DEFAULT_PORT,
    host: o.host ?? DEFAULT_HOST,
    now: options.now ?? systemClock,
    webhookTimeScale: o.webhookTimeScale ?? envTimeScale(),
    webhookTimeoutMs: o.webhookTimeoutMs ?? 5000,
    deliverWebhooks: o.deliverWebhooks ?? true,
    faults: o.faults,
    authFailureLimit: o.authFailureLimit ?? envAuthFailureLimit(),
  };
}
