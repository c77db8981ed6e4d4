/**
 * JSON error answers of the Partner API and the admin API: `{"error": {"code", "message", "request_id"}}` with
 * `X-Request-Id` (decided wire shape). Unexpected errors answer 500 `internal_error` with a generic message; the
 * detail goes to the server log only, never to the caller.
 */
import { channel } from 'node:diagnostics_channel';
import { DEFECT_CHANNEL, type DefectReport, ProtocolError } from '@domainkit/protocol';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, SpecError } from './api-error.ts';
import { classifyClientFault } from './hardening.ts';
import { splitRawUrl } from './query.ts';
import { requestState } from './request-context.ts';

/**
 * The error body as JSON text: `{"error": {"code", "message", "request_id", ...fields}}`. `fields` carries extra
 * members of the error object (for example the new `price_cents` of a `price_mismatch`).
 */
export function errorBodyText(
  requestId: string,
  code: string,
  message: string,
  fields: Readonly<Record<string, unknown>> = {},
): string {
  return JSON.stringify({ error: { code, message, request_id: requestId, ...fields } });
}

/** Sends an error body. */
export function sendError(
  res: Response,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
  fields: Readonly<Record<string, unknown>> = {},
): void {
  const { requestId } = requestState(res);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res
    .status(status)
    .type('application/json')
    .send(errorBodyText(requestId, code, message, fields));
}

/** Answers 404 `not_found` for a route nobody serves. */
export function notFoundHandler(): RequestHandler {
  return function routeNotFound(req, res) {
    sendError(
      res,
      404,
      'not_found',
      `No route ${req.method} ${splitRawUrl(req.originalUrl).path.slice(0, 200)}: check the method and the path (Partner API paths start with /api/partner/v1/).`,
    );
  };
}

/** What a body-parser failure looks like (`http-errors` from `express.raw`, `express.json`, `express.urlencoded`). */
interface BodyParserError {
  readonly type: string;
  readonly status?: number;
  readonly limit?: number;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return (
    typeof err === 'object' && err !== null && typeof (err as { type?: unknown }).type === 'string' && 'expose' in err
  );
}

/** Message for a body the parsers refused, or `undefined` when the error is something else. */
export function describeBodyParserError(err: unknown): string | undefined {
  if (!isBodyParserError(err)) return undefined;
  switch (err.type) {
    case 'entity.too.large':
      return `The request body is too large: at most ${err.limit ?? 'the allowed number of'} bytes.`;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return 'The request body encoding is not supported: send UTF-8 without Content-Encoding.';
    case 'entity.parse.failed':
      return 'The request body is not valid JSON.';
    case 'request.aborted':
      return 'The request was aborted before its body arrived.';
    default:
      return 'The request body could not be read.';
  }
}

const defects = channel(DEFECT_CHANNEL);

/**
 * What is wrong with a form an HTML page received, for its error page: a body the parsers refused (413 over the
 * limit, else 400), or a field the text policy refused (`rejectUnsafeText`: its 400 and message); else `undefined`.
 */
export function formProblem(err: unknown): { status: number; message: string } | undefined {
  const bodyProblem = describeBodyParserError(err);
  if (bodyProblem !== undefined)
    return { status: (err as BodyParserError).type === 'entity.too.large' ? 413 : 400, message: bodyProblem };
  if (err instanceof ProtocolError && err.status >= 400 && err.status < 500)
    return { status: err.status, message: err.message };
  return undefined;
}

/**
 * Logs a database refusal that validation let through (`defect: true`, level error) and publishes it on the
 * {@link DEFECT_CHANNEL} diagnostics channel: the answer is a 4xx, but the input policy missed a value.
 */
export function logDefect(logger: Logger, err: unknown, req: Request, requestId: string): void {
  const e = err as { code?: unknown; message?: unknown; column?: unknown; constraint?: unknown };
  const route = `${req.method} ${splitRawUrl(req.originalUrl).path.slice(0, 200)}`;
  logger.error(
    {
      defect: true,
      route,
      sqlstate: e.code,
      db_message: e.message,
      column: e.column,
      constraint: e.constraint,
      req_id: requestId,
      method: req.method,
    },
    'defect: the database refused a value that input validation let through',
  );
  if (defects.hasSubscribers) {
    const report: DefectReport = {
      component: 'sandbox',
      route,
      sqlstate: typeof e.code === 'string' ? e.code : undefined,
      message: String(e.message),
    };
    defects.publish(report);
  }
}

/** The last error handler of a JSON area: spec errors as their status, everything else as 500 `internal_error`. */
export function jsonErrorHandler(logger: Logger): ErrorRequestHandler {
  return function answerJsonError(err: unknown, req, res, next): void {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof ApiError) {
      sendError(res, err.status, err.code, err.message, err.headers, err.fields);
      return;
    }
    if (err instanceof ProtocolError) {
      sendError(
        res,
        err.status,
        err.code,
        err.message,
        err instanceof SpecError ? err.headers : {},
        err instanceof SpecError ? err.fields : {},
      );
      return;
    }
    const bodyProblem = describeBodyParserError(err);
    if (bodyProblem !== undefined) {
      sendError(res, (err as BodyParserError).type === 'entity.too.large' ? 413 : 400, 'validation_error', bodyProblem);
      return;
    }
    const fault = classifyClientFault(err);
    if (fault !== undefined) {
      if (fault.defect) logDefect(logger, err, req, requestState(res).requestId);
      sendError(res, fault.status, fault.code, fault.message);
      return;
    }
    logger.error({ err, req_id: requestState(res).requestId, method: req.method }, 'unexpected error');
    sendError(
      res,
      500,
      'internal_error',
      'Something went wrong on the sandbox. Retry with exponential back-off; if it persists, report the request id.',
    );
  };
}
