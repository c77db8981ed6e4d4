/**
 * Per-route authorization of Partner API requests (spec 4.1 "Scope" columns, 5.1 "Scopes"): runs after
 * `authenticate` has verified the request and set its credential.
 */
import type { RequestHandler } from 'express';
import type { Scope } from '../credentials/scopes.ts';
import type { CredentialRow } from '../db/tables.ts';
import { apiError } from '../http/api-error.ts';
import { splitRawUrl } from '../http/query.ts';
import { requestState } from '../http/request-context.ts';

/** Options of {@link authorize}. */
export interface AuthorizeOptions {
  /** The scope the route requires (spec 4.1 tables, 5.1 "Scopes"). */
  readonly scope: Scope;
}

/**
 * Per-route authorization: the authenticated credential must hold `scope`, else 403 `forbidden` naming it.
 * The route's rate-limit class (spec 8) joins these options when rate limits land, checked after the scope.
 * @throws {ProtocolError} `forbidden`.
 */
export function authorize(options: AuthorizeOptions): RequestHandler {
  const { scope } = options;
  return function authorizeScope(req, res, next) {
    const { credential } = requestState(res);
    if (credential === undefined) throw new Error('authorize() ran without authenticate() before it');
    if (!credential.scopes.includes(scope)) {
      throw apiError('forbidden', `This credential lacks the "${scope}" scope required by ${req.method} ${splitRawUrl(req.originalUrl).path}. Ask for it to be enabled on the credential.`);
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
