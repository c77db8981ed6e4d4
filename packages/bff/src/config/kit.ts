/**
 * The shared kit of the BFF's options, used by every feature's `options.ts` and by the top-level `options.ts` and
 * `env.ts` that compose them: the error raised for bad options, the checks several options share (URLs, origins,
 * seconds, budgets), "did you mean" for mistyped names, and the reader of environment variables. Messages teach
 * (helmet's habit) and never carry a secret's value.
 */
import { z } from 'zod';

/** Raised by {@link createBff} and `startBff` for bad options; `problems` holds one line per problem. */
export class BffOptionsError extends TypeError {
  /** Stable code. */
  readonly code = 'invalid_bff_options';
  /** One sentence per problem, each naming the option and what to fix. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[], where = 'createBff') {
    super(`${where}: invalid options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'BffOptionsError';
    this.problems = problems;
  }
}

/** Whether a value is a function (handlers, adapters, clocks). */
export const isFunction = (v: unknown) => typeof v === 'function';

/** `error` of a required string: says it is required when absent, else that it must be a string. */
export const required = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`;

/** Checks an absolute http(s) URL. */
export const httpUrl = z
  .string({ error: 'must be an absolute http(s) URL such as "https://shop.example/thanks"' })
  .refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'must be an absolute http(s) URL such as "https://shop.example/thanks"',
  );

/**
 * Checks a service address: http(s), without a user name or password (the Partner API authenticates by signature,
 * and fetch refuses a URL carrying credentials), not ending in the API path the client adds.
 */
export const serviceUrl = z
  .string({ error: required('the marketplace\'s service address, such as "https://marketplace.example"') })
  .refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'must be an absolute http(s) URL such as "https://marketplace.example"',
  )
  .refine(
    (v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''),
    'must not carry a user name or password ("user:password@"): the key id and secret sign each request; remove them from the URL',
  )
  .refine(
    (v) => !/\/api\/partner(\/v1)?\/?$/.test(v),
    'is the service address only: drop the trailing "/api/partner/v1" (the client adds it)',
  );

/**
 * An origin as browsers send it in the `Origin` header: scheme, host and optional port, nothing else.
 * The message suggests the fix for the usual slips (a trailing slash or a path).
 */
export const originSchema = z.string().superRefine((v, ctx) => {
  if (v.includes('*')) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an exact origin: wildcards are not allowed, list each origin (such as "https://shop.example")',
    });
    return;
  }
  if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be an origin such as "https://shop.example"; received ${JSON.stringify(v)}`,
    });
    return;
  }
  const origin = new URL(v).origin;
  if (origin !== v)
    ctx.addIssue({
      code: 'custom',
      message: `must be an origin only (scheme, host, port); received ${JSON.stringify(v)}, did you mean ${JSON.stringify(origin)}?`,
    });
});

/** A number of seconds, 0 or more; `what` says what it is for. */
export const seconds = (what: string) =>
  z.number({ error: `must be a number of seconds (${what})` }).nonnegative('must be 0 or more seconds');
/** A whole number of requests per minute, at least 1. */
export const perMinute = z
  .number({ error: 'must be a number of requests per minute' })
  .int('must be a whole number of requests per minute')
  .positive('must be at least 1 per minute');
/** A token bucket of Partner API spec 8: `perMinute`, and a `burst` below it. */
export const bucketSchema = z
  .strictObject({ perMinute, burst: z.number().int().positive('must be at least 1') })
  .refine(
    (b) => b.burst < b.perMinute,
    'burst must be less than perMinute (burst + refill over a minute must stay within the limit)',
  );

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length]!;
}

/** The name the caller probably meant, or `undefined`. */
export function didYouMean(
  key: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  if (Object.hasOwn(aliases, key)) return aliases[key];
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(1, Math.floor(key.length / 4)) ? best : undefined;
}

/** Whether `hostname` (as `URL` gives it) is the local machine: `localhost`, 127.0.0.0/8 or `[::1]`. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Why the marketplace address `baseUrl` is refused under `nodeEnv`, or `undefined`: with NODE_ENV=production it must
 * be `https://` (the signed requests, and the webhook secret sent at start, would cross the network in clear), except
 * to a loopback address (a marketplace or TLS proxy on the same machine).
 */
export function plainHttpServiceUrlProblem(baseUrl: unknown, nodeEnv: string | undefined): string | undefined {
  if (nodeEnv !== 'production' || typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) return undefined;
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
  return 'must be https:// when NODE_ENV is "production": over plain http the signed requests and the webhook secret cross the network in clear (http:// is accepted only to a loopback address)';
}

/** One problem of the environment: the variable and what is wrong with it. */
export interface EnvProblem {
  readonly variable: string;
  readonly problem: string;
}

/** One environment variable the BFF reads. */
export interface EnvVariable {
  readonly name: string;
  readonly required: boolean;
  /** What to put there. */
  readonly description: string;
}

/** Reads trimmed environment variables (an empty one counts as unset) and collects the problems found. */
export interface EnvReader {
  /** The trimmed value, or `undefined` when unset or empty. */
  get(name: string): string | undefined;
  /** `true`/`false`, or `undefined` when unset; anything else is a problem. */
  bool(name: string): boolean | undefined;
  /** A whole number of at least `min`, or `undefined` when unset; anything else is a problem. */
  int(name: string, min: number): number | undefined;
  /** Records a problem of `variable`. */
  problem(variable: string, problem: string): void;
  /** The environment read (for `NODE_ENV`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Every problem recorded so far, in order (a caller may push its own). */
  readonly problems: EnvProblem[];
}

/** An {@link EnvReader} over `env`. */
export function envReader(env: Readonly<Record<string, string | undefined>>): EnvReader {
  const problems: EnvProblem[] = [];
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const problem = (variable: string, text: string) => {
    problems.push({ variable, problem: text });
  };
  return {
    env,
    problems,
    get,
    problem,
    bool(name) {
      const raw = get(name);
      if (raw === undefined) return undefined;
      if (raw !== 'true' && raw !== 'false') {
        problem(name, `must be true or false; received ${JSON.stringify(raw)}`);
        return undefined;
      }
      return raw === 'true';
    },
    int(name, min) {
      const raw = get(name);
      if (raw === undefined) return undefined;
      if (!/^\d+$/.test(raw) || Number(raw) < min) {
        problem(name, `must be a whole number of at least ${min}; received ${JSON.stringify(raw)}`);
        return undefined;
      }
      return Number(raw);
    },
  };
}

/** The first message of `schema` for `value`, or `undefined` when it passes. */
export function firstMessage(schema: z.ZodType, value: string): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
