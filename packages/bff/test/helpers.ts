/**
 * Test helpers: the stub marketplace (stub-marketplace.ts), a raw HTTP caller that checks every widget-route answer
 * against protocol's schemas (wire-check.ts), a pino log capture, a BFF started on
 * 127.0.0.1:0 in front of the stub, and the per-file test databases (one PGlite per file; a fresh PostgreSQL schema
 * per file when TEST_DATABASE_URL is set).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import {
  createBff,
  openBffDatabase,
  startBff,
  truncateBffTables,
  type BffDatabase,
  type BffOptions,
  type BffServerOptions,
  type RunningBff,
} from '../src/index.ts';

export {
  KEY_ID,
  LIVE_KEY_ID,
  LIVE_SECRET,
  SECRET,
  startStubMarketplace,
  type StubAnswer,
  type StubCall,
  type StubMarketplace,
  type StubOrder,
  type StubEvent,
} from './stub-marketplace.ts';
import { KEY_ID, SECRET, startStubMarketplace, type StubMarketplace } from './stub-marketplace.ts';
import { checkWidgetAnswer } from './wire-check.ts';
import { freshPgliteDataDir } from '../../../test/setup/pglite-data-dir.ts';

/** The databases the DB-backed tests run on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function databaseKinds(): Array<'pglite' | 'postgres'> {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** A test database and how to drop it. */
export interface TestDatabase {
  readonly database: BffDatabase;
  /** Empties every table (between tests). */
  reset(): Promise<void>;
  /** Closes it (and drops the PostgreSQL schema). */
  close(): Promise<void>;
}

/**
 * Opens a database for one test file: PGlite in a temporary data folder that starts as a copy of the run's empty
 * cluster (`test/setup/pglite-cluster.ts`; removed on close), or a fresh schema on TEST_DATABASE_URL (dropped on
 * close). Either way the BFF migrates it from nothing.
 */
