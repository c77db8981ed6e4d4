/**
 * The console's one transport to the partner's BFF: it mints a short-lived console session token
 * (`POST {api}/console/session`, answered only to a person the partner's `authorize(request)` hook lets in; the
 * cookie of the partner's own sign-in travels with it) and sends it as `Authorization: Bearer` on every console
 * call. One session per BFF address is shared by every element of the page. A 401 on a call mints a new token once
 * (it may have expired) and retries; a second refusal is a {@link ConsoleApiError} with `status` 401. Writes carry
 * an `Idempotency-Key`, one per logical write, reused when the same write is retried. The reads of
 * {@link ConsoleSession.revalidating} (a person's Refresh) send `Cache-Control: no-cache`, so the BFF reads the
 * marketplace again instead of answering its shared cached copy (within its reporting budget).
 */

/** A call to the BFF failed: `code` is the BFF's `error.code` or a local one (`network_error`, `invalid_response`). */
export class ConsoleApiError extends Error {
  /** The BFF's `error.code`, or `network_error`, `invalid_response`, `http_<status>`. */
  readonly code: string;
  /** HTTP status; 0 when the BFF was not reached. */
  readonly status: number;
  /** The marketplace's own words when it refused a write (the BFF's `error.detail`), if any. */
  readonly detail: string | undefined;
  constructor(code: string, status: number, message: string, detail?: string) {
    super(message);
    this.name = 'ConsoleApiError';
    this.code = code;
    this.status = status;
    this.detail = detail;
  }
  /** Whether the session was refused (not signed in, expired, or not allowed): the person must sign in again. */
  get unauthorized(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** A query: undefined and empty values are left out. */
export type Query = Readonly<Record<string, string | number | undefined | null>>;

interface Token {
  readonly value: string;
  /** Milliseconds since the epoch; renewed 30 seconds before. */
  readonly expiresAt: number;
}

/** Margin before `expires_at` at which a token is renewed, in milliseconds. */
const RENEW_BEFORE_MS = 30_000;

/** A console session against one BFF address. Get it with {@link consoleSession}. */
export class ConsoleSession {
  /** The BFF's mount (e.g. `/dk`), without a trailing slash. */
  readonly api: string;
  /** Whether reads ask the BFF for what the marketplace has now (`Cache-Control: no-cache`), not its cached copy. */
  readonly revalidates: boolean;
  #token: Promise<Token> | undefined;
  /** The session whose token this one uses (set on the {@link revalidating} twin). */
  readonly #owner: ConsoleSession | undefined;
  #twin: ConsoleSession | undefined;

  constructor(api: string, owner?: ConsoleSession) {
    this.api = api.replace(/\/+$/, '');
    this.#owner = owner;
    this.revalidates = owner !== undefined;
  }

  /** This session (same token) with reads that ask the BFF to read the marketplace again: a person's Refresh. */
  revalidating(): ConsoleSession {
    if (this.#owner !== undefined) return this;
    this.#twin ??= new ConsoleSession(this.api, this);
    return this.#twin;
  }

  /** The current token, minted when there is none or it is about to expire. */
  async token(): Promise<string> {
    if (this.#owner !== undefined) return this.#owner.token();
    const current = this.#token ? await this.#token.catch(() => undefined) : undefined;
    if (current && current.expiresAt - RENEW_BEFORE_MS > Date.now()) return current.value;
    this.#token = this.#mint();
    this.#token.catch(() => {
      this.#token = undefined;
    });
    return (await this.#token).value;
  }

  /** Forgets the token (the next call mints one). */
  reset(): void {
    if (this.#owner !== undefined) this.#owner.reset();
    else this.#token = undefined;
  }

  async #mint(): Promise<Token> {
    const response = await send(`${this.api}/console/session`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    const body = (await readJson(response)) as { token?: unknown; expires_at?: unknown; expires_in?: unknown };
    if (typeof body.token !== 'string') throw new ConsoleApiError('invalid_response', response.status, 'no token');
    const expiresAt =
      typeof body.expires_at === 'string'
        ? Date.parse(body.expires_at)
        : Date.now() + (typeof body.expires_in === 'number' ? body.expires_in * 1000 : 5 * 60_000);
    return { value: body.token, expiresAt: Number.isNaN(expiresAt) ? Date.now() + 60_000 : expiresAt };
  }

  /** `GET {api}/console{path}` with the query; resolves with the parsed JSON. @throws ConsoleApiError */
  get<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
    return this.#call<T>('GET', `${path}${queryString(query)}`, undefined, undefined, signal);
  }

  /** `GET {api}/console{path}` as text (a CSV export). @throws ConsoleApiError */
  async text(path: string, query: Query = {}): Promise<string> {
    const response = await this.#authorized('GET', `${path}${queryString(query)}`, undefined, undefined, 'text/csv');
    return response.text();
  }

  /**
   * `POST {api}/console{path}` with a JSON body and `Idempotency-Key: idempotencyKey` (one key per logical write;
   * pass the same key to retry the same write). @throws ConsoleApiError
   */
  post<T>(path: string, body: unknown, idempotencyKey: string): Promise<T> {
    return this.#call<T>('POST', path, body, idempotencyKey);
  }

  async #call<T>(method: string, path: string, body?: unknown, key?: string, signal?: AbortSignal): Promise<T> {
    const response = await this.#authorized(method, path, body, key, 'application/json', signal);
    return (await readJson(response)) as T;
  }

  async #authorized(
    method: string,
    path: string,
    body: unknown,
    key: string | undefined,
    accept: string,
    signal?: AbortSignal,
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.token();
      const headers: Record<string, string> = { accept, authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (key) headers['idempotency-key'] = key;
      if (method === 'GET' && this.revalidates) headers['cache-control'] = 'no-cache';
      const response = await send(`${this.api}/console${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
      // An expired token: mint a new one once, then give up (the session itself is refused).
      if (response.status === 401 && attempt === 0) {
        this.reset();
        continue;
      }
      if (!response.ok) await readJson(response);
      return response;
    }
  }
}

const sessions = new Map<string, ConsoleSession>();

/** The page's session for the BFF at `api` (shared by every console element naming the same address). */
export function consoleSession(api: string): ConsoleSession {
  const key = api.replace(/\/+$/, '');
  let session = sessions.get(key);
  if (!session) {
    session = new ConsoleSession(key);
    sessions.set(key, session);
  }
  return session;
}

/** `?a=1&b=2` from the defined, non-empty values of `query`; `''` when none. */
export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ConsoleApiError('network_error', 0, 'the server could not be reached');
  }
}

/** The JSON of a response; a non-2xx answer becomes a {@link ConsoleApiError} with the BFF's code and message. */
async function readJson(response: Response): Promise<unknown> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConsoleApiError(
      response.ok ? 'invalid_response' : `http_${response.status}`,
      response.status,
      response.ok ? 'the answer was not JSON' : `HTTP ${response.status}`,
    );
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown; detail?: unknown } } | null)?.error;
    throw new ConsoleApiError(
      typeof error?.code === 'string' ? error.code : `http_${response.status}`,
      response.status,
      typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`,
      typeof error?.detail === 'string' ? error.detail : undefined,
    );
  }
  return body;
}

/** A fresh idempotency key (UUID v4). */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}
