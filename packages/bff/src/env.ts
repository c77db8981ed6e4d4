/**
 * Configuration of the standalone BFF from environment variables, checked at start: one error names every
 * missing or invalid variable (and never echoes the secret).
 *
 * | variable | required | meaning |
 * |---|---|---|
 * | DOMAINKIT_API_BASE_URL | yes | marketplace service address (`https://…`; the client adds `/api/partner/v1`) |
 * | DOMAINKIT_KEY_ID | yes | Partner API key id (`pk_…`) |
 * | DOMAINKIT_API_SECRET | yes | Partner API secret (`sk_…`) |
 * | DOMAINKIT_HEADER_PREFIX | no | signing header prefix, default `X-Service-` |
 * | DOMAINKIT_ALLOWED_ORIGINS | no | comma-separated origins allowed by CORS (exact match) |
 * | DOMAINKIT_RETURN_URL | no | checkout return URL |
 * | DOMAINKIT_CANCEL_URL | no | checkout cancel URL |
 * | PORT | no | default 8787 |
 * | HOST | no | default 127.0.0.1 |
 */
import type { z } from 'zod';
import { httpUrl, originSchema, serviceUrl } from './options.ts';
import { DEFAULT_HOST, DEFAULT_PORT, type BffServerOptions } from './server.ts';

/** One environment variable the BFF reads. */
export interface EnvVariable {
  readonly name: string;
  readonly required: boolean;
  /** What to put there. */
  readonly description: string;
}

/** The variables, in the order the README documents them. */
export const BFF_ENV_VARIABLES: readonly EnvVariable[] = [
  { name: 'DOMAINKIT_API_BASE_URL', required: true, description: 'the marketplace service address, such as https://marketplace.example (without /api/partner/v1)' },
  { name: 'DOMAINKIT_KEY_ID', required: true, description: 'the public key id of your Partner API credential (pk_…)' },
  { name: 'DOMAINKIT_API_SECRET', required: true, description: 'the API secret of your Partner API credential (sk_…)' },
  { name: 'DOMAINKIT_HEADER_PREFIX', required: false, description: 'the signing header prefix, default X-Service-' },
  { name: 'DOMAINKIT_ALLOWED_ORIGINS', required: false, description: 'comma-separated origins allowed to call the BFF from a browser, such as https://shop.example' },
  { name: 'DOMAINKIT_RETURN_URL', required: false, description: 'where the hosted checkout returns the buyer after paying' },
  { name: 'DOMAINKIT_CANCEL_URL', required: false, description: 'where the hosted checkout returns the buyer after cancelling' },
  { name: 'PORT', required: false, description: `the TCP port, default ${DEFAULT_PORT}` },
  { name: 'HOST', required: false, description: `the interface to bind, default ${DEFAULT_HOST}` },
];

/** Raised by {@link loadBffConfigFromEnv}; `problems` has one entry per variable. */
export class BffConfigError extends Error {
  /** Stable code. */
  readonly code = 'invalid_bff_environment';
  /** Each offending variable with what is wrong. */
  readonly problems: ReadonlyArray<{ readonly variable: string; readonly problem: string }>;

  constructor(problems: ReadonlyArray<{ variable: string; problem: string }>) {
    super(`The BFF's environment is not valid:\n${problems.map((p) => `  - ${p.variable} ${p.problem}`).join('\n')}\nSee the environment table in the @domainkit/bff README.`);
    this.name = 'BffConfigError';
    this.problems = problems;
  }
}

function firstMessage(schema: z.ZodType, value: string): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/**
 * Reads the standalone BFF's configuration from environment variables (table above).
 *
 * @param env - default `process.env`.
 * @returns options for `startBff`.
 * @throws {BffConfigError} naming every missing or invalid variable at once.
 */
export function loadBffConfigFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): BffServerOptions {
  const problems: Array<{ variable: string; problem: string }> = [];
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const required = (name: string): string | undefined => {
    const value = get(name);
    if (value === undefined) {
      const { description } = BFF_ENV_VARIABLES.find((v) => v.name === name)!;
      problems.push({ variable: name, problem: `is missing: set it to ${description}` });
    }
    return value;
  };

  const baseUrl = required('DOMAINKIT_API_BASE_URL');
  if (baseUrl !== undefined) {
    const message = firstMessage(serviceUrl, baseUrl);
    if (message) problems.push({ variable: 'DOMAINKIT_API_BASE_URL', problem: `${message}; received ${JSON.stringify(baseUrl)}` });
  }
  const keyId = required('DOMAINKIT_KEY_ID');
  const secret = required('DOMAINKIT_API_SECRET');
  if (secret !== undefined && secret.startsWith('pk_')) {
    problems.push({ variable: 'DOMAINKIT_API_SECRET', problem: 'looks like a key id (pk_…): put the sk_… API secret here and the pk_… value in DOMAINKIT_KEY_ID' });
  }
  const headerPrefix = get('DOMAINKIT_HEADER_PREFIX');
  if (headerPrefix !== undefined && !/^[A-Za-z][A-Za-z0-9-]*-$/.test(headerPrefix)) {
    problems.push({ variable: 'DOMAINKIT_HEADER_PREFIX', problem: `must be letters, digits and dashes ending in "-", such as "X-Service-"; received ${JSON.stringify(headerPrefix)}` });
  }
  const originsRaw = get('DOMAINKIT_ALLOWED_ORIGINS');
  const allowedOrigins = originsRaw?.split(',').map((o) => o.trim()).filter((o) => o !== '');
  for (const origin of allowedOrigins ?? []) {
    const message = firstMessage(originSchema, origin);
    if (message) problems.push({ variable: 'DOMAINKIT_ALLOWED_ORIGINS', problem: `entry ${JSON.stringify(origin)} ${message}` });
  }
  const urls: Record<string, string | undefined> = {};
  for (const name of ['DOMAINKIT_RETURN_URL', 'DOMAINKIT_CANCEL_URL']) {
    const value = get(name);
    const message = value === undefined ? undefined : firstMessage(httpUrl, value);
    if (message) problems.push({ variable: name, problem: `${message}; received ${JSON.stringify(value)}` });
    urls[name] = value;
  }
  const portRaw = get('PORT');
  const port = portRaw === undefined ? DEFAULT_PORT : Number(portRaw);
  if (portRaw !== undefined && !(/^\d+$/.test(portRaw) && port <= 65535)) {
    problems.push({ variable: 'PORT', problem: `must be an integer from 0 to 65535; received ${JSON.stringify(portRaw)}` });
  }
  const host = get('HOST') ?? DEFAULT_HOST;

  if (problems.length > 0) throw new BffConfigError(problems);
  return {
    marketplace: { baseUrl: baseUrl!, keyId: keyId!, secret: secret!, ...(headerPrefix !== undefined && { headerPrefix }) },
    ...(allowedOrigins !== undefined && { allowedOrigins }),
    ...(urls.DOMAINKIT_RETURN_URL !== undefined && { returnUrl: urls.DOMAINKIT_RETURN_URL }),
    ...(urls.DOMAINKIT_CANCEL_URL !== undefined && { cancelUrl: urls.DOMAINKIT_CANCEL_URL }),
    port,
    host,
  };
}
