/**
 * Test helpers: a MockAgent marketplace (network disabled) whose reply callbacks check each request's signature
 * with the protocol's own verifier, and sample answers that match the decided wire shapes.
 */
import { readSignatureHeaders, verifySignature, type SignatureHeaders } from '@domainkit/protocol';
import { MockAgent } from 'undici';
import { afterEach } from 'vitest';
import type { MockInterceptor } from 'undici/types/mock-interceptor.js';
import { PartnerClient, type PartnerClientOptions } from '../src/index.ts';

export const ORIGIN = 'https://marketplace.test';
export const KEY_ID = 'pk_test_client01';
export const SECRET = 'sk_test_Zq8vS3cr3tV4lu3NeverSh0wn';

/** One request as the mock marketplace received it, verified. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** The raw query string as sent (no `?`). */
  readonly query: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly signature: SignatureHeaders;
}

function lowerHeaders(headers: MockInterceptor.MockResponseCallbackOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [k, v] of entries) out[k.toLowerCase()] = String(v);
  return out;
}

function bodyBytes(body: unknown): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error(`unexpected body type in test: ${typeof body}`);
}

/**
 * Reads a request from a MockAgent reply callback and checks it as the marketplace would (Partner API spec 5.1): the four
 * headers, the timestamp window and the `v1=` signature over the path, query and body bytes actually sent.
 * @throws {ProtocolError} when the signature does not verify.
 */
export async function receive(
  opts: MockInterceptor.MockResponseCallbackOptions,
  options: { secret?: string; headerPrefix?: string; now?: number } = {},
): Promise<ReceivedRequest> {
  const headers = lowerHeaders(opts.headers);
  const [path = '', query = ''] = opts.path.split('?', 2) as [string, string?];
  const body = bodyBytes(opts.body);
  const signature = readSignatureHeaders(headers, { headerPrefix: options.headerPrefix, now: options.now });
  await verifySignature({ key: options.secret ?? SECRET, method: opts.method, path, query, body, ...signature });
  return { method: opts.method, path, query, headers, body, signature };
}

/** A MockAgent with network access disabled. */
export function mockAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

/**
 * For the tests of a file: returns a factory of MockAgents ({@link mockAgent}); after each test, every agent it
 * made is closed, and with `assertNoPendingInterceptors` first checked to have used all its interceptors.
 */
export function mockAgentPerTest(options: { assertNoPendingInterceptors?: boolean } = {}): () => MockAgent {
  const agents: MockAgent[] = [];
  afterEach(async () => {
    for (const a of agents.splice(0)) {
      if (options.assertNoPendingInterceptors) a.assertNoPendingInterceptors();
      await a.close();
    }
  });
  return () => {
    const a = mockAgent();
    agents.push(a);
    return a;
  };
}

/** A client on the mock, never really sleeping: waits are recorded in `sleeps` (ms). */
export function testClient(
  agent: MockAgent,
  overrides: Partial<PartnerClientOptions> = {},
): { client: PartnerClient; sleeps: number[] } {
  const sleeps: number[] = [];
  const client = new PartnerClient({
    baseUrl: ORIGIN,
    keyId: KEY_ID,
    secret: SECRET,
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return { client, sleeps };
}

export const JSON_HEADERS = { 'content-type': 'application/json' };

export const coffeehouse = {
  domain: 'coffeehouse.com',
  tld: 'com',
  available: true,
  price_cents: 250000,
  currency: 'USD',
};

export const searchAnswer = { domains: [coffeehouse], next_cursor: null };

export const detailAnswer = {
  ...coffeehouse,
  words: ['coffee', 'house'],
  listed_at: '2025-01-02T03:04:05Z',
  status: 'listed',
};

export const checkoutAnswer = {
  checkout_url: `${ORIGIN}/checkout?pt=tok_abc`,
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
  expires_at: '2025-01-09T03:04:05Z',
};

export function errorBody(code: string, message: string, requestId = 'req_test123'): string {
  return JSON.stringify({ error: { code, message, request_id: requestId } });
}

export const quoteAnswer = {
  quote_id: 'qt_signed.abc',
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
  expires_at: '2030-01-01T00:10:00Z',
};

export function orderAnswer(publicId = 'ord_0001', status = 'EXTERNALLY_PAID') {
  return {
    public_id: publicId,
    domain: 'coffeehouse.com',
    status,
    sale_price_cents: 250000,
    currency: 'USD',
    created_at: '2030-01-01T00:00:00Z',
  };
}

export function eventAnswer(id: string, type = 'order.recorded', status = 'EXTERNALLY_PAID') {
  return {
    id,
    type,
    created_at: '2030-01-01T00:00:00Z',
    partner_id: 'prt_demo',
    data: {
      order: { public_id: 'ord_0001', domain: 'coffeehouse.com', status, sale_price_cents: 250000, currency: 'USD' },
    },
  };
}

/** One scripted answer of {@link script}: a status and JSON body, or a network error. */
export type Scripted = { status: number; body: unknown; headers?: Record<string, string> } | Error;

/**
 * Scripts the answers of `method path` in order, verifying each attempt's signature (as the marketplace would) and
 * recording what arrived in `received`.
 */
export function script(
  agent: MockAgent,
  method: string,
  path: string | ((p: string) => boolean),
  answers: Scripted[],
  received: ReceivedRequest[] = [],
): ReceivedRequest[] {
  const pool = agent.get(ORIGIN);
  for (const answer of answers) {
    const interceptor = pool.intercept({ path, method });
    if (answer instanceof Error) {
      interceptor.replyWithError(answer);
      continue;
    }
    interceptor.reply(async (opts) => {
      received.push(await receive(opts));
      return {
        statusCode: answer.status,
        data: typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body),
        responseOptions: { headers: { ...JSON_HEADERS, ...answer.headers } },
      };
    });
  }
  return received;
}
