/**
 * The write routes (checkout/, purchase/, webhooks/) through the web-standard handler, as a Workers, Bun, Deno or
 * Next.js host calls it: a `Request` in, a `Response` out, no Node server. A webhook's signature is checked on the
 * exact bytes however they are chunked, a body over the limit is refused while it streams, the inbox run is handed
 * to the host's `waitUntil`; the purchase answers keep their codes, money fields, order token and purchase key.
 */
import { signWebhookPayload } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { createBffHandler, testCardPayments } from '../src/index.ts';
import { KEY_ID, SECRET, SHOP_ORIGIN, captureLogs, useDatabaseAndStub } from './helpers.ts';

/** A JSON answer's body. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
const read = (res: Response): Promise<any> => res.json();

const WEBHOOK_SECRET = 'whsec_test_WebStandardRoutes0001';
const BASE = 'https://shop.example/dk';
const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };

describe('the write routes through createBffHandler', () => {
  const fx = useDatabaseAndStub('pglite');

  function shop(onEvent: (id: string) => void = () => {}) {
    const { logger } = captureLogs();
    const handler = createBffHandler({
      marketplace: { baseUrl: fx.stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
      database: fx.testDb.database,
      payments: testCardPayments(),
      webhook: { secret: WEBHOOK_SECRET },
      allowedOrigins: [SHOP_ORIGIN],
      visitorLimits: false,
      checkCredential: false,
      background: { enabled: false },
      basePath: '/dk',
      logger,
      onEvent: { '*': (event) => onEvent(event.id) },
    });
    fx.closers.push(() => handler.close());
    return handler;
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** A body streamed in the given pieces of bytes. */
  function streamed(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
    let i = 0;
    return new ReadableStream({
      pull(controller) {
        const piece = pieces[i++];
        if (piece === undefined) controller.close();
        else controller.enqueue(piece);
      },
    });
  }

  it('verifies a webhook on its exact bytes, split mid-character, and hands the inbox run to waitUntil', async () => {
    const seen: string[] = [];
    const handler = shop((id) => seen.push(id));
    // Spacing and an escaped character that parsing and serialising again would change: only these bytes verify.
    const text = `{ "id": "evt_000000000042", "type": "order.settled", "created_at": "${new Date().toISOString()}",
      "partner_id": "prt_1", "note": "caf\\u00e9 ☕", "data": { "order": { "public_id": "ord_9", "domain": "coffeehouse.com",
      "status": "SETTLED", "sale_price_cents": 250000, "currency": "USD" } } }`;
    const bytes = new TextEncoder().encode(text);
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ☕
    const kept: Array<Promise<unknown>> = [];

    const res = await handler.fetch(
      new Request(`${BASE}/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature': await signWebhookPayload(WEBHOOK_SECRET, text),
        },
        body: streamed([bytes.slice(0, 10), bytes.slice(10, cut), bytes.slice(cut)]),
        duplex: 'half',
      } as RequestInit),
      { waitUntil: (promise) => void kept.push(promise) },
    );

    expect([res.status, await read(res)]).toEqual([200, { received: true }]);
    expect(kept.length).toBeGreaterThan(0);
    await Promise.all(kept);
    expect(seen).toEqual(['evt_000000000042']);

    const reSerialised = JSON.stringify(JSON.parse(text));
    const forged = await handler.fetch(
      new Request(`${BASE}/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-signature': await signWebhookPayload(WEBHOOK_SECRET, text),
        },
        body: reSerialised,
      }),
    );
    expect([forged.status, (await read(forged)).error]).toEqual([
      400,
      { code: 'validation_error', message: 'The webhook signature does not verify.' },
    ]);
  });

  it('refuses a webhook body over 256 kB while it streams, not reading the rest of it', async () => {
    const handler = shop();
    let pulled = 0;
    // 4 MB in 64 kB pieces, with no declared length (as a chunked body arrives).
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulled > 64) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });

    const res = await handler.fetch(
      new Request(`${BASE}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': 'ab'.repeat(32) },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );

    expect([res.status, (await read(res)).error.code]).toEqual([413, 'payload_too_large']);
    expect(pulled).toBeLessThan(16);
  });

  it('quotes, places and shows an order; a retry with the purchase key is answered from it, never charged twice', async () => {
    const handler = shop();
    const key = { 'idempotency-key': 'web-standard-purchase-0001' };

    const quote = await handler.fetch(post('/quotes', { domain: 'coffeehouse.com' }, key));
    expect(quote.status).toBe(201);
    const { quote_id } = await read(quote);
    const order = await handler.fetch(
      post('/orders', { quote_id, buyer: { email: 'ada@example.com' }, payment: CARD }, key),
    );
    expect(order.status).toBe(201);
    const placed = await read(order);
    expect(placed).toMatchObject({ order_id: 'ord_0001', status: 'EXTERNALLY_PAID', sale_price_cents: 250000 });

    const retry = await handler.fetch(
      post('/orders', { quote_id, buyer: { email: 'ada@example.com' }, payment: CARD }, key),
    );
    const again = await read(retry);
    expect([retry.status, again.order_id]).toEqual([201, 'ord_0001']);
    expect(again.order_token).not.toBe(placed.order_token);
    expect(fx.stub.orders.size).toBe(1);

    const view = await handler.fetch(
      new Request(`${BASE}/orders/ord_0001`, { headers: { 'x-order-token': placed.order_token } }),
    );
    expect([view.status, (await read(view)).status]).toEqual([200, 'EXTERNALLY_PAID']);
    const stranger = await handler.fetch(new Request(`${BASE}/orders/ord_0001`, { headers: { 'x-order-token': 'x' } }));
    expect([stranger.status, (await read(stranger)).error.code]).toEqual([404, 'not_found']);
  });

  it('refuses a cross-site write with 403 before the marketplace is called, and answers a bad card 402 not_charged', async () => {
    const handler = shop();
    const before = fx.stub.calls.length;
    const foreign = await handler.fetch(
      post('/quotes', { domain: 'coffeehouse.com' }, { origin: 'https://evil.example' }),
    );
    expect([foreign.status, (await read(foreign)).error.code]).toEqual([403, 'forbidden']);
    expect(fx.stub.calls.length).toBe(before);

    const { quote_id } = await read(await handler.fetch(post('/quotes', { domain: 'coffeehouse.com' })));
    const declined = await handler.fetch(
      post('/orders', {
        quote_id,
        buyer: { email: 'ada@example.com' },
        payment: { method: 'test_card', card_number: '4000 0000 0000 0002' },
      }),
    );
    expect([declined.status, (await read(declined)).error]).toMatchObject([
      402,
      { code: 'payment_declined', money: 'not_charged' },
    ]);
  });

  it('opens a checkout session and refuses a return the marketplace did not sign', async () => {
    const handler = shop();
    const session = await handler.fetch(
      post('/checkout', { domain: 'coffeehouse.com', return_url: '/thanks' }, { origin: SHOP_ORIGIN }),
    );
    expect(session.status).toBe(201);
    expect(await read(session)).toMatchObject({
      checkout_url: expect.stringMatching(/^https?:/),
      price_cents: 250000,
    });

    const forged = await handler.fetch(
      new Request(`${BASE}/checkout/return?checkout_session_id=cs_1&status=paid&domain=coffeehouse.com&sig=00`),
    );
    expect([forged.status, (await read(forged)).error.code]).toEqual([400, 'validation_error']);
    expect(forged.headers.get('cache-control')).toBe('no-store');
  });
});
