/**
 * The API secret never leaves the client (Partner API spec 5.1 "never sent, never logged"): not in any property, toString,
 * util.inspect or JSON of the client, nor in any error it raises, nor in option-validation messages.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../src/index.ts';
import { KEY_ID, ORIGIN, SECRET, errorBody, mockAgentPerTest, testClient } from './helpers.ts';

const agent = mockAgentPerTest();

function renderings(value: unknown): string[] {
  return [
    String(value),
    `${value as string}`,
    JSON.stringify(value) ?? '',
    inspect(value),
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    value instanceof Error ? (value.stack ?? '') : '',
  ];
}

describe('the secret', () => {
  it('is in no rendering of the client', () => {
    const { client } = testClient(agent());
    for (const text of renderings(client)) expect(text).not.toContain(SECRET);
    expect(Object.values(Object.getOwnPropertyDescriptors(client)).map((d) => String(d.value))).not.toContain(SECRET);
    expect(JSON.stringify(client)).toBe(JSON.stringify({ baseUrl: ORIGIN, keyId: KEY_ID }));
  });

  it('is in no error the client raises', async () => {
    const a = agent();
    const pool = a.get(ORIGIN);
    pool
      .intercept({ path: '/api/partner/v1/domains/a.com' })
      .reply(401, errorBody('invalid_signature', 'Signature mismatch'));
    pool.intercept({ path: '/api/partner/v1/domains/b.com' }).reply(500, errorBody('internal_error', 'Boom'));
    pool.intercept({ path: '/api/partner/v1/domains/c.com' }).replyWithError(new Error('ECONNREFUSED'));
    pool.intercept({ path: '/api/partner/v1/domains/d.com' }).reply(200, '{"domain": 1}');
    pool.intercept({ path: '/api/partner/v1/domains/e.com' }).reply(200, '{}').delay(60_000);
    const { client } = testClient(a, { maxRetries: 0, timeoutMs: 20 });

    const errors = await Promise.all(
      ['a.com', 'b.com', 'c.com', 'd.com', 'e.com', 'not a domain', 'f.com'].map((d) =>
        client.getDomain(d).catch((e: unknown) => e),
      ),
    );

    expect(errors.map((e) => (e as { code: string }).code)).toEqual([
      'invalid_signature',
      'internal_error',
      'connection_error',
      'invalid_response',
      'connection_error',
      'validation_error',
      'connection_error', // no interceptor: the MockAgent refuses the request
    ]);
    for (const error of errors) for (const text of renderings(error)) expect(text).not.toContain(SECRET);
  });

  it('is never echoed by option validation, which names the option to fix', () => {
    const attempt = (options: Record<string, unknown>) => {
      try {
        new PartnerClient(options as never);
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected the constructor to throw');
    };

    const misspelt = attempt({ baseUrl: ORIGIN, keyId: KEY_ID, apiSecret: SECRET });
    expect(misspelt).toBeInstanceOf(TypeError);
    expect(misspelt.message).toContain('received unknown option `apiSecret`; did you mean `secret`?');
    expect(misspelt.message).toContain('`secret` is required');
    expect(misspelt.message).not.toContain(SECRET);

    const swapped = attempt({ baseUrl: ORIGIN, keyId: SECRET, secret: KEY_ID });
    expect(swapped.message).toMatch(/looks like a key id/);
    expect(swapped.message).not.toContain(SECRET);

    expect(attempt({ keyId: KEY_ID, secret: SECRET }).message).toContain('`baseUrl` is required');
    expect(attempt({ baseUrl: `${ORIGIN}/api/partner/v1`, keyId: KEY_ID, secret: SECRET }).message).toContain(
      'drop the trailing "/api/partner/v1"',
    );
    expect(attempt({ baseUrl: 'marketplace.test', keyId: KEY_ID, secret: SECRET }).message).toContain(
      'must be an absolute http(s) URL',
    );
    expect(attempt({ baseUrl: ORIGIN, keyId: KEY_ID, secret: SECRET, headerPrefix: 'X Service' }).message).toContain(
      'header prefix',
    );
  });
});