export async function openTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const dataDir = freshPgliteDataDir('dk-bff-test-');
    const database = await openBffDatabase({ dataDir });
    return {
      database,
      reset: () => truncateBffTables(database),
      async close() {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `dk_bff_test_${randomBytes(6).toString('hex')}`;
  const database = await openBffDatabase({ url, schema });
  return {
    database,
    reset: () => truncateBffTables(database),
    async close() {
      await database.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The usual fixture of a database-backed BFF test file: one test database for the file (opened before the first
 * test, closed after the last), reset before each test, and a fresh stub marketplace per test. `closers` run in
 * reverse order before the next test and after the last; push a BFF's `close` there. Call it at the top level of a
 * file or inside a `describe`.
 * @param kind - `pglite`, or `postgres` (needs TEST_DATABASE_URL; see {@link databaseKinds}).
 */
export function useDatabaseAndStub(kind: 'pglite' | 'postgres'): {
  readonly testDb: TestDatabase;
  readonly stub: StubMarketplace;
  readonly closers: Array<() => Promise<void>>;
} {
  let testDb: TestDatabase | undefined;
  let stub: StubMarketplace | undefined;
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  beforeAll(async () => {
    testDb = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await closeAll();
    await testDb?.close();
  });
  beforeEach(async () => {
    await closeAll();
    await testDb!.reset();
    stub = await startStubMarketplace();
    closers.push(() => stub!.close());
  });
  return {
    get testDb() {
      return testDb!;
    },
    get stub() {
      return stub!;
    },
    closers,
  };
}

/** An HTTP answer, raw. */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
  readonly json: any;
}

/**
 * Sends one request with exactly the given headers and body (node:http, so nothing is added behind our back). An
 * answer of a widget route whose body is not exactly protocol's widget API schema rejects (wire-check.ts).
 */
export function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const status = res.statusCode ?? 0;
        try {
          checkWidgetAnswer(options.method ?? 'GET', url, status, json);
        } catch (error) {
          reject(error);
          return;
        }
        resolve({ status, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POSTs JSON. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A pino logger whose JSON lines land in `lines`. */
export function captureLogs(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

export const RETURN_URL = 'https://shop.example/thanks';
export const CANCEL_URL = 'https://shop.example/cart';
export const SHOP_ORIGIN = 'https://shop.example';

/**
 * A BFF mounted at /bff on 127.0.0.1:0 in front of the stub; `url` is its base. No upstream retries and no
 * per-visitor limits by default (the tests of those turn them on).
 */
export async function startTestBff(
  stub: StubMarketplace,
  overrides: Partial<BffServerOptions> = {},
): Promise<RunningBff & { lines: string[] }> {
  const { logger, lines } = captureLogs();
  const bff = await startBff({
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
    returnUrl: RETURN_URL,
    cancelUrl: CANCEL_URL,
    allowedOrigins: [SHOP_ORIGIN],
    visitorLimits: false,
    // The stub counts upstream calls: no credential probes (the real sandbox proves them, test/e2e).
    checkCredential: false,
    // Budgets large enough never to be the reason a test fails; the budget tests set their own.
    upstreamBudget: { search: { perMinute: 6000, burst: 1000 }, write: { perMinute: 6000, burst: 1000 } },
    logger,
    port: 0,
    host: '127.0.0.1',
    mountPath: '/bff',
    ...overrides,
  });
  return Object.assign(bff, { lines });
}

/**
 * `createBff` mounted at `/api/domains` of the partner's own Express app on 127.0.0.1:0 (no upstream retries, no
 * credential probes), as a partner mounts it; `url` is its base. `trustProxy` is the app's own `trust proxy`.
 */
export async function startMountedBff(
  stub: StubMarketplace,
  trustProxy: boolean | number | string,
  overrides: Partial<BffOptions> = {},
): Promise<{ url: string; lines: string[]; close(): Promise<void> }> {
  const { logger, lines } = captureLogs();
  const app = express();
  app.set('trust proxy', trustProxy);
  const bff = createBff({
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
    checkCredential: false,
    logger,
    ...overrides,
  });
  app.use('/api/domains', bff);
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/domains`,
    lines,
    async close() {
      server.closeAllConnections();
      server.close();
      await bff.close();
    },
  };
}

/** A BFF started by {@link startTestBff}. */
export type TestBff = Awaited<ReturnType<typeof startTestBff>>;

/** The stub marketplace and the BFF in front of it, shared by the tests of one suite. */
export interface StubAndBff {
  /** The stub marketplace (set before the first test runs). */
  readonly stub: StubMarketplace;
  /** The BFF in front of it (set before the first test runs). */
  readonly bff: TestBff;
}

/**
 * Starts a stub marketplace and a BFF in front of it before the tests of the enclosing suite (`beforeAll`), and
 * closes both after them (`afterAll`). Call it at the top of a file or of a `describe`.
 * @param overrides - options of the BFF (see {@link startTestBff}).
 */
export function useStubAndBff(overrides: Partial<BffServerOptions> = {}): StubAndBff {
  const suite = {} as { stub: StubMarketplace; bff: TestBff };
  beforeAll(async () => {
    suite.stub = await startStubMarketplace();
    suite.bff = await startTestBff(suite.stub, overrides);
  });
  afterAll(async () => {
    await suite.bff?.close();
    await suite.stub?.close();
  });
  return suite;
}

/**
 * For suites whose tests each need a fresh stub and BFF (their own counters, options, cache): returns `setup`, which
 * starts both for the calling test, and closes whatever it started after each test (`afterEach`). Call it at the top
 * of a file or of a `describe`.
 * @returns `setup(overrides)`: the stub and the BFF's base `url` (options as {@link startTestBff}).
 */
export function useFreshStubAndBff(): (
  overrides?: Partial<BffServerOptions>,
) => Promise<{ stub: StubMarketplace; url: string }> {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return async (overrides = {}) => {
    const stub = await startStubMarketplace();
    closers.push(() => stub.close());
    const bff = await startTestBff(stub, overrides);
    closers.push(() => bff.close());
    return { stub, url: bff.url };
  };
}
