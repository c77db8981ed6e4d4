/**
 * Logging: pino, JSON lines. The BFF logs through a child logger that redacts secrets, signatures and auth
 * headers wherever they might appear; it also never puts headers or credentials in a log call to begin with.
 *
 * Bundled for Cloudflare Workers, pino resolves to its browser build, which has no output streams and ignores
 * `redact`: there the BFF's own logger writes one JSON line per entry to `console.log` (Workers Logs collects it),
 * with the same fields redacted by {@link redactFields} before it is written.
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
  if (isBrowserPino()) {
    return pino({
      ...base,
      browser: { asObject: true, write: (entry: object) => console.log(JSON.stringify(redactFields(entry))) },
    });
  }
  if ((options.format ?? defaultLogFormat()) === 'json') return pino(base);
  return pino(
    base,
    PinoPretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
  );
}

/** True where the bundler chose pino's browser build (it has no `destination`): Cloudflare Workers bundles. */
function isBrowserPino(): boolean {
  return typeof (pino as unknown as { destination?: unknown }).destination !== 'function';
}

/** Fields whose values are never logged, at any of the first three levels. */
const REDACTED_FIELDS = ['secret', 'apiSecret', 'order_token', 'token_hash', 'card_number', 'idempotency_key'];

/** Request headers whose values are never logged (lowercase). */
function redactedHeaders(headerPrefix: string): string[] {
  const names = headerNames(headerPrefix);
  return [
    'authorization',
    'cookie',
    'set-cookie',
    'idempotency-key',
    'x-order-token',
    names.signature.toLowerCase(),
    names.nonce.toLowerCase(),
  ];
}

/**
 * A log entry with the values of {@link redactPaths}' fields and headers replaced by `[redacted]` (a copy; the
 * entry is not changed): what pino's `redact` does, for pino's browser build, which has none.
 */
export function redactFields(entry: object, headerPrefix: string = DEFAULT_HEADER_PREFIX): object {
  const fields = new Set(REDACTED_FIELDS);
  const headers = new Set(redactedHeaders(headerPrefix));
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value !== 'object' || value === null || depth > 3) return value;
    if (Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (fields.has(key)) out[key] = '[redacted]';
      else if (key === 'headers' && typeof v === 'object' && v !== null && !Array.isArray(v))
        out[key] = Object.fromEntries(
          Object.entries(v).map(([h, hv]) => [h, headers.has(h.toLowerCase()) ? '[redacted]' : hv]),
        );
      else out[key] = walk(v, depth + 1);
    }
    return out;
  };
  return walk(entry, 0) as object;
}

/** Paths pino replaces with `[redacted]` (one and two levels deep, and in request headers). */
export function redactPaths(headerPrefix: string = DEFAULT_HEADER_PREFIX): string[] {
  const headers = redactedHeaders(headerPrefix);
  const fields = REDACTED_FIELDS;
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
    const fields: Record<string, unknown> = { name: error.name, message: redactText(error.message) };
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') fields.code = code;
    return { error: fields };
  }
  return { error: redactText(String(error)) };
}

/**
 * What is never written to a log even inside free text (an upstream error message, a cause): HMAC signatures
 * (`v1=<hex>`), API secrets (`sk_…`), webhook secrets (`whsec_…`), bearer tokens and long hex or base64url runs
 * (digests, tokens). Upstream text is the marketplace's, so it may echo what it was sent.
 */
const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bv1=[0-9a-fA-F]{8,}/g, 'v1=[redacted]'],
  [/\bsk_(?:test|live)_[A-Za-z0-9]+/g, 'sk_[redacted]'],
  [/\bwhsec_[A-Za-z0-9_-]+/g, 'whsec_[redacted]'],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]'],
  [/\b[0-9a-fA-F]{40,}\b/g, '[redacted]'],
  [/\b[A-Za-z0-9_-]{43,}\b/g, '[redacted]'],
  // A URL's userinfo (`https://user:password@host`): a password, or a token used as a user name.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, '$1[redacted]@'],
];

/** Free text with secrets and signatures replaced by `[redacted]` (see {@link SECRET_PATTERNS}). */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A value with every string in it passed through {@link redactText} (plain objects and arrays, 4 levels). */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 4 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, depth + 1)]));
}
