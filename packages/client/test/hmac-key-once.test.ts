/**
 * The HMAC key is imported once per client as a Web Crypto `CryptoKey`, not once per attempt (importing the raw
 * secret for every signature is a second Web Crypto round trip). Counted by spying on `crypto.subtle.importKey`.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { ORIGIN, errorBody, mockAgent, searchAnswer, testClient } from './helpers.ts';

const agents: Array<ReturnType<typeof mockAgent>> = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

it('creates the HMAC key once per client, however many attempts it signs', async () => {
  const a = mockAgent();
  agents.push(a);
  const pool = a.get(ORIGIN);
  pool
    .intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search') })
    .reply(503, errorBody('internal_error', 'Busy'));
  pool
    .intercept({ path: (p) => p.startsWith('/api/partner/v1/domains/search') })
    .reply(200, JSON.stringify(searchAnswer))
    .times(3);
  const importKey = vi.spyOn(crypto.subtle, 'importKey');

  const { client } = testClient(a);
  await client.searchDomains('one');
  await client.searchDomains('two');
  await client.searchDomains('three');

  expect(importKey).toHaveBeenCalledTimes(1);
  importKey.mockRestore();
});
