/**
 * Test helpers: a sandbox per test file on port 0 with a temporary data folder, a movable clock, a log capture,
 * and a signed HTTP client built on the protocol's signer (never on @domainkit/client: the two meet on the wire).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { canonicalQuery, createRequestSigner, type RequestSigner } from '@domainkit/protocol';
import { pino } from 'pino';
import { readDemoCredential, startSandbox, type DemoCredential, type RunningSandbox, type StartSandboxOptions } from '../src/index.ts';

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

/** A temporary data folder, removed by {@link removeDir}. */
export function tempDir(prefix = 'dk-sandbox-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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

/** Starts a sandbox on 127.0.0.1:0 with a fresh data folder, embedded PGlite (never DATABASE_URL), a test clock and log capture. */
export async function startTestSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? tempDir();
  const logs = new LogCapture();
  const clock = new TestClock();
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: '', logger: logs.logger, now: clock.now, ...options });
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
  const res = await fetch(url, { method: request.method ?? 'GET', headers: request.headers ?? {}, body: request.body ?? null, redirect: 'manual' });
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
  async request(request: SignedRequest): Promise<Answer & { sent: { headers: Record<string, string>; query: string; body: string | undefined } }> {
    const method = request.method ?? 'GET';
    const body = request.json !== undefined ? JSON.stringify(request.json) : request.body;
    const signed = this.signer.sign({ method, path: request.path, query: canonicalQuery(request.query ?? ''), body: body ?? null });
    const headers = { ...signed.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers };
    const answer = await send(this.sandbox, { method, path: request.path, query: signed.query, headers, ...(body !== undefined ? { body } : {}) });
    return { ...answer, sent: { headers, query: signed.query, body } };
  }
}

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

/** Submits the lander's card form. */
export async function pay(sandbox: Target, fields: Record<string, string>): Promise<Answer> {
  return send(sandbox, {
    method: 'POST',
    path: '/checkout/pay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_expiry: '12/34', card_cvc: '123', card_name: 'Test Buyer', ...fields }).toString(),
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
