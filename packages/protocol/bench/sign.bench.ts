/**
 * Signing cost per request on Web Crypto (what protocol signs with, on every runtime) against Node's synchronous
 * `node:crypto` HMAC with a KeyObject (the Node-only path protocol used before), and a whole request signature.
 * Prints figures and the ratio: a Node fast path is only worth keeping if Web Crypto is too slow for a BFF, whose
 * upstream budget is a few hundred requests a minute.
 */
import { createHmac, createSecretKey } from 'node:crypto';
import { test } from 'vitest';
import { canonicalString, createHmacKey, createRequestSigner, hmacHex } from '../src/index.ts';

const secret = 'sk_test_benchmark_secret_0123456789';
const canonical = await canonicalString({
  method: 'GET',
  path: '/api/partner/v1/domains/search',
  query: 'q=coffee',
  timestamp: 1750000000,
  nonce: 'n',
});
const key = await createHmacKey(secret);
const nodeKey = createSecretKey(Buffer.from(secret));
const signer = createRequestSigner({ keyId: 'pk_test_bench', secret });
let sink = '';

test('HMAC-SHA256 of a canonical string: Web Crypto vs node:crypto', async ({ bench }) => {
  const web = await bench('Web Crypto, CryptoKey imported once', async () => {
    sink = await hmacHex(key, canonical);
  }).run();
  const node = await bench('baseline: node:crypto createHmac, KeyObject once', () => {
    sink = createHmac('sha256', nodeKey).update(canonical).digest('hex');
  }).run();
  const whole = await bench('whole request: createRequestSigner().sign', async () => {
    sink = (
      await signer.sign({
        method: 'GET',
        path: '/api/partner/v1/domains/search',
        query: { q: 'coffee shop' },
      })
    ).signature;
  }).run();
  const ops = (r: { throughput: { mean: number } }) => Math.round(r.throughput.mean);
  console.log(
    `[bench] HMAC on Web Crypto: ${ops(web)} ops/s; node:crypto (baseline): ${ops(node)} ops/s; ratio ${(ops(web) / ops(node)).toFixed(2)}x`,
  );
  console.log(`[bench] whole request signature: ${ops(whole)} ops/s (${sink.length > 0 ? 'ok' : ''})`);
});
