/**
 * JSON bodies of signed routes. The Partner API router keeps the raw body bytes (`express.raw`) so the signature
 * is checked over the bytes exactly as sent (Partner API spec 5.1 line 6); routes then parse them here, after authentication.
 */
import type { Request } from 'express';
import { findTextViolation } from '@domainkit/protocol';
import { apiError } from './api-error.ts';

/** Largest Partner API request body accepted. */
export const MAX_BODY_BYTES = 100 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the raw body of a request as JSON.
 * @returns the parsed value, or `undefined` when the body is empty.
 * @throws {ProtocolError} `validation_error` when the content type is not JSON, the bytes are not UTF-8, or the
 *   JSON is malformed.
 */
export function readJsonBody(req: Request): unknown {
  const raw: unknown = req.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw apiError(
      'validation_error',
      'Send the request body as JSON, with the header Content-Type: application/json.',
    );
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw apiError('validation_error', 'The request body is not valid UTF-8.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (err) {
    throw apiError('validation_error', `The request body is not valid JSON (${(err as Error).message}).`);
  }
  // The input policy (protocol input-policy.ts): no NUL, other control character or unpaired surrogate.
  const found = findTextViolation(parsed, '', { multiline: true });
  if (found !== undefined) throw apiError('validation_error', `\`${found.field}\` ${found.problem}.`);
  return parsed;
}
