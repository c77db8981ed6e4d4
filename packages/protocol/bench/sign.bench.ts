/**
 * Signing cost per request: a KeyObject created once (what the signer does) against a raw Buffer key handed to
 * createHmac on every call (the slow path the issue warns about on Node 24). Prints figures and the ratio.
 */
import { createHmac } from 'node:crypto';
import { test } from 'vitest';
import { canonicalString, createHmacKey, createRequestSigner } from '../src/index.ts';

const secret = 'sk_test_benchmark_secret_0123456789';
const canonical = canonicalString({
  method: 'GET',
  path: '/api/partner/v1/domains/search',
  query: 'q=coffee',
  timestamp: 1750000000,
  nonce: 'n',
});
const key = createHmacKey(secret);
const raw = Buffer.from(secret);
const signer = createRequestSigner({ keyId: 'pk_test_bench', secret });
let sink = '';

test('HMAC-SHA256 of a canonical string: KeyObject once vs raw Buffer key per call', async ({ bench }) => {
  const once = await bench('KeyObject created once', () => {
    sink = createHmac('sha256', key).update(canonical).digest('hex');
  }).run();
  const baseline = await bench('baseline: raw Buffer key per call', () => {
    sink = createHmac('sha256', raw).update(canonical).digest('hex');
  }).run();
  const whole = await bench('whole request: createRequestSigner().sign', () => {
    sink = signer.sign({
      method: 'GET',
      path: '/api/partner/v1/domains/search',
      query: { q: 'coffee shop' },
    }).signature;
  }).run();
  const ops = (r: { throughput: { mean: number } }) => Math.round(r.throughput.mean);
  console.log(
    `[bench] HMAC with KeyObject: ${ops(once)} ops/s; raw Buffer key (baseline): ${ops(baseline)} ops/s; ratio ${(ops(once) / ops(baseline)).toFixed(2)}x`,
  );
  console.log(`[bench] whole request signature: ${ops(whole)} ops/s (${sink.length > 0 ? 'ok' : ''})`);
});
