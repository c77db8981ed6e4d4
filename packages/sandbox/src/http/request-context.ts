/**
 * Per-request state (request id, the authenticated credential) and the access log: one JSON line per request with
 * method, path (never the query: a lander URL carries its `pt` token there), status, request id, the caller's
 * `X-Request-Id` when well-formed (`client_request_id`), key id and duration. Headers and bodies are never logged.
 */
import { isWellFormedRequestId } from '@domainkit/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { CredentialRow } from '../db/tables.ts';
import type { RateClass, RateDecision } from '../limits/partner.ts';
import { randomId } from '../ids.ts';
import { splitRawUrl } from './query.ts';

/** What the sandbox knows about a request in flight. */
export interface RequestState {
  /** `req_…`, sent back as `X-Request-Id` and in every error body. */
  readonly requestId: string;
  /** The credential whose signature was verified (set by the authentication middleware). */
  credential?: CredentialRow;
  /** Counts a request against its rate-limit class (set by the Partner API router, used by `authorize`). */
  rateLimiter?: PartnerRateLimiter;
}

/** Counts one request of a credential in a rate-limit class (Partner API spec 8). */
export type PartnerRateLimiter = (keyId: string, rateClass: RateClass) => Promise<RateDecision>;

const states = new WeakMap<Response, RequestState>();

/** The state of a request (created by {@link requestContext}, which runs first). */
export function requestState(res: Response): RequestState {
  let state = states.get(res);
  if (state === undefined) {
    state = { requestId: randomId('req_', 20) };
    states.set(res, state);
  }
  return state;
}

/**
 * Assigns the request id, sets `X-Request-Id` on the response, and logs the request once it has been answered.
 * @param logger - receives `{req_id, method, path, status, key_id?, ms}` at level info (warn for 5xx).
 */
export function requestContext(logger: Logger): RequestHandler {
  return function assignRequestId(req: Request, res: Response, next: NextFunction): void {
    const state = requestState(res);
    const started = process.hrtime.bigint();
    res.setHeader('X-Request-Id', state.requestId);
    res.on('finish', () => {
      const line = {
        req_id: state.requestId,
        // The caller's own id (a BFF forwards the id of the visitor request it serves), when well-formed.
        ...(isWellFormedRequestId(req.headers['x-request-id'])
          ? { client_request_id: req.headers['x-request-id'] }
          : {}),
        method: req.method,
        path: splitRawUrl(req.originalUrl).path.slice(0, 512),
        status: res.statusCode,
        ...(state.credential ? { key_id: state.credential.key_id } : {}),
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      };
      if (res.statusCode >= 500) logger.warn(line, 'request failed');
      else logger.info(line, 'request');
    });
    next();
  };
}
