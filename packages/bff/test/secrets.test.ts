/**
 * The secret and the signing headers never reach the browser or the logs; headers a browser sends to impersonate
 * a signed request are ignored (the BFF signs its own upstream requests and forwards no request headers).
 */
import { describe, expect, it } from 'vitest';
import { KEY_ID, SECRET, call, postJson, startTestBff, type Answer, useStubAndBff } from './helpers.ts';

const suite = useStubAndBff();

describe('client-sent signing headers', () => {
  it('are ignored: upstream sees only the BFF credential and its own fresh signature', async () => {
    const forged = {
      'x-service-key-id': 'pk_test_attacker',
      'x-service-signature': `v1=${'a'.repeat(64)}`,
      'x-service-nonce': 'attacker-nonce',
      'x-service-timestamp': '1',
      authorization: 'Bearer stolen',
      'idempotency-key': 'attacker-key',
    };

    const res = await call(`${suite.bff.url}/search?q=forged`, { headers: forged });

    expect(res.status).toBe(200);
    const upstream = suite.stub.callsTo('search').at(-1)!;
    expect(upstream.query).toBe('q=forged');
    expect(upstream.headers['x-service-key-id']).toBe(KEY_ID);
    expect(upstream.headers['x-service-signature']).not.toBe(forged['x-service-signature']);
    expect(upstream.headers['x-service-nonce']).not.toBe(forged['x-service-nonce']);
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.headers['idempotency-key']).toBeUndefined();
  });
});

describe('the secret', () => {
  it('appears in no response body or header and no log line, across successes and every kind of failure', async () => {
    suite.stub.enqueue('search', { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } });
    suite.stub.enqueue('domain', {
      status: 429,
      body: { error: { code: 'rate_limited', message: 'slow' } },
      headers: { 'retry-after': '9' },
    });
    const answers: Answer[] = [];
    answers.push(await call(`${suite.bff.url}/search?q=broken`));
    answers.push(await call(`${suite.bff.url}/domains/coffeehouse.com`));
    answers.push(await call(`${suite.bff.url}/search?q=coffee`));
    answers.push(await call(`${suite.bff.url}/domains/coffeeshop.io`));
    answers.push(await call(`${suite.bff.url}/domains/unlisted.com`));
    answers.push(await postJson(`${suite.bff.url}/checkout`, { domain: 'coffeehouse.com' }));
    answers.push(await postJson(`${suite.bff.url}/checkout`, { domain: 'x', secret: SECRET }));
    answers.push(await call(`${suite.bff.url}/search?q=${'z'.repeat(300)}`));
    answers.push(await call(`${suite.bff.url}/healthz`));
    const wrong = await startTestBff(suite.stub, {
      marketplace: { baseUrl: suite.stub.url, keyId: KEY_ID, secret: `${SECRET}-rotated`, maxRetries: 0 },
    });
    answers.push(await call(`${wrong.url}/search?q=denied`));
    await wrong.close();

    const signatures = suite.stub.calls.map((c) => String(c.headers['x-service-signature']).slice(3));
    expect(signatures.length).toBeGreaterThan(3);
    const responses = answers.map((a) => `${JSON.stringify(a.headers)}\n${a.text}`);
    const logs = [...suite.bff.lines, ...wrong.lines];
    expect(logs.length).toBeGreaterThan(5);
    for (const text of [...responses, ...logs]) {
      expect(text).not.toContain(SECRET);
      for (const signature of signatures) expect(text).not.toContain(signature);
    }
    for (const answer of answers) {
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('x-service-') || h === 'authorization')).toEqual(
        [],
      );
    }
  });
});
