/**
 * Logging: pino, JSON lines. The BFF logs through a child logger that redacts secrets, signatures and auth
 * headers wherever they might appear; it also never puts headers or credentials in a log call to begin with.
 */
import { DEFAULT_HEADER_PREFIX, headerNames } from '@domainkit/protocol';
import { pino, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

/** How log lines are written: JSON lines, or pino-pretty's human-readable lines. */
export type LogFormat = 'json' | 'pretty';

/** The default format: `pretty` when stdout is a terminal (a person is watching), else `json` (a collector is). */
export function defaultLogFormat(stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return stdout.isTTY === true ? 'pretty' : 'json';
}

/**
 * A new logger writing to stdout: JSON lines, or pino-pretty (colours on a terminal, local time, no pid/hostname).
 * @param options.level - pino level, default `info`; options.format - default {@link defaultLogFormat}.
 */
export function createLogger(options: { level?: string; format?: LogFormat; name?: string } = {}): Logger {
  const base = { name: options.name ?? 'domainkit-bff', level: options.level ?? 'info' };
  if ((options.format ?? defaultLogFormat()) === 'json') return pino(base);
  return pino(
    base,
    PinoPretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
  );
}

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
 * The BFF's logger: a child of the partner's logger (or a new one on stdout, see {@link createLogger}), with
 * redaction; a silent one for `false`.
 */
export function bffLogger(option: Logger | false | undefined, headerPrefix?: string): Logger {
  if (option === false) return pino({ enabled: false });
  const redact = { paths: redactPaths(headerPrefix), censor: '[redacted]' };
  if (option === undefined) return createLogger().child({}, { redact });
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
