/**
 * zod at the trust boundary: every query, path segment and body the browser sends is parsed here, and a failure
 * becomes a 400 `validation_error` whose message names the field and says what to fix.
 */
import { findTextViolation } from '@domainkit/protocol';
import { z } from 'zod';
import { BffHttpError } from './errors.ts';

/** A query that must be empty (routes that take no query parameters). */
export const noQuerySchema = z.strictObject({});

/** Where an input comes from, for messages. */
export type InputSource = 'query' | 'path' | 'body' | 'header';

/** How a field is described to the caller. */
export interface FieldHelp {
  /** How the message names the field: "`q`", "The domain in the path". */
  readonly label: string;
  /** What a good value is: "a word or a domain to search for, 1–100 characters". */
  readonly hint: string;
  /** A good value. */
  readonly example: string;
  /** Left out of the example body of the "must be a JSON object" message. */
  readonly optional?: boolean;
  /**
   * The code answered when this field is the only problem and it is over its maximum length (`max_length` then
   * says the maximum), such as `query_too_long` for `q`; default `validation_error`.
   */
  readonly tooLong?: 'query_too_long';
}

/** How the visitor search routes (`GET /search`, `GET /siblings`) describe their `q`. */
export const SEARCH_QUERY_HELP: Readonly<Record<'q', FieldHelp>> = {
  q: {
    label: '`q`',
    hint: 'a word or a domain to search for, 1–100 characters',
    example: 'coffee',
    tooLong: 'query_too_long',
  },
};

const NOUN: Record<InputSource, string> = {
  query: 'query parameter',
  path: 'path segment',
  body: 'field',
  header: 'header',
};

function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  source: InputSource,
  help: Readonly<Record<string, FieldHelp>>,
): string {
  const allowed = Object.keys(help);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `\`${k}\``).join(', ');
    const accepted =
      allowed.length === 0
        ? `this endpoint takes no ${NOUN[source]}s`
        : `only ${allowed.map((k) => `\`${k}\``).join(', ')} ${allowed.length > 1 ? 'are' : 'is'} accepted`;
    return `Unknown ${NOUN[source]}${issue.keys.length > 1 ? 's' : ''} ${keys}${source === 'body' ? ' in the body' : ''}: ${accepted}.`;
  }
  const field = issue.path[0];
  if (field === undefined) {
    if (source !== 'body') return 'The request is malformed.';
    return `The body must be a JSON object such as ${JSON.stringify(
      Object.fromEntries(
        Object.entries(help)
          .filter(([, h]) => !h.optional)
          .map(([k, h]) => [k, h.example]),
      ),
    )}.`;
  }
  const name = String(field);
  if (issue.path.length > 1 && issue.code === 'custom') {
    // A nested field (`buyer.name`): name it whole, with the schema's own message.
    return `\`${issue.path.map(String).join('.')}\` ${issue.message.replace(/^\S+ (?=must )/, '')}.`;
  }
  const h = help[name] ?? { label: `\`${name}\``, hint: 'a value', example: '' };
  const example = h.example ? ` such as ${JSON.stringify(h.example)}` : '';
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  if (value === undefined) return `${h.label} is required: ${h.hint}${example}.`;
  if (source === 'query' && Array.isArray(value))
    return `${h.label} must be given once; received it ${value.length} times.`;
  if (issue.code === 'invalid_type') return `${h.label} must be a ${issue.expected}: ${h.hint}${example}.`;
  if (issue.code === 'too_small' && typeof value === 'string') return `${h.label} is empty: give ${h.hint}${example}.`;
  if (issue.code === 'too_big' && typeof value === 'string') {
    return `${h.label} is too long: at most ${String(issue.maximum)} characters (received ${value.trim().length}).`;
  }
  // Schema messages read "must be …" (protocol's domainNameSchema) or "q must be …": name the field our way.
  return `${h.label} ${issue.message.replace(/^\S+ (?=must )/, '')}.`;
}

/**
 * Parses one input with its schema.
 * @param help - the accepted keys with how to describe them (also named in the message about unknown keys).
 * @throws {BffHttpError} 400 `validation_error` whose message names each offending field and the fix; the
 *   field's {@link FieldHelp.tooLong} code instead when the only problem is that field's length.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  source: InputSource,
  help: Readonly<Record<string, FieldHelp>> = {},
): z.output<S> {
  // The input policy first (protocol input-policy.ts): no NUL, control character or unpaired surrogate anywhere.
  // A query's tab or line break counts as a space (the search query collapses whitespace).
  const violation = findTextViolation(input, '', { multiline: source === 'query' });
  if (violation !== undefined) {
    const where = source === 'body' ? violation.field : `The ${NOUN[source]} \`${violation.field}\``;
    throw new BffHttpError(
      'validation_error',
      `${source === 'body' ? `\`${where}\`` : where} ${violation.problem}: remove it and send the request again.`,
    );
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { issues } = result.error;
  const messages = [...new Set(issues.map((issue) => describeIssue(issue, input, source, help)))];
  const [first] = issues;
  const tooLong = first?.code === 'too_big' ? help[String(first.path[0])]?.tooLong : undefined;
  if (tooLong !== undefined && issues.length === 1 && first?.code === 'too_big')
    throw new BffHttpError(tooLong, messages.join(' '), { extra: { max_length: Number(first.maximum) } });
  throw new BffHttpError('validation_error', messages.join(' '));
}
