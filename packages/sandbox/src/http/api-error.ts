/**
 * Errors a route raises to answer a client: Partner API spec 7 codes travel as the protocol's `ProtocolError`; the few
 * sandbox-only answers (the admin API's `unauthorized`) as {@link ApiError}. Both become the error body
 * `{"error": {"code", "message", "request_id"}}` (docs/spec-decisions.md).
 */
import { ProtocolError, type ErrorCode } from '@domainkit/protocol';
import type { z } from 'zod';

/** An error answer with a code outside Partner API spec 7 (for example the admin API's `unauthorized`). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra response headers, such as `WWW-Authenticate`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Extra members of the error object. */
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: string,
    message: string,
    headers: Readonly<Record<string, string>> = {},
    fields: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.fields = fields;
  }
}

/**
 * A Partner API spec 7 error with extra members in its error object or extra headers (for example `price_mismatch` carries the
 * listing's `price_cents`; `rate_limited` sets `Retry-After`).
 */
export class SpecError extends ProtocolError {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    fields: Readonly<Record<string, unknown>> = {},
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(code, message);
    this.name = 'SpecError';
    this.fields = fields;
    this.headers = headers;
  }
}

/** A Partner API spec 7 error with its status (for example `apiError('not_found', 'coffee.com is not listed')`). */
export function apiError(code: ErrorCode, message: string, fields?: Readonly<Record<string, unknown>>): ProtocolError {
  return fields === undefined ? new ProtocolError(code, message) : new SpecError(code, message, fields);
}

/** One line per zod issue, `field: what is wrong`, joined by `; `. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path === '' || issue.message.startsWith(`${path} `) ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Parses untrusted input with a zod schema.
 * @throws {ProtocolError} `validation_error` whose message names each field and what to fix.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw apiError('validation_error', `Invalid ${what}: ${describeZodError(result.error)}`);
  return result.data;
}
