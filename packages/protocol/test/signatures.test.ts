import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HEADER_PREFIX,
  ProtocolError,
  WebhookSignatureError,
  canonicalString,
  createHmacKey,
  createRequestSigner,
  headerNames,
  hmacHex,
  readSignatureHeaders,
  signWebhookPayload,
  verifySignature,
  verifyWebhookSignature,
  type SignRequestInput,
} from '../src/index.ts';

const keyId = 'pk_test_abc';
const secret = 'sk_test_s3cr3t';
const NOW = 1_750_000_000_000;

async function codeOf(fn: () => unknown): Promise<string | undefined> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof WebhookSignatureError) return e.code;
    throw e;
  }
  return undefined;
}

describe('request signing (Partner API spec 5.1 "Signature")', () => {
  it('matches an independently computed HMAC of the canonical string', async () => {
    const signer = createRequestSigner({ keyId, secret, now: () => NOW, nonce: () => 'nonce-1' });
    const signed = await signer.sign({
      method: 'GET',
      path: '/api/partner/v1/domains/search',
      query: { q: 'coffee shop' },
    });
    const canonical = [
      'GET',
      '/api/partner/v1/domains/search',
      'q=coffee%20shop',
      '1750000000',
      'nonce-1',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ].join('\n');
    expect(signed.signature).toBe(`v1=${await hmacHex(secret, canonical)}`);
    expect(signed.signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(signed.query).toBe('q=coffee%20shop');
    expect(signed.headers).toEqual({
      'X-Service-Key-Id': keyId,
      'X-Service-Timestamp': '1750000000',
      'X-Service-Nonce': 'nonce-1',
      'X-Service-Signature': signed.signature,
    });
  });

  it('uses a fresh nonce and the current second on every call', async () => {
    let t = NOW;
    const signer = createRequestSigner({ keyId, secret, now: () => t });
    const a = await signer.sign({ method: 'GET', path: '/p' });
    t += 2000;
    const b = await signer.sign({ method: 'GET', path: '/p' });
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.nonce).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(b.timestamp) - Number(a.timestamp)).toBe(2);
  });

  it('derives header names from the configured prefix', async () => {
    const signer = createRequestSigner({ keyId, secret, headerPrefix: 'X-Acme-' });
    expect(Object.keys((await signer.sign({ method: 'GET', path: '/p' })).headers).sort()).toEqual([
      'X-Acme-Key-Id',
      'X-Acme-Nonce',
      'X-Acme-Signature',
      'X-Acme-Timestamp',
    ]);
    expect(() => headerNames('X Acme')).toThrow(/ending in "-"/);
    expect(DEFAULT_HEADER_PREFIX).toBe('X-Service-');
  });

  it('refuses to sign with the key id as the secret', async () => {
    expect(() => createRequestSigner({ keyId, secret: keyId })).toThrow(/sk_/);
    expect(() => createRequestSigner({ keyId, secret: 'pk_test_other' })).toThrow(/key id/);
    expect(() => createRequestSigner({ keyId, secret: '' })).toThrow(/secret is required/);
  });
});

describe('readSignatureHeaders (Partner API spec 5.1, 7)', () => {
  const signer = createRequestSigner({ keyId, secret, now: () => NOW });
  const base = async () => ({ ...(await signer.sign({ method: 'GET', path: '/p' })).headers });
  const lower = (h: Record<string, string>) =>
    Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

  it('accepts fresh headers in any case', async () => {
    expect(readSignatureHeaders(lower(await base()), { now: NOW }).keyId).toBe(keyId);
    expect(readSignatureHeaders(new Headers(await base()), { now: NOW }).keyId).toBe(keyId);
  });

  it('answers missing_credentials without a key id and missing_signature_headers without the others', async () => {
    const h = await base();
    delete h['X-Service-Key-Id'];
    expect(await codeOf(() => readSignatureHeaders(h, { now: NOW }))).toBe('missing_credentials');
    for (const name of ['X-Service-Timestamp', 'X-Service-Nonce', 'X-Service-Signature']) {
      const partial = await base();
      delete partial[name];
      expect(await codeOf(() => readSignatureHeaders(partial, { now: NOW }))).toBe('missing_signature_headers');
    }
  });

  it('answers invalid_timestamp beyond ±300 s, for milliseconds and for garbage', async () => {
    const headers = await base();
    const at = (ts: string) =>
      codeOf(() => readSignatureHeaders({ ...headers, 'X-Service-Timestamp': ts }, { now: NOW }));
    expect(await at(String(NOW / 1000 + 300))).toBeUndefined();
    expect(await at(String(NOW / 1000 - 300))).toBeUndefined();
    expect(await at(String(NOW / 1000 + 301))).toBe('invalid_timestamp');
    expect(await at(String(NOW / 1000 - 301))).toBe('invalid_timestamp');
    expect(await at(String(NOW))).toBe('invalid_timestamp');
    expect(await at('1.5e9')).toBe('invalid_timestamp');
    expect(await at('-1')).toBe('invalid_timestamp');
    expect(() => readSignatureHeaders({ ...headers, 'X-Service-Timestamp': String(NOW) }, { now: NOW })).toThrow(
      /milliseconds/,
    );
  });
});

