/**
 * Logging: pino, JSON lines. The BFF logs through a child logger that redacts secrets, signatures and auth
 * headers wherever they might appear; it also never puts headers or credentials in a log call to begin with.
 */
import { DEFAULT_HEADER_PREFIX, headerNames } from '@domainkit/protocol';
import { pino, type Logger } from 'pino';

/** Paths pino replaces with `[redacted]` (one and two levels deep, and in request headers). */
export function redactPaths(headerPrefix: string = DEFAULT_HEADER_PREFIX): string[] {
  const names = headerNames(headerPrefix);
  const headers = [
    'authorization',
    'cookie',
    'set-cookie',
    'idempotency-key',
    'x-order-token',
    names.signature.toLowerCase(),
    names.nonce.toLowerCase(),
  ];
  const fields = ['secret', 'apiSecret', 'order_token', 'token_hash', 'card_number', 'idempotency_key'];
  return [
    ...fields.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
    ...headers.flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`, `*.*.headers["${h}"]`]),
  ];
}

/**
 * The BFF's logger: a child of the partner's logger (or a new JSON logger to stdout), with redaction; a silent one
 * for `false`.
 */
export function bffLogger(option: Logger | false | undefined, headerPrefix?: string): Logger {
  if (option === false) return pino({ enabled: false });
  const redact = { paths: redactPaths(headerPrefix), censor: '[redacted]' };
  if (option === undefined) return pino({ name: 'domainkit-bff', redact });
  return option.child({ component: 'domainkit-bff' }, { redact });
}

/** An error as log fields (`{error: {name, message, code?}}`): never its stack, never its other properties. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const fields: Record<string, unknown> = { name: error.name, message: error.message };
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') fields.code = code;
    return { error: fields };
  }
  return { error: String(error) };
}
