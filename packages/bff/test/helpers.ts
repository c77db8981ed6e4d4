/**
 * Test helpers: a stub marketplace (a tiny Express app on 127.0.0.1:0 that checks every request's signature with
 * the protocol's verifier, as the real service would), a raw HTTP caller, a pino log capture, and a BFF started on
 * 127.0.0.1:0 in front of the stub.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtocolError, readSignatureHeaders, verifySignature } from '@domainkit/protocol';
import express from 'express';
import { pino, type Logger } from 'pino';
import { startBff, type BffServerOptions, type RunningBff } from '../src/index.ts';

export const KEY_ID = 'pk_test_bff0001';
export const SECRET = 'sk_test_BffS3cretNeverInTheBrowser42';

/** A listed domain of the stub's inventory (with an extra field the BFF must not pass on). */
const inventory = [
  { domain: 'coffeehouse.com', tld: 'com', available: true, price_cents: 250000, currency: 'USD', score: 0.91, words: ['coffee', 'house'], status: 'listed' },
  { domain: 'coffeeshop.io', tld: 'io', available: true, price_cents: 120000, currency: 'USD', score: 0.88, words: ['coffee', 'shop'], status: 'listed' },
  { domain: 'coffee.net', tld: 'net', available: false, price_cents: 990000, currency: 'USD', score: 0.8, words: ['coffee'], status: 'sold' },
];

/** An answer the stub gives instead of its default; a function may wait before answering. */
export type StubAnswer = { status: number; body: unknown; headers?: Record<string, string> } | (() => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>);

/** A request the stub accepted (its signature verified). */
export interface StubCall {
  readonly route: 'search' | 'domain' | 'checkout';
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface StubMarketplace {
  readonly url: string;
  readonly calls: StubCall[];
  /** Requests refused for their signature, with the code. */
  readonly rejected: string[];
  callsTo(route: StubCall['route']): StubCall[];
  /** Queues answers for the next calls to `route`, used in order before the default. */
  enqueue(route: StubCall['route'], ...answers: StubAnswer[]): void;
  close(): Promise<void>;
}

function errorBody(code: string, message: string) {
  return { error: { code, message, request_id: 'req_stub0001' } };
}

/** Starts the stub marketplace on 127.0.0.1:0. */
export async function startStubMarketplace(): Promise<StubMarketplace> {
  const calls: StubCall[] = [];
  const rejected: string[] = [];
  const queues = new Map<StubCall['route'], StubAnswer[]>();
  const app = express();
  app.use(express.raw({ type: () => true }));

  const verify = (route: StubCall['route']): express.RequestHandler => (req, res, next) => {
    const [path = '', query = ''] = req.originalUrl.split('?', 2) as [string, string?];
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      const signature = readSignatureHeaders(req.headers);
      if (signature.keyId !== KEY_ID) throw new ProtocolError('invalid_signature', 'Unknown key id.');
      verifySignature({ key: SECRET, method: req.method, path, query, body, ...signature });
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      rejected.push(error.code);
      res.status(error.status).set('x-request-id', 'req_stub0001').json(errorBody(error.code, error.message));
      return;
    }
    calls.push({ route, method: req.method, path, query, headers: req.headers, body: body.toString('utf8') });
    const queued = queues.get(route)?.shift();
    if (queued === undefined) {
      next();
      return;
    }
    void (typeof queued === 'function' ? queued() : Promise.resolve(queued)).then((answer) => {
      res.status(answer.status).set(answer.headers ?? {}).json(answer.body);
    });
  };

  app.get('/api/partner/v1/domains/search', verify('search'), (req, res) => {
    const q = String(req.query.q ?? '').toLowerCase();
    const domains = inventory.filter((d) => q.split(' ').some((word) => d.domain.includes(word))).slice(0, 5);
    res.json({ domains: domains.map(({ words: _w, status: _s, ...d }) => d), next_cursor: null });
  });
  app.get('/api/partner/v1/domains/:name', verify('domain'), (req, res) => {
    const found = inventory.find((d) => d.domain === req.params.name);
    if (!found) {
      res.status(404).json(errorBody('not_found', `${req.params.name} is not listed`));
      return;
    }
    res.json({ ...found, listed_at: '2025-01-02T03:04:05Z' });
  });
  app.post('/api/partner/v1/checkout-session', verify('checkout'), (req, res) => {
    const { domain } = JSON.parse(String(req.body)) as { domain: string };
    res.status(201).json({
      checkout_url: `http://127.0.0.1/checkout?pt=tok_${domain}`,
      domain,
      price_cents: 250000,
      currency: 'USD',
      expires_at: '2030-01-08T00:00:00Z',
    });
  });

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    rejected,
    callsTo: (route) => calls.filter((c) => c.route === route),
    enqueue(route, ...answers) {
      queues.set(route, [...(queues.get(route) ?? []), ...answers]);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** An HTTP answer, raw. */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: any;
}

/** Sends one request with exactly the given headers and body (node:http, so nothing is added behind our back). */
export function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
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
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POSTs JSON. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
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

/** A BFF mounted at /bff on 127.0.0.1:0 in front of the stub; `base` is its URL. No upstream retries by default. */
export async function startTestBff(stub: StubMarketplace, overrides: Partial<BffServerOptions> = {}): Promise<RunningBff & { lines: string[] }> {
  const { logger, lines } = captureLogs();
  const bff = await startBff({
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
    returnUrl: RETURN_URL,
    cancelUrl: CANCEL_URL,
    allowedOrigins: [SHOP_ORIGIN],
    logger,
    port: 0,
    host: '127.0.0.1',
    mountPath: '/bff',
    ...overrides,
  });
  return Object.assign(bff, { lines });
}
