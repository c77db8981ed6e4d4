/**
 * The HMAC key is created once per client as a KeyObject, not once per attempt (a raw key makes each signature
 * several times slower on Node 24). Counted by wrapping node:crypto's createSecretKey.
 */
import * as crypto from 'node:crypto';
import { afterEach, expect, it, vi } from 'vitest';
import { ORIGIN, errorBody, mockAgent, searchAnswer, testClient } from './helpers.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, createSecretKey: vi.fn(original.createSecretKey) };
});

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
  const createSecretKey = vi.mocked(crypto.createSecretKey);
  createSecretKey.mockClear();

  const { client } = testClient(a);
  await client.searchDomains('one');
  await client.searchDomains('two');
  await client.searchDomains('three');

  expect(createSecretKey).toHaveBeenCalledTimes(1);
});
