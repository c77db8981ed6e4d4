/**
 * Logging: pino, JSON lines. Secrets never reach a log line: the sandbox logs no headers and no bodies, and as a
 * second line of defence every logger it uses redacts secret-bearing fields.
 */
import { pino, type Logger } from 'pino';

/** Fields censored in every log line, wherever they appear (one level deep). */
export const REDACTED_PATHS = [
  'secret',
  '*.secret',
  'admin_token',
  '*.admin_token',
  'webhook_secret',
  '*.webhook_secret',
  'authorization',
  '*.authorization',
  'headers',
  '*.headers',
  'pt',
  '*.pt',
  'progress_token',
  '*.progress_token',
];

/**
 * The sandbox's logger: the caller's (as a child with redaction), a silent one for `false`, or a new JSON logger
 * on stdout at `LOG_LEVEL` (default `info`).
 */
export function sandboxLogger(logger: Logger | false | undefined): Logger {
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' };
  if (logger === false) return pino({ enabled: false });
  if (logger !== undefined) return logger.child({ component: 'sandbox' }, { redact });
  return pino({ name: 'domainkit-sandbox', level: process.env.LOG_LEVEL ?? 'info', redact });
}
