/**
 * The webhook receiver as a web-standard route (webhooks/route.ts), as any host hands it a `Request`: the signature
 * is checked on the exact bytes however they arrive (split inside a character, spacing that a JSON round trip would
 * change), a body over 256 kB is refused while it streams (an endless body is answered, not read to its end), and the
 * inbox run that follows a stored event is handed to the host's `waitUntil`, so a serverless function lives on
 * until the partner's handlers ran.
 */
import { signWebhookPayload } from '@domainkit/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BffRequest } from '../src/http/index.ts';
import { webhooksFeature } from '../src/webhooks/index.ts';
import { KEY_ID, captureLogs, openTestDatabase, type TestDatabase } from './helpers.ts';

const SECRET = 'whsec_test_ExactBytesRoute0001';
let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase('pglite');
});
afterAll(() => testDb.close());
beforeEach(() => testDb.reset());

/** The request as the BFF's handler hands it to a route. */
function bffRequest(request: Request, waitUntil: (promise: Promise<unknown>) => void = () => {}): BffRequest {
  const url = new URL(request.url);
  return {
    request,
    method: request.method,
    url,
    path: url.pathname,
    mountPath: '',
    query: Object.fromEntries(url.searchParams),
    params: {},
    route: '/webhooks',
    clientAddress: '203.0.113.9',
    ownOrigin: url.origin,
    secure: true,
    id: 'req-test',
    logger: captureLogs().logger,
    waitUntil,
    deadline: new AbortController().signal,
    header: (name) => request.headers.get(name) ?? undefined,
    onDeadline: () => {},
  };
}

/** The receiver, with `eventsStored` resolving once `handled` has been told the run happened. */
function receiver(handled: string[] = []) {
  const [spec] = webhooksFeature({
    secret: SECRET,
    headerPrefix: undefined,
    db: async () => testDb.database.db,
    keyId: KEY_ID,
    now: Date.now,
    logger: captureLogs().logger,
    domainChanged: () => {},
    eventsStored: async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      handled.push('inbox run');
    },
  }).routes;
  return spec!.POST!;
}

/** A body that arrives in the given pieces. */
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

const delivery = (body: string | ReadableStream<Uint8Array>, signature: string) =>
  new Request('https://shop.example/dk/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': signature },
    body,
    duplex: 'half',
  } as RequestInit);

describe('POST /webhooks on web standards', () => {
  // Spacing and an escaped character that parsing and serialising again would change: only these bytes verify.
  const text = `{ "id": "evt_000000000042", "type": "order.settled", "created_at": "2026-11-26T10:00:00.000Z",
    "partner_id": "prt_1", "note": "caf\\u00e9 \u2615", "data": { "order": { "public_id": "ord_9",
    "domain": "coffeehouse.com", "status": "SETTLED", "sale_price_cents": 250000, "currency": "USD" } } }`;

  it('verifies the exact bytes, split inside a character, and hands the inbox run to waitUntil', async () => {
    const bytes = new TextEncoder().encode(text);
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of the cup
    const handled: string[] = [];
    const kept: Array<Promise<unknown>> = [];

    const res = await receiver(handled)(
      bffRequest(
        delivery(
          streamed([bytes.slice(0, 10), bytes.slice(10, cut), bytes.slice(cut)]),
          await signWebhookPayload(SECRET, text),
        ),
        (promise) => void kept.push(promise),
      ),
    );

    expect([res.status, await res.json()]).toEqual([200, { received: true }]);
    expect(kept).toHaveLength(1);
    await kept[0];
    expect(handled).toEqual(['inbox run']);
  });

  it('refuses the same event re-serialised (other bytes) with 400, and stores nothing', async () => {
    const handled: string[] = [];
    const res = await Promise.resolve(
      receiver(handled)(bffRequest(delivery(JSON.stringify(JSON.parse(text)), await signWebhookPayload(SECRET, text)))),
    ).catch((error: unknown) => error as { status: number; code: string; message: string });

    expect(res).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: 'The webhook signature does not verify.',
    });
    expect(handled).toEqual([]);
  });

  it('refuses a body over 256 kB while it streams, not reading the rest of it', async () => {
    let pulled = 0;
    // 4 MB in 64 kB pieces, with no declared length (as a chunked body arrives).
    const large = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulled > 64) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });

    const refused = await Promise.resolve(receiver()(bffRequest(delivery(large, 'ab'.repeat(32))))).catch(
      (error: unknown) => error as { status: number; code: string },
    );

    expect(refused).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(pulled).toBeLessThanOrEqual(6);
  });
});
