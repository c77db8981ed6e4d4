/**
 * Answers of the BFF as web-standard `Response`s: JSON with the BFF's content type, and the error shape
 * `{"error": {"code", "message", "retry_after"?, …}}` (docs/architecture.md "The widget ↔ BFF API").
 */
import type { WidgetError } from '@domainkit/protocol';
import type { BffHttpError } from '../errors.ts';

/** The `Content-Type` of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer: `body` serialised, `Content-Type: application/json; charset=utf-8`.
 * @param status - HTTP status; default 200.
 * @param headers - further headers (such as `Cache-Status`).
 */
export function json(body: unknown, status = 200, headers?: Readonly<Record<string, string>>): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/** A JSON answer whose body is serialised already. */
export function jsonText(text: string, status = 200, headers?: Readonly<Record<string, string>>): Response {
  const h = new Headers(headers);
  h.set('Content-Type', JSON_CONTENT_TYPE);
  return new Response(text, { status, headers: h });
}

/** The answer of a {@link BffHttpError}: its status, body and (for `busy`, `rate_limited`) `Retry-After`. Never a stack. */
export function errorResponse(error: BffHttpError): Response {
  const body: WidgetError = { error: { ...error.extra, code: error.code, message: error.message } };
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) {
    body.error.retry_after = error.retryAfter;
    headers['Retry-After'] = String(error.retryAfter);
  }
  // Headers an error carries (`Allow` of a 405; routes.ts) and a refused body's `Connection: close` (body.ts).
  Object.assign(headers, (error as { headers?: Record<string, string> }).headers);
  if ((error as { closeConnection?: boolean }).closeConnection === true) headers.Connection = 'close';
  return json(body, error.status, headers);
}
