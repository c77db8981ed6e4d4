/**
 * The security paragraph of the BFF, point by point, with every feature on (search, checkout, MoR, webhooks):
 * only the fixed routes reach upstream, on fixed paths (never an open proxy); client-sent X-Service-*,
 * Authorization and Idempotency-Key headers are ignored; CORS for exact origins with Vary: Origin; helmet's strict
 * CSP on every answer; 413 and 415; /healthz and /readyz; and, over a whole run, no secret, signature, order token
 * or card number in any response or log line.
 */
import { inspect } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { redactPaths, testCardPayments, type BffDatabase, type BffTables } from '../src/index.ts';
import {
  KEY_ID,
  SECRET,
  SHOP_ORIGIN,
  call,
  openTestDatabase,
  startStubMarketplace,
  startTestBff,
  type Answer,
  type StubMarketplace,
  type TestDatabase,
} from './helpers.ts';

const WEBHOOK_SECRET = 'whsec_test_SecurityWebhookSecret9';
const CARD = '4242424242424242';

let stub: StubMarketplace;
let testDb: TestDatabase;
let bff: Awaited<ReturnType<typeof startTestBff>>;
const answers: Answer[] = [];

async function send(url: string, options: Parameters<typeof call>[1] = {}): Promise<Answer> {
  const res = await call(url, options);
  answers.push(res);
  return res;
}
const sendJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  stub = await startStubMarketplace();
  testDb = await openTestDatabase('pglite');
  bff = await startTestBff(stub, {
    database: testDb.database,
    payments: testCardPayments(),
    webhook: { secret: WEBHOOK_SECRET },
    background: { enabled: false },
  });
  stub.webhook = { url: `${bff.url}/webhooks`, secret: WEBHOOK_SECRET };
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
  await testDb?.close();
});

const UPSTREAM_PATHS = new Set([
  'GET /api/partner/v1/domains/search',
  'GET /api/partner/v1/domains/coffeehouse.com',
  'POST /api/partner/v1/checkout-session',
  'POST /api/partner/v1/quotes',
  'POST /api/partner/v1/orders',
]);

describe('only the fixed routes, on fixed upstream paths', () => {
  it.each<[string, string, string, number]>([
    ['a Partner API path', 'GET', '/api/partner/v1/domains/search?q=x', 404],
    ['the webhook registration path', 'PUT', '/api/partner/webhooks', 404],
    ['a dot-dot path', 'GET', '/search/../admin', 404],
    ['an encoded dot-dot in a domain', 'GET', '/domains/%2e%2e%2fcheckout-session', 400],
    ['an encoded slash in a domain', 'GET', '/domains/coffeehouse.com%2F..%2F..%2Forders', 400],
    ['a sub-path of webhooks', 'POST', '/webhooks/replay', 404],
    ['listing orders', 'GET', '/orders', 405],
    ['GET on quotes', 'GET', '/quotes', 405],
    ['DELETE an order', 'DELETE', '/orders/ord_0001', 405],
  ])('refuses %s (%s %s)', async (_name, method, path, status) => {
    const before = stub.calls.length;

    const res = await send(`${bff.url}${path}`, { method });

    expect(res.status).toBe(status);
    expect(res.json?.error?.code).toBeDefined();
    expect(stub.calls.length).toBe(before);
  });

  it('sends only its own fixed requests upstream, whatever the browser sends', async () => {
    await send(`${bff.url}/search?q=${encodeURIComponent('../../admin?x=1&q=2')}`);
    await send(`${bff.url}/domains/coffeehouse.com`);
    await sendJson(`${bff.url}/checkout`, { domain: 'coffeehouse.com' });
    await sendJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });

    for (const c of stub.calls) expect(UPSTREAM_PATHS.has(`${c.method} ${c.path}`), `${c.method} ${c.path}`).toBe(true);
    expect(stub.callsTo('search').at(-1)!.query).toBe('q=..%2F..%2Fadmin%3Fx%3D1%26q%3D2');
  });
});

