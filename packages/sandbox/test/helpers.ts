/**
 * Test helpers: a sandbox per test file on port 0 with a temporary data folder, a movable clock, a log capture,
 * and a signed HTTP client built on the protocol's signer (never on @domainkit/client: the two meet on the wire).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { canonicalQuery, createRequestSigner, type RequestSigner } from '@domainkit/protocol';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import {
  readDemoCredential,
  startSandbox,
  type DemoCredential,
  type RunningSandbox,
  type StartSandboxOptions,
} from '../src/index.ts';
import { freshPgliteDataDir } from '../../../test/setup/pglite-data-dir.ts';

/** Collects every JSON log line written through its logger. */
export class LogCapture {
  readonly lines: string[] = [];
  readonly logger = pino(
    { level: 'debug' },
    new Writable({
      write: (chunk: Buffer, _enc, done) => {
        this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    }),
  );

  text(): string {
    return this.lines.join('\n');
  }

  /** Parsed log entries. */
  entries(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

/** A clock tests can move forward. */
export class TestClock {
  offsetMs = 0;
  readonly now = (): number => Date.now() + this.offsetMs;

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}

export { freshPgliteDataDir };

/** A temporary data folder, removed by {@link removeDir}. */
export function tempDir(prefix = 'dk-sandbox-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Drops a PostgreSQL schema a test created (and everything in it). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A sandbox started for one test file. */
export interface TestSandbox {
  readonly sandbox: RunningSandbox;
  readonly dataDir: string;
  readonly logs: LogCapture;
  readonly clock: TestClock;
  /** Every response body received through {@link send} in this file. */
  readonly responses: string[];
  /** Closes the sandbox and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts a sandbox on 127.0.0.1:0 with a fresh data folder, embedded PGlite (never DATABASE_URL), a test clock and log
 * capture. A fresh folder starts with a copy of the run's empty PGlite cluster (`test/setup/pglite-cluster.ts`): the
 * sandbox still migrates and seeds it as on a first start.
 */
export async function startTestSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? (options.databaseUrl ? tempDir() : freshPgliteDataDir('dk-sandbox-'));
  const logs = new LogCapture();
  const clock = new TestClock();
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: '',
    logger: logs.logger,
    now: clock.now,
    ...options,
  });
  const responses: string[] = [];
  responsesBySandbox.set(sandbox, responses);
  return {
    sandbox,
    dataDir,
    logs,
    clock,
    responses,
    async stop() {
      await sandbox.close();
      if (options.dataDir === undefined) removeDir(dataDir);
    },
  };
}

/** Anything with a base URL to send requests to (a running sandbox, or an app the sandbox is mounted in). */
export interface Target {
  readonly url: string;
}

const responsesBySandbox = new WeakMap<Target, string[]>();

/** An HTTP answer, read fully. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The JSON body, or `undefined` when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  readonly json: any;
}

/** A request as a test builds it: the raw query string is sent exactly as given. */
export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  /** Raw query, without `?`, sent as is. */
  readonly query?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** Sends a request to the sandbox and reads the answer (recording the body for leak checks). */
export async function send(sandbox: Target, request: RawRequest): Promise<Answer> {
  const url = `${sandbox.url}${request.path}${request.query ? `?${request.query}` : ''}`;
  const res = await fetch(url, {
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    body: request.body ?? null,
    redirect: 'manual',
  });
  const text = await res.text();
  responsesBySandbox.get(sandbox)?.push(text, [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A credential to sign with. */
export interface TestCredential {
  readonly key_id: string;
  readonly secret: string;
}

/** A request to sign and send: query as pairs or a string (canonicalised, and sent in canonical form). */
export interface SignedRequest {
  readonly method?: string;
  readonly path: string;
  readonly query?: string | Record<string, string>;
  /** A JSON value (serialised once; those exact bytes are signed and sent) or a raw string. */
  readonly json?: unknown;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

/** A signing client for one credential, over `fetch`. */
export class PartnerTestClient {
  readonly signer: RequestSigner;
  readonly sandbox: Target;

  constructor(sandbox: Target, credential: TestCredential, now?: () => number) {
    this.sandbox = sandbox;
    this.signer = createRequestSigner({ keyId: credential.key_id, secret: credential.secret, ...(now ? { now } : {}) });
  }

  /** Signs and sends; also returns what was signed, to replay or tamper with. */
  async request(
    request: SignedRequest,
  ): Promise<Answer & { sent: { headers: Record<string, string>; query: string; body: string | undefined } }> {
    const method = request.method ?? 'GET';
    const body = request.json !== undefined ? JSON.stringify(request.json) : request.body;
    const signed = await this.signer.sign({
      method,
      path: request.path,
      query: canonicalQuery(request.query ?? ''),
      body: body ?? null,
    });
    const headers = {
      ...signed.headers,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
    };
    const answer = await send(this.sandbox, {
      method,
      path: request.path,
      query: signed.query,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    partnerAnswers.push({
      method,
      path: request.path,
      status: answer.status,
      json: answer.json,
      headers: Object.fromEntries(answer.headers),
    });
    return { ...answer, sent: { headers, query: signed.query, body } };
  }
}

/** A Partner API answer received by a {@link PartnerTestClient} in this test file. */
export interface RecordedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly json: unknown;
  /** Response headers by lowercase name. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Every signed Partner API answer of this test file, checked against the OpenAPI document (`openapi-check.ts`). */
export const partnerAnswers: RecordedAnswer[] = [];

/** Creates a credential through the admin API. */
export async function adminCreateCredential(
  sandbox: RunningSandbox,
  body: { scopes: string[]; environment: 'SANDBOX' | 'LIVE'; affiliate?: boolean },
): Promise<Answer> {
  return send(sandbox, {
    method: 'POST',
    path: '/admin/credentials',
    headers: { authorization: `Bearer ${sandbox.demo.admin_token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Submits the lander's card form (with a buyer's e-mail unless `fields` give one); a paid form answers 303. */
export async function pay(
  sandbox: Target,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return send(sandbox, {
    method: 'POST',
    path: '/checkout/pay',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({
      email: 'buyer@example.com',
      card_expiry: '12/34',
      card_cvc: '123',
      card_name: 'Test Buyer',
      ...fields,
    }).toString(),
  });
}

/** The `pt` token of a checkout URL. */
export function tokenOf(checkoutUrl: string): string {
  const pt = new URL(checkoutUrl).searchParams.get('pt');
  if (pt === null) throw new Error(`no pt in ${checkoutUrl}`);
  return pt;
}

/** The demo credential saved in each data folder. */
export function readCredentialFiles(dirs: readonly string[]): DemoCredential[] {
  return dirs.map((d) => readDemoCredential(d));
}

/** Calls the admin API with the sandbox's admin token. */
export async function admin(
  sandbox: Target & { demo: { admin_token: string } },
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  return send(sandbox, {
    method,
    path: `/admin${path}`,
    headers: {
      authorization: `Bearer ${sandbox.demo.admin_token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/**
 * Polls `probe` until it returns a value other than `undefined` (or `false`), then returns it.
 * @throws {Error} naming `what` when it has not happened within `timeoutMs` (a safety net, not an assertion on speed).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One webhook delivery as a receiver saw it. */
export interface ReceivedDelivery {
  readonly raw: string;
  readonly headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  readonly json: { id: string; type: string; created_at: string; partner_id: string; data: any };
  /** The status the receiver answered. */
  readonly answered: number;
}

/** A local webhook receiver on 127.0.0.1:0 that records every delivery and answers as `respond` says. */
export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  /** Decides the answer to each delivery, by order of arrival from 0 (default 200 at once). */
  respond: (delivery: Omit<ReceivedDelivery, 'answered'>, index: number) => { status: number; delayMs?: number } =
    () => ({ status: 200 });
  private server: import('node:http').Server | undefined;
  private arrivals = 0;
  url = '';

  async start(): Promise<this> {
    const { createServer } = await import('node:http');
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let json: ReceivedDelivery['json'];
        try {
          json = JSON.parse(raw) as ReceivedDelivery['json'];
        } catch {
          json = { id: '', type: '', created_at: '', partner_id: '', data: null };
        }
        const base = { raw, headers: req.headers, json };
        const { status, delayMs } = this.respond(base, this.arrivals++);
        const finish = () => {
          this.deliveries.push({ ...base, answered: status });
          if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
        };
        if (delayMs) setTimeout(finish, delayMs);
        else finish();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as import('node:net').AddressInfo;
    this.url = `http://127.0.0.1:${port}/hooks`;
    return this;
  }

  /** Deliveries answered 200. */
  accepted(): ReceivedDelivery[] {
    return this.deliveries.filter((d) => d.answered === 200);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Every scope, for a test credential. */
export const ALL_SCOPES = ['search', 'embed', 'buy', 'broker', 'refer', 'report', 'webhook'];

/** Creates a SANDBOX credential through the admin API and a signed client for it. */
export async function newPartner(
  sandbox: RunningSandbox,
  clock: TestClock,
  options: { scopes?: string[]; affiliate?: boolean } = {},
) {
  const created = await adminCreateCredential(sandbox, {
    scopes: options.scopes ?? ALL_SCOPES,
    environment: 'SANDBOX',
    affiliate: options.affiliate ?? true,
  });
  if (created.status !== 201) throw new Error(`credential creation failed: ${created.text}`);
  const credential = created.json as {
    key_id: string;
    secret: string;
    partner_id: string;
    affiliate_id: string | null;
  };
  return { credential, client: new PartnerTestClient(sandbox, credential, clock.now) };
}

/** Two sandboxes sharing one PostgreSQL schema, as two processes would. */
export interface SandboxPair {
  /** The fresh schema both use (dropped after the suite). */
  readonly schema: string;
  /** The first sandbox (set before the first test runs). */
  readonly a: TestSandbox;
  /** The second sandbox (set before the first test runs). */
  readonly b: TestSandbox;
}

/**
 * Starts two sandboxes on one fresh PostgreSQL schema before the tests of the enclosing suite, and after them stops
 * both and drops the schema. Call it inside a `describe.skipIf(!databaseUrl)`.
 * @param prefix - the schema name's prefix (a random suffix follows).
 */
export function useTwoSandboxesOnOneSchema(databaseUrl: string | undefined, prefix: string): SandboxPair {
  const pair = { schema: `${prefix}_${randomBytes(6).toString('hex')}` } as {
    schema: string;
    a: TestSandbox;
    b: TestSandbox;
  };
  beforeAll(async () => {
    pair.a = await startTestSandbox({ databaseUrl: databaseUrl!, schema: pair.schema });
    pair.b = await startTestSandbox({ databaseUrl: databaseUrl!, schema: pair.schema });
  });
  afterAll(async () => {
    await pair.a?.stop();
    await pair.b?.stop();
    if (databaseUrl) await dropSchema(databaseUrl, pair.schema);
  });
  return pair;
}
