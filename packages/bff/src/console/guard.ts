/**
 * What every console route shares: its dependencies, the console's error answers (protocol's `CONSOLE_ERROR_CODES`),
 * and the guard that refuses a request without a valid console session token (401) before anything else runs, so a
 * refused request never reaches the marketplace.
 */
import type { PartnerClient } from '@domainkit/client';
import { CONSOLE_ERROR_CODES, type ConsoleErrorCode, type ConsoleScope } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { BffDb } from '../db/tables.ts';
import { type BffRequest, json, type RouteHandler } from '../http/index.ts';
import type { ConsoleCache } from './cache.ts';
import type { ResolvedConsole } from './options.ts';
import { bearerOf, type ConsoleClaims, verifyConsoleToken } from './token.ts';

/** The Partner API calls the console makes (a {@link PartnerClient} satisfies it). */
export type ConsoleApi = Pick<
  PartnerClient,
  | 'orders'
  | 'refunds'
  | 'settlements'
  | 'transactions'
  | 'payouts'
  | 'brokerage'
  | 'links'
  | 'me'
  | 'analytics'
  | 'events'
>;

/** What the console routes use. */
export interface ConsoleDeps {
  readonly client: ConsoleApi;
  readonly cache: ConsoleCache;
  /** The token signing key (token.ts `consoleSigningKey`). */
  readonly key: Buffer;
  readonly settings: ResolvedConsole;
  /** The credential (key id) whose events the inbox holds. */
  readonly keyId: string;
  /** The BFF's database, for the events' deliveries; undefined when the BFF runs without one. */
  readonly db: (() => Promise<BffDb>) | undefined;
  readonly now: () => number;
  readonly logger: Logger;
}

/** A console error answer: `{"error": {"code", "message", …}}` with the code's status. */
export function consoleError(
  code: ConsoleErrorCode,
  message: string,
  extra: Readonly<Record<string, string | number>> = {},
  headers?: Readonly<Record<string, string>>,
): Response {
  return json({ error: { code, message, ...extra } }, CONSOLE_ERROR_CODES[code].status, {
    'Cache-Control': 'no-store',
    ...headers,
  });
}

const REFUSALS = {
  missing: 'Send the console session token from POST /console/session as `Authorization: Bearer <token>`.',
  malformed: 'This is not a console session token: ask POST /console/session for one.',
  expired: 'The console session token expired: ask POST /console/session for a new one.',
} as const;

/** A handler of an authorized console request. */
export type ConsoleHandler = (req: BffRequest, claims: ConsoleClaims) => Promise<Response>;

/**
 * The route handler that runs `handler` only for a valid, unexpired console token holding `scope`; otherwise 401
 * `unauthorized` (no, malformed or expired token: a visitor's purchase key is none) or 403 `forbidden` (scope).
 */
export function guarded(deps: ConsoleDeps, scope: ConsoleScope, handler: ConsoleHandler): RouteHandler {
  return async function domainkitBffConsole(req: BffRequest): Promise<Response> {
    const verdict = verifyConsoleToken(deps.key, bearerOf(req.header('authorization')), deps.now());
    if (!verdict.ok)
      return consoleError('unauthorized', REFUSALS[verdict.why], {}, { 'WWW-Authenticate': 'Bearer realm="console"' });
    if (!verdict.claims.scp.includes(scope))
      return consoleError('forbidden', `This console session token does not allow ${scope}.`);
    return handler(req, verdict.claims);
  };
}
