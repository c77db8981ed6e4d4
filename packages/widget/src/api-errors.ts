/**
 * What a failed BFF answer means, loaded by `api.ts` only when one arrives (so the first load carries none of
 * this): the BFF's error body read into a {@link DkApiError}'s code, message and fields, and, when the `api` URL
 * is not a working BFF, the diagnosis for the site's developer, written once per code and URL to the console as
 * `[domainkit] <code>: …` (the visitor sees the neutral `strings.serviceUnavailable`). In the script-tag build it
 * is `domainkit-errors.min.js`, beside `domainkit.min.js`.
 */
import type { DkApiErrorOptions } from './api.ts';
import { isCents, isRecord, type Json } from './json.ts';

/** A failure as the arguments of `new DkApiError(code, message, options)` (the caller builds it: one class). */
export type Failure = [code: string, message: string, options: DkApiErrorOptions];

const warned = new Set<string>();

/** `code` with the developer's `detail`, warned once in the console (per code and message). */
function diagnosis(code: 'bff_unreachable' | 'bff_misconfigured', detail: string, options: DkApiErrorOptions): Failure {
  const key = `${code} ${detail}`;
  if (!warned.has(key)) {
    warned.add(key);
    console.warn(`[domainkit] ${code}: ${detail}`);
  }
  return [code, detail, options];
}

/**
 * A call to `url` on another origin that got no readable answer while the browser is online: `bff_unreachable`
 * (the BFF is down, or it does not allow this page's origin: the message names the origin to add).
 */
export function unreadable(url: string, cause: unknown): Failure {
  const origin = globalThis.location.origin;
  return diagnosis(
    'bff_unreachable',
    `${url} could not be read from ${origin}: the BFF is down, or it does not allow this origin (add "${origin}" to its allowedOrigins / DOMAINKIT_ALLOWED_ORIGINS).`,
    { status: 0, cause },
  );
}

/**
 * The failure of an answer that is not a success: the BFF's `error.code` and `error.message` (with
 * `retry_after` or the `Retry-After` header, `price_cents`, the whole `error` object as `fields` and the
 * `X-Request-Id`); `http_<status>` for an error status without a JSON error body; `bff_unreachable` for a 5xx
 * that is not JSON (a proxy in front of a BFF that is down); `bff_misconfigured` for any other answer that is not
 * JSON (a static page, an SPA fallback) or a 404 without the BFF's error body (the URL is not a BFF).
 *
 * @param json the parsed body, when `parsed`.
 */
export function failedAnswer(url: string, response: Response, json: unknown, parsed: boolean): Failure {
  const status = response.status;
  const requestId = response.headers.get('X-Request-Id') ?? undefined;
  const options: DkApiErrorOptions = { status, requestId };
  if (!parsed)
    return status >= 500
      ? diagnosis(
          'bff_unreachable',
          `${url} answered HTTP ${status} without JSON: is the BFF running behind it?`,
          options,
        )
      : diagnosis(
          'bff_misconfigured',
          `${url} answered HTTP ${status} without JSON: the api attribute does not point at a domainkit BFF.`,
          options,
        );
  const error: Json = isRecord(json) && isRecord(json.error) ? json.error : {};
  const ok = typeof error.code === 'string' && typeof error.message === 'string';
  if (!ok && status === 404)
    return diagnosis(
      'bff_misconfigured',
      `${url} answered 404: the api attribute does not point at a domainkit BFF.`,
      options,
    );
  const header = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
  return [
    ok ? (error.code as string) : `http_${status}`,
    ok ? (error.message as string) : `HTTP ${status}`,
    {
      ...options,
      retryAfter: isCents(error.retry_after) ? error.retry_after : header >= 0 ? header : undefined,
      priceCents: isCents(error.price_cents) ? error.price_cents : undefined,
      fields: error,
    },
  ];
}
