/**
 * Server-level defences of the sandbox (docs/spec-decisions.md "Input policy, limits and timeouts"):
 *
 * - a body whose declared `Content-Length` is over the limit answers 413 at once, before a byte of it is read, and
 *   the connection is closed (body parsers would otherwise read, and discard, the whole declared length first);
 * - short header, request and keep-alive timeouts, so a silent client holds a socket for seconds, not minutes;
 * - faults a client caused that surface as exceptions (a malformed percent-escape in the path, a value the database
 *   refuses) are classified as 4xx answers, never 500; a database refusal is also logged as a defect, since the
 *   input policy should have refused the value first.
 */
import type { Server } from 'node:http';
import { findTextViolation } from '@domainkit/protocol';
import type { Request, RequestHandler, Response } from 'express';
import { apiError } from './api-error.ts';

/** Largest body any sandbox route accepts (the Public API's batch and the MCP server: 256 kB). */
export const MAX_DECLARED_BODY_BYTES = 256 * 1024;

/** Timeouts of the sandbox's HTTP server, in milliseconds. */
export const SERVER_TIMEOUTS_MS = {
  /** Until the request line and headers are in. */
  headers: 10_000,
  /** Until the whole request (headers and body) is in. */
  request: 30_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAlive: 5_000,
} as const;

/** Applies {@link SERVER_TIMEOUTS_MS} to a Node HTTP server. */
export function applyServerTimeouts(server: Server, timeouts: typeof SERVER_TIMEOUTS_MS = SERVER_TIMEOUTS_MS): void {
  server.headersTimeout = timeouts.headers;
  server.requestTimeout = timeouts.request;
  server.keepAliveTimeout = timeouts.keepAlive;
}

/** The declared `Content-Length` of a request in bytes, or `undefined` when absent or unreadable. */
export function declaredLength(req: Request): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined || !/^\d{1,20}$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * Answers 413 at once when the declared body length is over `maxBytes`, and closes the connection afterwards so
 * the unread body is never waited for.
 * @param answer - sends the 413 in the area's own shape (JSON error body or HTML page).
 */
export function declaredBodyLimit(maxBytes: number, answer: (req: Request, res: Response) => void): RequestHandler {
  return function refuseOversizedBody(req, res, next) {
    const length = declaredLength(req);
    if (length === undefined || length <= maxBytes) {
      next();
      return;
    }
    res.setHeader('Connection', 'close');
    res.on('finish', () => req.socket.destroySoon());
    answer(req, res);
  };
}

/**
 * Runs a body parser (`express.json`, `express.raw`, `express.urlencoded`) so that a body over `maxBytes` is refused
 * as soon as the bytes received pass the limit, whatever its framing: the parser's own 413 error
 * (`entity.too.large`, answered in the area's shape by its error handler), with `Connection: close` so the rest is
 * never read. body-parser counts as the bytes arrive too, but then reads the whole body off before it answers: a
 * chunked body, which declares no length ({@link declaredBodyLimit}), was drained to its end or until the request
 * timeout (RFC 9112 section 6.1, RFC 9110 section 15.5.14).
 * @param parser - a body-parser middleware configured with the same limit.
 * @param maxBytes - the route's limit, in bytes as received.
 */
export function refuseBodyOverLimit(parser: RequestHandler, maxBytes: number): RequestHandler {
  return function refuseBodyAsItArrives(req, res, next) {
    let refused = false;
    let settled = false;
    void parser(req, res, (err?: unknown) => {
      settled = true;
      // After a refusal the parser still calls back, once the connection is gone: the answer was given.
      if (!refused) next(err);
    });
    // Counting starts only when the parser reads the body (it attached its reader synchronously): a parser that
    // skipped this request (no body, another media type) leaves the stream untouched for the next one.
    if (settled || req.readableFlowing !== true) return;
    let received = 0;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= maxBytes) return;
      stop();
      refused = true;
      res.setHeader('Connection', 'close');
      next(
        Object.assign(new Error('request entity too large'), {
          type: 'entity.too.large',
          status: 413,
          limit: maxBytes,
          expose: true,
        }),
      );
    };
    const stop = (): void => {
      req.off('data', count);
      req.off('end', stop);
    };
    req.on('data', count);
    req.on('end', stop);
  };
}

