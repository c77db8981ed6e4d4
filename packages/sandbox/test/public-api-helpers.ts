/**
 * Helpers of the Public API, OAuth and MCP tests: a recording HTTP client (every Public API answer of a test file
 * is later checked against the served `openapi.json`), the consent page driven with plain form posts, PKCE values,
 * and a complete sign-in for tests that only need a token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { TestSandbox } from './helpers.ts';

/** One HTTP answer, read fully. */
export interface PublicAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  readonly json: any;
}

/** What a test sends. */
export interface PublicRequest {
  readonly method?: string;
  /** Path with its query string. */
  readonly path: string;
  readonly json?: unknown;
  readonly form?: Record<string, string>;
  readonly token?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** One recorded exchange. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  readonly json: unknown;
}

const recordings = new WeakMap<TestSandbox, Recorded[]>();

/** Every answer recorded for a sandbox. */
export function recorded(t: TestSandbox): Recorded[] {
  let list = recordings.get(t);
  if (list === undefined) {
    list = [];
    recordings.set(t, list);
  }
  return list;
}

/** Sends a request to the sandbox and records the answer. */
export async function call(t: TestSandbox, request: PublicRequest): Promise<PublicAnswer> {
  const method =
    request.method ??
    (request.json !== undefined || request.form !== undefined || request.body !== undefined ? 'POST' : 'GET');
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined = request.body;
  if (request.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(request.json);
  }
  if (request.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  const res = await fetch(`${t.sandbox.url}${request.path}`, {
    method,
    headers,
    body: body ?? null,
    redirect: 'manual',
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  recorded(t).push({
    method,
    path: request.path,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    json,
  });
  t.responses.push(text, [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'));
  return { status: res.status, headers: res.headers, text, json };
}

// ------------------------------------------------------------------------------------------------ OpenAPI check

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
type Json = Record<string, any>;

function templateRegex(template: string): RegExp {
  return new RegExp(
    `^${template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[^}]+\}/g, '[^/]+')}$`,
  );
}

/**
 * Checks recorded answers against an OpenAPI document: every answer of a documented path must be a documented
 * status whose JSON body validates against the documented schema (ajv, JSON Schema 2020-12).
 * @returns the problems found (empty when everything conforms) and how many answers were checked.
 */
export function checkAgainstOpenApi(doc: Json, answers: readonly Recorded[]): { problems: string[]; checked: number } {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);
  const templates = Object.keys(doc.paths as Json).map((t) => ({ template: t, re: templateRegex(t) }));
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
  const problems: string[] = [];
  let checked = 0;
  for (const answer of answers) {
    const path = answer.path.split('?')[0]!;
    const match = templates.find((t) => t.re.test(path));
    if (match === undefined) continue; // not part of the Public API (HTML pages, MCP, ...)
    const operation = (doc.paths as Json)[match.template][answer.method.toLowerCase()];
    if (operation === undefined) {
      if (answer.status === 404 || answer.status === 405) continue;
      problems.push(`${answer.method} ${path}: method not documented`);
      continue;
    }
    const documented = operation.responses[String(answer.status)];
    if (documented === undefined) {
      problems.push(`${answer.method} ${path}: status ${answer.status} not documented`);
      continue;
    }
    checked++;
    const schema = documented.content?.['application/json']?.schema;
    if (schema === undefined) continue;
    if (!answer.contentType.startsWith('application/json')) {
      problems.push(
        `${answer.method} ${path} ${answer.status}: content type ${answer.contentType}, documented application/json`,
      );
      continue;
    }
    const key = `${match.template} ${answer.method} ${answer.status}`;
    let validate = validators.get(key);
    if (validate === undefined) {
      validate = ajv.compile({ ...schema, components: doc.components });
      validators.set(key, validate);
    }
    if (!validate(answer.json))
      problems.push(`${answer.method} ${path} ${answer.status}: ${ajv.errorsText(validate.errors)}`);
  }
  return { problems, checked };
}

/** Fetches the sandbox's OpenAPI document and checks every answer recorded in this test file against it. */
export async function checkRecordedAnswers(t: TestSandbox): Promise<{ problems: string[]; checked: number }> {
  const res = await fetch(`${t.sandbox.url}/openapi.json`);
  const doc = (await res.json()) as Json;
  return checkAgainstOpenApi(doc, recorded(t));
}

// -------------------------------------------------------------------------------------------------------- OAuth

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The hidden inputs and action of the consent form in a page. */
export function readConsentForm(html: string): Record<string, string> {
  const form = /<form[^>]*data-testid="consent-form"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (form === null) throw new Error(`no consent form in the page:\n${html.slice(0, 2000)}`);
  const fields: Record<string, string> = {};
  for (const m of form[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return fields;
}

/** The outcome of driving the consent page. */
export interface ConsentOutcome {
  /** Status of the GET of the authorization URL. */
  readonly pageStatus: number;
  /** Status of the form post (303 on success or denial). */
  readonly status: number;
  /** Where the browser is sent (the client's redirect URI with `code` or `error`), if anywhere. */
  readonly location: URL | undefined;
  readonly html: string;
}

/**
 * Opens an authorization URL as a browser would and answers the consent page with a plain form post.
 * @param credentials - the email and password typed in; `decision` `allow` (default) or `deny`.
 */
export async function driveConsent(
  authorizationUrl: string | URL,
  credentials: { email: string; password: string; decision?: 'allow' | 'deny' },
): Promise<ConsentOutcome> {
  const url = new URL(authorizationUrl);
  const page = await fetch(url, { redirect: 'manual' });
  const pageHtml = await page.text();
  if (page.status !== 200) {
    const location = page.headers.get('location');
    return {
      pageStatus: page.status,
      status: page.status,
      location: location ? new URL(location) : undefined,
      html: pageHtml,
    };
  }
  const fields = readConsentForm(pageHtml);
  const action = new URL('authorize', url);
  const res = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...fields,
      email: credentials.email,
      password: credentials.password,
      decision: credentials.decision ?? 'allow',
    }).toString(),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  return {
    pageStatus: page.status,
    status: res.status,
    location: location ? new URL(location) : undefined,
    html: await res.text(),
  };
}

/** A registered public client. */
export interface TestOAuthClient {
  readonly client_id: string;
  readonly redirect_uri: string;
}

/** Registers a public client with one loopback redirect URI. */
export async function registerTestClient(
  t: TestSandbox,
  options: { scope?: string; redirectUri?: string; name?: string } = {},
): Promise<TestOAuthClient> {
  const redirect_uri = options.redirectUri ?? 'http://127.0.0.1:9/callback';
  const answer = await call(t, {
    path: '/api/oauth/register',
    json: {
      client_name: options.name ?? 'Test client',
      redirect_uris: [redirect_uri],
      ...(options.scope ? { scope: options.scope } : {}),
    },
  });
  if (answer.status !== 201) throw new Error(`registration failed: ${answer.status} ${answer.text}`);
  return { client_id: answer.json.client_id as string, redirect_uri };
}

/** The authorization URL of a client. */
export function authorizationUrl(
  t: TestSandbox,
  client: TestOAuthClient,
  params: Record<string, string | undefined>,
): URL {
  const url = new URL(`${t.sandbox.url}/oauth/authorize`);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/** Tokens as the token endpoint answers them. */
export interface TestTokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly scope: string;
  readonly expires_in: number;
}

/** Exchanges a code at the token endpoint (raw form post). */
export async function exchangeCode(
  t: TestSandbox,
  client: TestOAuthClient,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
): Promise<PublicAnswer> {
  return call(t, {
    path: '/api/oauth/token',
    form: {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: client.redirect_uri,
      ...extra,
    },
  });
}

/** Refreshes at the token endpoint (raw form post). */
export async function refresh(
  t: TestSandbox,
  client: TestOAuthClient,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<PublicAnswer> {
  return call(t, {
    path: '/api/oauth/token',
    form: { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: refreshToken, ...extra },
  });
}

/** Gets an authorization code for a user (consent page driven by form posts). */
export async function authorize(
  t: TestSandbox,
  client: TestOAuthClient,
  user: { email: string; password: string },
  scope?: string,
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const outcome = await driveConsent(
    authorizationUrl(t, client, { code_challenge: challenge, state: 'st', scope }),
    user,
  );
  const code = outcome.location?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${outcome.status} ${outcome.location?.href ?? outcome.html.slice(0, 500)}`);
  return { code, verifier };
}

/** A complete sign-in: registration, consent, code exchange. */
export async function signIn(
  t: TestSandbox,
  user: { email: string; password: string },
  scope?: string,
): Promise<{ client: TestOAuthClient; tokens: TestTokens }> {
  const client = await registerTestClient(t);
  const { code, verifier } = await authorize(t, client, user, scope);
  const answer = await exchangeCode(t, client, code, verifier);
  if (answer.status !== 200) throw new Error(`token exchange failed: ${answer.status} ${answer.text}`);
  return { client, tokens: answer.json as TestTokens };
}
