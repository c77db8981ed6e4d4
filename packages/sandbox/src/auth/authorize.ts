/**
 * Per-route authorization of Partner API requests (Partner API spec 4.1 "Scope" columns, 5.1 "Scopes", 8 "Limits"): runs after
 * `authenticate` has verified the request and set its credential. In order:
 *
 * 1. scope: the credential must hold the route's scope, else 403 `forbidden` naming it;
 * 2. affiliate (referral and reporting routes, Partner API spec 1): the credential must be linked to an affiliate account, else
 *    403 `forbidden` saying so;
 * 3. rate limit: one request counted in the route's class; over budget → 429 `rate_limited` with `Retry-After`.
 *
 * Answers carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window ends).
 */
import type { RequestHandler } from 'express';
import type { Scope } from '../scopes.ts';
import type { CredentialRow } from '../db/tables.ts';
import { apiError, SpecError } from '../http/api-error.ts';
import { splitRawUrl } from '../http/query.ts';
import { requestState } from '../http/request-context.ts';
import type { RateClass } from '../limits/partner.ts';

/** Options of {@link authorize}. */
export interface AuthorizeOptions {
  /** The scope the route requires (Partner API spec 4.1 tables, 5.1 "Scopes"). */
  readonly scope: Scope;
  /** The route's rate-limit class (Partner API spec 8; see limits/rate-limit.ts). */
  readonly rateClass?: RateClass;
  /** The route needs a credential linked to an affiliate account (referral and reporting, Partner API spec 1). */
  readonly affiliate?: boolean;
}

/**
 * Per-route authorization (see the module comment).
 * @throws {ProtocolError} `forbidden`, `rate_limited`.
 */
export function authorize(options: AuthorizeOptions): RequestHandler {
  const { scope, rateClass, affiliate } = options;
  return async function authorizeRequest(req, res, next) {
    const state = requestState(res);
    const { credential } = state;
    if (credential === undefined) throw new Error('authorize() ran without authenticate() before it');
    const route = `${req.method} ${splitRawUrl(req.originalUrl).path}`;
    if (!credential.scopes.includes(scope)) {
      throw apiError(
        'forbidden',
        `This credential lacks the "${scope}" scope required by ${route}. Ask for it to be enabled on the credential.`,
      );
    }
    if (affiliate && credential.affiliate_id === null) {
      throw apiError(
        'forbidden',
        `This credential is not linked to an affiliate account, which ${route} requires (referral and reporting work only for credentials linked to one). Ask for an affiliate account to be linked to the credential.`,
      );
    }
    if (rateClass !== undefined && state.rateLimiter !== undefined) {
      const decision = await state.rateLimiter(credential.key_id, rateClass);
      res.setHeader('X-RateLimit-Limit', String(decision.limit));
      res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
      res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
      if (!decision.allowed) {
        throw new SpecError(
          'rate_limited',
          `Rate limit exceeded: ${decision.limit} ${rateClass} requests per minute per credential. Retry after ${decision.resetSeconds} s (Retry-After).`,
          { retry_after: decision.resetSeconds },
          { 'Retry-After': String(decision.resetSeconds) },
        );
      }
    }
    next();
  };
}

/** The credential authenticated for this request. @throws {Error} (answered as 500) outside authenticated routes. */
export function credentialOf(res: Parameters<RequestHandler>[1]): CredentialRow {
  const { credential } = requestState(res);
  if (credential === undefined) throw new Error('no authenticated credential on this request');
  return credential;
}