describe('client-sent credentials and keys', () => {
  it('are ignored on quotes and orders: upstream sees the BFF credential, its signature and its own key', async () => {
    const forged = {
      'x-service-key-id': 'pk_test_attacker',
      'x-service-signature': `v1=${'a'.repeat(64)}`,
      'x-service-nonce': 'attacker-nonce',
      'x-service-timestamp': '1',
      authorization: 'Bearer stolen',
      'idempotency-key': 'attacker-purchase-key-0001',
    };
    const q = await sendJson(`${bff.url}/quotes`, { domain: 'coffeeshop.io' }, forged);
    const o = await sendJson(
      `${bff.url}/orders`,
      {
        quote_id: q.json.quote_id,
        buyer: { email: 'ada@example.com' },
        payment: { method: 'test_card', card_number: CARD },
      },
      forged,
    );

    expect([q.status, o.status]).toEqual([201, 201]);
    for (const upstream of [stub.callsTo('quote').at(-1)!, stub.callsTo('order').at(-1)!]) {
      expect(upstream.headers['x-service-key-id']).toBe(KEY_ID);
      expect(upstream.headers['x-service-signature']).not.toBe(forged['x-service-signature']);
      expect(upstream.headers['x-service-nonce']).not.toBe(forged['x-service-nonce']);
      expect(upstream.headers.authorization).toBeUndefined();
    }
    expect(stub.callsTo('quote').at(-1)!.headers['idempotency-key']).toBeUndefined();
    expect(stub.callsTo('order').at(-1)!.headers['idempotency-key']).not.toBe('attacker-purchase-key-0001');
  });
});

