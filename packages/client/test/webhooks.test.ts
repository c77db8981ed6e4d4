/**
 * Webhook verification for any framework (Partner API spec 5.3, 2.5): the known-answer vector of the docstring, a typed event
 * out, and errors that say what went wrong (a parsed body, a missing header, a wrong secret or changed bytes, a
 * body that is not an event). Runs under a plain node:http server too, with the raw bytes as received.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhookPayload } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { WebhookPayloadError, WebhookSignatureError, constructEvent, createWebhookVerifier } from '../src/index.ts';

const SECRET = 'whsec_test_0123456789abcdef';
const BODY =
  '{"id":"evt_0001","type":"order.settled","created_at":"2030-01-01T00:00:00Z","partner_id":"prt_demo","data":{"order":{"public_id":"ord_0001","domain":"coffeehouse.com","status":"SETTLED","sale_price_cents":250000,"currency":"USD"}}}';
const SIGNATURE = '4add270d92d4138b5208877d101caa1eae20ff4a5f3a9fc610b9279a0f50b1d7';

async function thrown(fn: () => unknown): Promise<Error & { code?: string }> {
  try {
    await fn();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

describe('constructEvent', () => {
  it('verifies the known-answer vector and returns the typed event', async () => {
    const event = await constructEvent(Buffer.from(BODY), SIGNATURE, SECRET);

    expect(event.id).toBe('evt_0001');
    expect(event.type).toBe('order.settled');
    expect(event.data.order).toEqual({
      public_id: 'ord_0001',
      domain: 'coffeehouse.com',
      status: 'SETTLED',
      sale_price_cents: 250000,
      currency: 'USD',
    });
    expect((await constructEvent(BODY, SIGNATURE.toUpperCase(), SECRET)).id).toBe('evt_0001');
    expect((await constructEvent(new Uint8Array(Buffer.from(BODY)), [SIGNATURE], SECRET)).id).toBe('evt_0001');
  });

  it.each<[string, () => unknown, string, RegExp]>([
    [
      'an already parsed body',
      () => constructEvent(JSON.parse(BODY), SIGNATURE, SECRET),
      'webhook_body_not_raw',
      /already parsed.*express\.raw/,
    ],
    [
      'a body turned back into "[object Object]"',
      () => constructEvent(String({}), SIGNATURE, SECRET),
      'webhook_body_not_raw',
      /\[object Object\]/,
    ],
    ['a missing body', () => constructEvent(undefined, SIGNATURE, SECRET), 'webhook_body_not_raw', /raw request body/],
    [
      'a missing header',
      () => constructEvent(BODY, undefined, SECRET),
      'webhook_signature_missing',
      /no signature header/,
    ],
    [
      'the wrong secret',
      () => constructEvent(BODY, SIGNATURE, 'whsec_test_other_secret_value'),
      'webhook_signature_mismatch',
      /Check the webhook secret/,
    ],
    [
      're-serialised JSON',
      () => constructEvent(JSON.stringify(JSON.parse(BODY), null, 2), SIGNATURE, SECRET),
      'webhook_signature_mismatch',
      /exact raw bytes/,
    ],
    [
      'a v1= request signature',
      () => constructEvent(BODY, `v1=${SIGNATURE}`, SECRET),
      'webhook_signature_mismatch',
      /does not match/,
    ],
  ])('rejects %s', async (_name, fn, code, message) => {
    const error = await thrown(fn);
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SECRET);
  });

  it('rejects a correctly signed body that is not an event, naming the field', async () => {
    const notJson = 'hello';
    const notEvent = JSON.stringify({ id: 'evt_1', type: 'order.settled', data: {} });

    const a = await thrown(async () => constructEvent(notJson, await signWebhookPayload(SECRET, notJson), SECRET));
    const b = await thrown(async () => constructEvent(notEvent, await signWebhookPayload(SECRET, notEvent), SECRET));

    expect(a).toBeInstanceOf(WebhookPayloadError);
    expect(a.message).toBe('The webhook body is signed correctly but is not JSON.');
    expect(b).toBeInstanceOf(WebhookPayloadError);
    expect(b.message).toContain('`created_at`');
  });
});

describe('createWebhookVerifier', () => {
  it('finds the signature in Node or fetch headers, with a custom prefix', async () => {
    const verifier = createWebhookVerifier({ secret: SECRET, headerPrefix: 'X-Acme-' });

    expect(verifier.signatureHeader).toBe('X-Acme-Signature');
    expect((await verifier.constructEvent(BODY, { 'x-acme-signature': SIGNATURE })).id).toBe('evt_0001');
    expect((await verifier.constructEvent(BODY, new Headers({ 'X-Acme-Signature': SIGNATURE }))).id).toBe('evt_0001');
    expect((await verifier.constructEvent(BODY, { 'X-Acme-Signature': SIGNATURE })).id).toBe('evt_0001');
    expect((await thrown(() => verifier.constructEvent(BODY, { 'x-service-signature': SIGNATURE }))).code).toBe(
      'webhook_signature_missing',
    );
  });

  it('verifies a delivery received by a plain node:http server', async () => {
    const verifier = createWebhookVerifier({ secret: SECRET });
    const received: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        try {
          received.push((await verifier.constructEvent(Buffer.concat(chunks), req.headers)).type);
          res.writeHead(200).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const good = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': SIGNATURE },
        body: BODY,
      });
      const bad = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': SIGNATURE },
        body: `${BODY} `,
      });

      expect([good.status, bad.status]).toEqual([200, 400]);
      expect(received).toEqual(['order.settled']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
