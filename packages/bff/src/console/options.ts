/**
 * The back-office console feature's option (`console`: the partner's own admin reads its sales, settlements,
 * commissions, brokerage and links, and refunds or creates links, through the BFF; docs/console-api.md) and its
 * defaults. Off unless the partner gives an `authorize(request)` hook.
 */
import { z } from 'zod';
import { seconds } from '../config/kit.ts';

/** Who the partner's `authorize` hook says is signed in to their admin (logged with every console write). */
export interface ConsoleActor {
  /** A stable name of the person or account, such as an e-mail address or a user id. */
  readonly actor: string;
}

/**
 * The partner's hook: given the web `Request` of `POST /console/session` (with the partner's own cookie or session
 * header), the actor who may open the console, or null/undefined/false to refuse (401 `unauthorized`).
 */
export type ConsoleAuthorize = (
  request: Request,
) => ConsoleActor | null | undefined | false | Promise<ConsoleActor | null | undefined | false>;

/** Option `console`. */
export interface ConsoleOptions {
  /** Required: who may open the console (see {@link ConsoleAuthorize}). */
  readonly authorize: ConsoleAuthorize;
  /** Lifetime of a console session token, in seconds; default 900 (15 minutes). */
  readonly tokenTtlSeconds?: number | undefined;
  /**
   * How long a read is served from the shared cache before the marketplace is asked again, in seconds; default 60.
   * A webhook event or a console write drops what it changes at once.
   */
  readonly freshnessSeconds?: number | undefined;
  /**
   * Console reads sent to the marketplace in any 60 seconds, all consoles together, and with a database every BFF
   * process of the credential sharing it; default 30 (Partner API spec 8). Past it, a stale copy is served, else 503
   * `busy`.
   */
  readonly reportingCallsPerMinute?: number | undefined;
  /**
   * Key the console session tokens are signed with (HMAC-SHA256); at least 32 characters. Default: derived from
   * the API secret (one-way), so every BFF process of the credential accepts the others' tokens.
   */
  readonly sessionSecret?: string | undefined;
}

/** The console settings once resolved (milliseconds). */
export interface ResolvedConsole {
  readonly authorize: ConsoleAuthorize;
  readonly tokenTtlSeconds: number;
  readonly freshnessMs: number;
  readonly reportingCallsPerMinute: number;
  readonly sessionSecret: string | undefined;
}

/** The defaults of {@link ConsoleOptions}. */
export const DEFAULT_CONSOLE = Object.freeze({
  tokenTtlSeconds: 900,
  freshnessSeconds: 60,
  reportingCallsPerMinute: 30,
});

const isFunction = (v: unknown): v is (...args: unknown[]) => unknown => typeof v === 'function';

/** The `createBff` options of the console feature, as checked at creation. */
export const consoleOptionsShape = {
  console: z
    .strictObject(
      {
        authorize: z.custom<ConsoleAuthorize>(isFunction, {
          error: 'must be a function (request) => { actor } | null: who may open the console',
        }),
        tokenTtlSeconds: seconds('lifetime of a console session token')
          .refine((s) => s >= 1 && s <= 86_400, 'must be from 1 to 86400 seconds')
          .optional(),
        freshnessSeconds: seconds('how long a console read is served from the cache').optional(),
        reportingCallsPerMinute: z
          .number()
          .int('must be a whole number of calls per minute')
          .min(1, 'must be at least 1')
          .max(30, 'must be at most 30, the marketplace limit (Partner API spec 8)')
          .optional(),
        sessionSecret: z.string().min(32, 'must be at least 32 characters').optional(),
      },
      { error: 'must be { authorize(request) } with optional tokenTtlSeconds, freshnessSeconds, …' },
    )
    .optional(),
};

/** The keys of `console` (for "did you mean"). */
export const CONSOLE_OPTION_KEYS: readonly string[] = [
  'authorize',
  'tokenTtlSeconds',
  'freshnessSeconds',
  'reportingCallsPerMinute',
  'sessionSecret',
];

/** The console settings, or `undefined` when the console is off (no `console` option). */
export function resolveConsole(value: ConsoleOptions | undefined): ResolvedConsole | undefined {
  if (value === undefined) return undefined;
  return Object.freeze({
    authorize: value.authorize,
    tokenTtlSeconds: value.tokenTtlSeconds ?? DEFAULT_CONSOLE.tokenTtlSeconds,
    freshnessMs: (value.freshnessSeconds ?? DEFAULT_CONSOLE.freshnessSeconds) * 1000,
    reportingCallsPerMinute: value.reportingCallsPerMinute ?? DEFAULT_CONSOLE.reportingCallsPerMinute,
    sessionSecret: value.sessionSecret,
  });
}