describe('HSTS', () => {
  it('is sent only on answers that came over HTTPS (RFC 6797 7.2), as the proxy in front says with trust proxy', async () => {
    const stub = await startStubMarketplace();
    const behindProxy = await startTestBff(stub, { trustProxy: 1 });
    try {
      const plain = await send(`${behindProxy.url}/healthz`);
      const secure = await send(`${behindProxy.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });

      expect(plain.headers['strict-transport-security']).toBeUndefined();
      expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(plain.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await behindProxy.close();
      await stub.close();
    }
  });
});

describe('headers of every answer', () => {
  it('carry helmet strict CSP, nosniff and no-store on every route, and CORS only for exact origins with Vary: Origin', async () => {
    const q = await sendJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' }, { origin: SHOP_ORIGIN });
    const routes = [
      await send(`${bff.url}/readyz`, { headers: { origin: SHOP_ORIGIN } }),
      q,
      await send(`${bff.url}/orders/ord_nope`, { headers: { origin: SHOP_ORIGIN, 'x-order-token': 'x' } }),
      await send(`${bff.url}/webhooks`, { method: 'POST', headers: { origin: SHOP_ORIGIN }, body: '{}' }),
    ];
    for (const res of routes) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBe(SHOP_ORIGIN);
      expect(res.headers.vary).toMatch(/Origin/);
    }
    const evil = await send(`${bff.url}/orders/ord_nope`, { headers: { origin: 'https://shop.example.evil.test' } });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send(`${bff.url}/orders/ord_1`, {
      method: 'OPTIONS',
      headers: {
        origin: SHOP_ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-order-token',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe(
      'Content-Type, X-Order-Token, Idempotency-Key, X-Request-Id',
    );
  });

  it('are the same on a search answered from memory as on the search that fetched it', async () => {
    const sameOrigin = { headers: { origin: SHOP_ORIGIN } };
    const fetched = await send(`${bff.url}/search?q=headersalike`, sameOrigin);
    const held = await send(`${bff.url}/search?q=headersalike`, sameOrigin);
    const noOrigin = await send(`${bff.url}/search?q=headersalike`);
    const overHttps = await send(`${bff.url}/search?q=headersalike`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(fetched.headers['cache-status']).toMatch(/fwd=miss/);
    expect(held.headers['cache-status']).toBe('domainkit-bff; hit');
    const perAnswer = new Set(['date', 'x-request-id', 'cache-status', 'content-length']);
    const shared = (res: Answer) => Object.entries(res.headers).filter(([name]) => !perAnswer.has(name));
    expect(shared(held)).toEqual(shared(fetched));
    expect(held.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(held.headers['x-request-id']).not.toBe(fetched.headers['x-request-id']);
    expect(held.json).toEqual(fetched.json);
    expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
    expect(noOrigin.headers.vary).toBe('Origin');
    expect(noOrigin.headers['content-security-policy']).toBe(fetched.headers['content-security-policy']);
    // Over plain HTTP and with no proxy trusted: never HSTS (RFC 6797 7.2), from memory or not.
    expect(overHttps.headers['strict-transport-security']).toBeUndefined();
    expect(stub.callsTo('search').filter((c) => c.query === 'q=headersalike')).toHaveLength(1);
  });

  it('answer 413 for oversized bodies and 415 for non-JSON ones', async () => {
    const big = await sendJson(`${bff.url}/orders`, {
      quote_id: 'q',
      buyer: { email: 'a@b.co' },
      payment: { pad: 'x'.repeat(17 * 1024) },
    });
    const text = await send(`${bff.url}/quotes`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'coffeehouse.com',
    });
    const form = await send(`${bff.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'quote_id=q',
    });
    const hugeWebhook = await send(`${bff.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(300 * 1024),
    });

    expect([big.status, big.json.error.code]).toEqual([413, 'payload_too_large']);
    expect([text.status, text.json.error.code]).toEqual([415, 'unsupported_media_type']);
    expect([form.status, form.json.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(hugeWebhook.status).toBe(413);
  });
});

describe('/healthz and /readyz', () => {
  it('answer liveness, and readiness from the database (503 when it does not answer)', async () => {
    const health = await send(`${bff.url}/healthz`);
    const ready = await send(`${bff.url}/readyz`);
    expect([health.status, health.json]).toEqual([200, { status: 'ok' }]);
    expect([ready.status, ready.json]).toEqual([200, { status: 'ready', database: 'pglite' }]);

    // A database that does not answer: a pool on a closed port.
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
    pool.on('error', () => {});
    const database: BffDatabase = {
      db: new Kysely<BffTables>({ dialect: new PostgresDialect({ pool }) }),
      kind: 'postgres',
      schema: 'public',
      close: () => pool.end(),
    };
    const other = await startTestBff(stub, {
      database,
      webhook: { secret: WEBHOOK_SECRET },
      background: { enabled: false },
    });
    try {
      const down = await send(`${other.url}/readyz`);
      expect(down.status).toBe(503);
      expect(down.json.error.code).toBe('unavailable');
    } finally {
      await other.close();
      await database.close();
    }
  });
});

describe('logs', () => {
  it('redact secrets, signatures and auth headers wherever they appear', () => {
    const lines: string[] = [];
    const logger = pino(
      { redact: { paths: redactPaths(), censor: '[redacted]' } },
      { write: (l: string) => void lines.push(l) },
    );
    logger.info(
      {
        secret: SECRET,
        webhook: { secret: WEBHOOK_SECRET },
        req: { headers: { authorization: 'Bearer x', 'x-service-signature': 'v1=abc', 'x-order-token': 'tok' } },
      },
      'x',
    );

    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).not.toContain(WEBHOOK_SECRET);
    expect(lines[0]).not.toContain('Bearer x');
    expect(lines[0]).not.toContain('v1=abc');
    expect(lines[0]).not.toContain('"tok"');
  });
});

describe('a whole run', () => {
  it('puts no secret, signature, order token or card number in any response or log line', async () => {
    // Failures of every kind, on top of the successes above.
    stub.enqueue('search', { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } });
    stub.enqueue('order', { status: 503, body: { error: { code: 'internal_error', message: 'down' } } });
    await send(`${bff.url}/search?q=broken`);
    const q = await sendJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
    const pending = await sendJson(`${bff.url}/orders`, {
      quote_id: q.json.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: CARD },
    });
    expect(pending.status).toBe(202);
    await send(`${bff.url}/orders/${pending.json.order_id}`, {
      headers: { 'x-order-token': pending.json.order_token },
    });
    await sendJson(`${bff.url}/orders`, {
      quote_id: 'nope',
      buyer: { email: 'x' },
      payment: { method: 'test_card', card_number: '4000000000000002', secret: SECRET },
    });
    await sendJson(`${bff.url}/checkout`, { domain: 'coffeehouse.com', return_url: 'https://evil.example/steal' });
    for (const order of stub.orders.values()) stub.advance(order.public_id, 'order.settled', 'SETTLED');
    await stub.deliveriesSettled();
    const forged = await stub.deliver(stub.events.at(-1)!, { secret: 'whsec_test_wrong_secret_value' });
    expect(forged).toBe(400);
    await bff.bff.processInbox();
    await bff.bff.recover();

    const tokens = answers
      .filter((a) => typeof a.json?.order_token === 'string')
      .map((a) => a.json.order_token as string);
    expect(tokens.length).toBeGreaterThan(1);
    const signatures = stub.calls.map((c) => String(c.headers['x-service-signature']).slice(3));
    const responses = answers.map((a) => `${JSON.stringify(a.headers)}\n${a.text}`);
    expect(bff.lines.length).toBeGreaterThan(10);
    for (const text of [...responses, ...bff.lines, inspect(bff.bff, { depth: 4 })]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(WEBHOOK_SECRET);
      for (const signature of signatures) expect(text).not.toContain(signature);
    }
    for (const line of bff.lines) {
      for (const token of tokens) expect(line).not.toContain(token);
      expect(line).not.toContain(CARD);
      expect(line).not.toContain('4000000000000002');
    }
  });
});