describe('verifySignature', async () => {
  const key = await createHmacKey(secret);
  const signer = createRequestSigner({ keyId, secret, now: () => NOW });

  it('rejects a missing v1= prefix and malformed hex', async () => {
    const s = await signer.sign({ method: 'GET', path: '/p' });
    const input = { key, method: 'GET', path: '/p', timestamp: s.timestamp, nonce: s.nonce };
    expect(await codeOf(() => verifySignature({ ...input, signature: s.signature }))).toBeUndefined();
    expect(await codeOf(() => verifySignature({ ...input, signature: s.signature.slice(3) }))).toBe(
      'invalid_signature',
    );
    expect(await codeOf(() => verifySignature({ ...input, signature: s.signature.toUpperCase() }))).toBe(
      'invalid_signature',
    );
    expect(await codeOf(() => verifySignature({ ...input, signature: 'v1=abc' }))).toBe('invalid_signature');
  });

  it('rejects a signature made with the key id', async () => {
    const s = await signer.sign({ method: 'GET', path: '/p' });
    const wrong = `v1=${await hmacHex(keyId, await canonicalString({ method: 'GET', path: '/p', timestamp: s.timestamp, nonce: s.nonce }))}`;
    expect(
      await codeOf(() =>
        verifySignature({ key, method: 'GET', path: '/p', timestamp: s.timestamp, nonce: s.nonce, signature: wrong }),
      ),
    ).toBe('invalid_signature');
  });

  const token = fc.string({ unit: fc.constantFrom(..."Aaz09._~ !'()*+|&=%-", 'ሴ', '😀'), maxLength: 12 });
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
    path: fc
      .array(fc.stringMatching(/^[a-z0-9-]{1,10}$/), { minLength: 1, maxLength: 4 })
      .map((s) => `/api/partner/v1/${s.join('/')}`),
    query: fc.array(fc.tuple(token, token), { maxLength: 5 }),
    body: fc.uint8Array({ maxLength: 64 }),
    timestamp: fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }).map(String),
    nonce: fc.uuid(),
  });

  it('property: sign then verify holds for any request', async () => {
    fc.assert(
      fc.asyncProperty(request, async (r) => {
        const signed = await signer.sign(r as SignRequestInput);
        await verifySignature({ key, ...r, query: signed.query, signature: signed.signature });
      }),
    );
  });

  it('property: changing method, path, a query pair, a body byte, the timestamp or the nonce breaks it', async () => {
    await fc.assert(
      fc.asyncProperty(
        request,
        fc.nat(),
        fc.constantFrom('method', 'path', 'query', 'body', 'timestamp', 'nonce'),
        async (r, n, field) => {
          const signed = await signer.sign(r as SignRequestInput);
          const t = { ...r, query: [...r.query] as Array<[string, string]>, body: Uint8Array.from(r.body) };
          switch (field) {
            case 'method':
              t.method = r.method === 'GET' ? 'POST' : 'GET';
              break;
            case 'path':
              t.path = `${r.path}x`;
              break;
            case 'query':
              if (t.query.length === 0) t.query.push(['k', 'v']);
              else {
                const i = n % t.query.length;
                const [k, v] = t.query[i]!;
                t.query[i] = [k, `${v}!`];
              }
              break;
            case 'body':
              if (t.body.length === 0) t.body = Uint8Array.of(n % 256);
              else {
                const i = n % t.body.length;
                t.body[i] = (t.body[i]! + 1 + (n % 255)) % 256;
              }
              break;
            case 'timestamp':
              t.timestamp = String(Number(r.timestamp) + 1 + (n % 1000));
              break;
            case 'nonce':
              t.nonce = `${r.nonce}0`;
              break;
          }
          expect(await codeOf(() => verifySignature({ key, ...t, signature: signed.signature }))).toBe(
            'invalid_signature',
          );
        },
      ),
    );
  });
});

describe('webhook signatures (Partner API spec 5.3)', () => {
  const vector = {
    secret: "It's a Secret to Everybody",
    body: 'Hello, World!',
    hex: '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
  };

  it('matches the known-answer vector', async () => {
    expect(await signWebhookPayload(vector.secret, vector.body)).toBe(vector.hex);
    expect(await signWebhookPayload(await createHmacKey(vector.secret), Buffer.from(vector.body))).toBe(vector.hex);
  });

  it('verifies the raw bytes and teaches when the body was parsed', async () => {
    await expect(
      verifyWebhookSignature({ secret: vector.secret, rawBody: Buffer.from(vector.body), signature: vector.hex }),
    ).resolves.toBeUndefined();
    expect(
      await codeOf(() =>
        verifyWebhookSignature({ secret: vector.secret, rawBody: { hello: 'world' }, signature: vector.hex }),
      ),
    ).toBe('webhook_body_not_raw');
    await expect(
      verifyWebhookSignature({ secret: vector.secret, rawBody: { a: 1 }, signature: vector.hex }),
    ).rejects.toThrow(/raw request body/);
    expect(
      await codeOf(() => verifyWebhookSignature({ secret: vector.secret, rawBody: vector.body, signature: undefined })),
    ).toBe('webhook_signature_missing');
    expect(
      await codeOf(() =>
        verifyWebhookSignature({ secret: vector.secret, rawBody: 'Hello, World?', signature: vector.hex }),
      ),
    ).toBe('webhook_signature_mismatch');
    expect(
      await codeOf(() => verifyWebhookSignature({ secret: 'other', rawBody: vector.body, signature: vector.hex })),
    ).toBe('webhook_signature_mismatch');
    expect(
      await codeOf(() =>
        verifyWebhookSignature({ secret: vector.secret, rawBody: vector.body, signature: `v1=${vector.hex}` }),
      ),
    ).toBe('webhook_signature_mismatch');
  });
});