/** True when a raw path holds a percent-escape that does not decode (`%`, `%zz`, `%C3%28`). */
export function hasMalformedEscape(rawPath: string): boolean {
  try {
    decodeURIComponent(rawPath);
    return false;
  } catch {
    return true;
  }
}

/** A fault of the client's request, as the answer to give. */
export interface ClientFault {
  readonly status: 400 | 404 | 409 | 413;
  readonly code: 'validation_error' | 'not_found' | 'conflict';
  readonly message: string;
  /** True when validation should have caught it first: log it as a defect. */
  readonly defect: boolean;
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation), from `pg` or PGlite. */
function sqlState(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code) ? code : undefined;
}

/**
 * Classifies an exception caused by the request rather than by the sandbox, or returns `undefined`.
 *
 * - the router's `Failed to decode param` (a malformed percent-escape in the path) → 400 `validation_error`;
 * - PostgreSQL 23505 (unique violation) → 409 `conflict`;
 * - PostgreSQL 23503 (foreign key) → 404 `not_found`;
 * - any other data exception or constraint violation (NUL byte, number or date out of range, check) → 400.
 */
export function classifyClientFault(err: unknown): ClientFault | undefined {
  if (err instanceof URIError || (err instanceof Error && /^Failed to decode param/.test(err.message))) {
    return {
      status: 400,
      code: 'validation_error',
      message:
        'The path holds a malformed percent-escape (such as "%" or "%C3%28"): encode each path segment with encodeURIComponent.',
      defect: false,
    };
  }
  const state = sqlState(err);
  if (state === undefined) return undefined;
  if (state === '23505')
    return { status: 409, code: 'conflict', message: 'This conflicts with an existing record.', defect: true };
  if (state === '23503')
    return {
      status: 404,
      code: 'not_found',
      message: 'The request refers to a record that does not exist.',
      defect: true,
    };
  return {
    status: 400,
    code: 'validation_error',
    message:
      'A value in the request cannot be stored: text must not hold NUL or other control characters, numbers and dates must be within their documented ranges.',
    defect: true,
  };
}

/**
 * The text policy of protocol's input-policy.ts over what a request carries: `query` (the parsed query string),
 * `path` (each decoded path segment) and/or `body` (a parsed JSON or form body). A NUL, another control character
 * (tab, line feed and carriage return aside: fields that must be single-line refuse them in their schemas) or an
 * unpaired surrogate answers 400 `validation_error` naming the field.
 */
export function rejectUnsafeText(...sources: ReadonlyArray<'query' | 'path' | 'body'>): RequestHandler {
  return function refuseUnsafeText(req, _res, next) {
    for (const source of sources) {
      const problem = unsafeTextIn(req, source);
      if (problem !== undefined) {
        next(apiError('validation_error', problem));
        return;
      }
    }
    next();
  };
}

/** The message for the first value of `source` that breaks the text policy, or `undefined`. */
export function unsafeTextIn(req: Request, source: 'query' | 'path' | 'body'): string | undefined {
  if (source === 'path') {
    const raw = req.originalUrl.split('?', 1)[0] ?? '';
    if (hasMalformedEscape(raw)) return undefined; // the router answers these
    const found = findTextViolation(raw.split('/').map((segment) => decodeURIComponent(segment)));
    return found === undefined ? undefined : `The path ${found.problem}.`;
  }
  const value: unknown = source === 'query' ? req.query : req.body;
  if (Buffer.isBuffer(value)) return undefined;
  const found = findTextViolation(value, '', { multiline: true });
  if (found === undefined) return undefined;
  return source === 'query'
    ? `The query parameter \`${found.field}\` ${found.problem}.`
    : `\`${found.field}\` ${found.problem}.`;
}

/** A body parser followed by the text policy on what it parsed, as one middleware. */
export function withTextPolicy(parser: RequestHandler): RequestHandler {
  const guard = rejectUnsafeText('body');
  return function parseThenCheckText(req, res, next) {
    parser(req, res, (err?: unknown) => (err === undefined || err === null ? guard(req, res, next) : next(err)));
  };
}
