/**
 * Bad input from the browser: each case gets a 4xx with the code and a message that says what to fix, never a 500
 * or a stack trace, and nothing is sent upstream.
 */
import { describe, expect, it } from 'vitest';
import { call, type Answer, useStubAndBff } from './helpers.ts';

const suite = useStubAndBff();

type Case = [
  name: string,
  send: () => Promise<Answer>,
  status: number,
  code: string,
  message: RegExp,
  extra?: Record<string, unknown>,
];

const json = { 'content-type': 'application/json' };
const cases: Case[] = [
  [
    'missing q',
    () => call(`${suite.bff.url}/search`),
    400,
    'validation_error',
    /^`q` is required: a word or a domain to search for, 1–100 characters such as "coffee"\.$/,
  ],
  [
    'empty q',
    () => call(`${suite.bff.url}/search?q=`),
    400,
    'validation_error',
    /^`q` is empty: give a word or a domain to search for/,
  ],
  ['blank q', () => call(`${suite.bff.url}/search?q=%20%20%20`), 400, 'validation_error', /^`q` is empty/],
  [
    '300-character q',
    () => call(`${suite.bff.url}/search?q=${'a'.repeat(300)}`),
    400,
    // Its own code, so that the widget can say "too long" in the visitor's language (and offer no Retry).
    'query_too_long',
    /^`q` is too long: at most 100 characters \(received 300\)\.$/,
    { max_length: 100 },
  ],
  [
    'q given twice',
    () => call(`${suite.bff.url}/search?q=a&q=b`),
    400,
    'validation_error',
    /^`q` must be given once; received it 2 times\.$/,
  ],
  [
    'unknown query parameter',
    () => call(`${suite.bff.url}/search?q=coffee&page=2`),
    400,
    'validation_error',
    /^Unknown query parameter `page`: only `q` is accepted\.$/,
  ],
  [
    'malformed domain',
    () => call(`${suite.bff.url}/domains/not_a_domain`),
    400,
    'validation_error',
    /^The domain in the path must be a domain name such as "example\.com"/,
  ],
  [
    'domain without a TLD',
    () => call(`${suite.bff.url}/domains/localhost`),
    400,
    'validation_error',
    /must be a domain name/,
  ],
  [
    'malformed percent-escape',
    () => call(`${suite.bff.url}/domains/%E0%A4%A`),
    400,
    'validation_error',
    /malformed percent-escape/,
  ],
  [
    'query on /domains',
    () => call(`${suite.bff.url}/domains/coffeehouse.com?debug=1`),
    400,
    'validation_error',
    /^Unknown query parameter `debug`: this endpoint takes no query parameters\.$/,
  ],
  [
    'unknown body field',
    () =>
      call(`${suite.bff.url}/checkout`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ domain: 'coffeehouse.com', price_cents: 1 }),
      }),
    400,
    'validation_error',
    /^Unknown field `price_cents` in the body: only `domain`, `return_url`, `cancel_url`, `locale` are accepted\.$/,
  ],
  [
    'missing domain',
    () => call(`${suite.bff.url}/checkout`, { method: 'POST', headers: json, body: '{}' }),
    400,
    'validation_error',
    /^`domain` is required: the domain name to buy such as "coffeehouse\.com"\.$/,
  ],
  [
    'domain not a string',
    () => call(`${suite.bff.url}/checkout`, { method: 'POST', headers: json, body: '{"domain": 42}' }),
    400,
    'validation_error',
    /^`domain` must be a string/,
  ],
  [
    'malformed domain in body',
    () => call(`${suite.bff.url}/checkout`, { method: 'POST', headers: json, body: '{"domain": "bad domain"}' }),
    400,
    'validation_error',
    /^`domain` must be a domain name/,
  ],
  [
    'body is an array',
    () => call(`${suite.bff.url}/checkout`, { method: 'POST', headers: json, body: '["coffeehouse.com"]' }),
    400,
    'validation_error',
    /^The body must be a JSON object such as \{"domain":"coffeehouse\.com"\}\.$/,
  ],
  [
    'malformed JSON',
    () => call(`${suite.bff.url}/checkout`, { method: 'POST', headers: json, body: '{"domain": ' }),
    400,
    'validation_error',
    /^The body is not valid JSON/,
  ],
  [
    'text/plain body',
    () =>
      call(`${suite.bff.url}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'coffeehouse.com',
      }),
    415,
    'unsupported_media_type',
    /Content-Type: application\/json \(received "text\/plain"\)/,
  ],
  [
    'form body',
    () =>
      call(`${suite.bff.url}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'domain=a.com',
      }),
    415,
    'unsupported_media_type',
    /application\/json/,
  ],
  [
    'no content type',
    () => call(`${suite.bff.url}/checkout`, { method: 'POST', body: '{"domain":"coffeehouse.com"}' }),
    415,
    'unsupported_media_type',
    /^Send the body as JSON/,
  ],
  [
    'body over 16 kB',
    () =>
      call(`${suite.bff.url}/checkout`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ domain: 'coffeehouse.com', pad: 'x'.repeat(17 * 1024) }),
      }),
    413,
    'payload_too_large',
    /^The body is larger than 16 kB/,
  ],
  [
    'query on /checkout',
    () =>
      call(`${suite.bff.url}/checkout?domain=a.com`, {
        method: 'POST',
        headers: json,
        body: '{"domain":"coffeehouse.com"}',
      }),
    400,
    'validation_error',
    /^Unknown query parameter `domain`/,
  ],
];

describe('bad input', () => {
  it.each(cases)('%s', async (_name, send, status, code, message, extra = {}) => {
    const before = suite.stub.calls.length;

    const res = await send();

    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error: { code, message: expect.stringMatching(message), ...extra } });
    expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/); // no stack trace
    expect(res.headers['content-security-policy']).toBeDefined();
    expect(suite.stub.calls.length).toBe(before);
  });
});
