/**
 * What the Public API, the OAuth 2.1 server and the MCP server share: the database (with the Public API's tables),
 * the sandbox clock, the logger, the rate limiter, and the service's base URL as a request sees it.
 */
import type { Request } from 'express';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { PublicRateLimiter } from './limits/public.ts';
import type { PublicDb } from './db/public-tables.ts';

export interface PublicContext {
  readonly db: PublicDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly limiter: PublicRateLimiter;
  /**
   * The service's base URL for a request, without a trailing slash (`http://127.0.0.1:4010`): the OAuth issuer,
   * the protected resource identifier, the OpenAPI `servers` entry.
   */
  baseUrl(req: Request): string;
}
