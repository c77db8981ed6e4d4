/**
 * On Cloudflare Workers the bundled pino is its browser build, which ignores `redact`: the BFF's own logger there
 * passes each entry through `redactFields`, which must hide what pino's `redact` paths hide (secrets, card numbers,
 * order tokens; auth, signature and cookie headers) and leave everything else as it was.
 */
import { expect, it } from 'vitest';
import { redactFields } from '../src/logger.ts';

it('hides secret fields at any of the first levels and auth headers, and keeps the rest', () => {
  const entry = {
    level: 30,
    msg: 'order placed',
    secret: 'sk_test_abc',
    order: { id: 'ord_1', order_token: 'tok_x', payment: { card_number: '4242424242424242', brand: 'visa' } },
    req: {
      headers: {
        Authorization: 'Bearer abc',
        'x-service-signature': 'v1=deadbeef',
        cookie: 'sid=1',
        accept: 'application/json',
      },
    },
  };

  expect(redactFields(entry)).toEqual({
    level: 30,
    msg: 'order placed',
    secret: '[redacted]',
    order: { id: 'ord_1', order_token: '[redacted]', payment: { card_number: '[redacted]', brand: 'visa' } },
    req: {
      headers: {
        Authorization: '[redacted]',
        'x-service-signature': '[redacted]',
        cookie: '[redacted]',
        accept: 'application/json',
      },
    },
  });
  expect(entry.secret).toBe('sk_test_abc'); // a copy: the caller's object is unchanged
});
