/**
 * createBff validates its options once, at creation, with messages that teach; startBff checks where to listen.
 * No message ever contains the secret's value.
 */
import { describe, expect, it } from 'vitest';
import { BffOptionsError, createBff, startBff } from '../src/index.ts';
import { KEY_ID, SECRET } from './helpers.ts';

const marketplace = { baseUrl: 'https://marketplace.example', keyId: KEY_ID, secret: SECRET };

function problemsOf(make: () => unknown): readonly string[] {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(BffOptionsError);
    expect((error as Error).message).not.toContain(SECRET);
    return (error as BffOptionsError).problems;
  }
  throw new Error('expected BffOptionsError');
}

describe('createBff options', () => {
  it('accepts a valid configuration and returns a router', () => {
    const router = createBff({
      marketplace,
      allowedOrigins: ['https://shop.example', 'http://localhost:5173'],
      returnUrl: 'https://shop.example/thanks',
      logger: false,
    });
    expect(typeof router).toBe('function');
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'a misspelt secret',
      { marketplace: { baseUrl: marketplace.baseUrl, keyId: KEY_ID, apiSecret: SECRET } },
      [
        'received `marketplace.apiSecret`; did you mean `marketplace.secret`?',
        '`marketplace.secret` is required: the API secret of your Partner API credential (sk_…); load it from the environment, never from code',
      ],
    ],
    [
      'a near miss',
      { marketplace: { ...marketplace, keyid: KEY_ID } },
      ['received `marketplace.keyid`; did you mean `marketplace.keyId`?'],
    ],
    [
      'credentials at the top level',
      { secret: SECRET, keyId: KEY_ID, baseUrl: marketplace.baseUrl },
      [
        'received `secret`; did you mean `marketplace.secret`?',
        'received `keyId`; did you mean `marketplace.keyId`?',
        'received `baseUrl`; did you mean `marketplace.baseUrl`?',
        '`marketplace` is required: { baseUrl, keyId, secret } of your Partner API credential (or pass a ready `client`)',
      ],
    ],
    [
      'an unknown option',
      { marketplace, frobnicate: true },
      [
        'received unknown option `frobnicate`; known options: marketplace, client, returnUrl, cancelUrl, checkoutReturnOrigins, allowedOrigins, logger, searchCache, database, payments, allowTestCardsInProduction, onOrderFailed, onOrderEvent, orderDeadlineSeconds, webhook, onCheckoutCompleted, onEvent, upstreamBudget, visitorLimits, background, siblings, whois, brokerage, console, mcp, checkCredential, profile, metrics, requestDeadlineSeconds, now',
      ],
    ],
    [
      'nothing',
      {},
      [
        '`marketplace` is required: { baseUrl, keyId, secret } of your Partner API credential (or pass a ready `client`)',
      ],
    ],
    [
      'a missing base URL',
      { marketplace: { keyId: KEY_ID, secret: SECRET } },
      ['`marketplace.baseUrl` is required: the marketplace\'s service address, such as "https://marketplace.example"'],
    ],
    [
      'the API path in the base URL',
      { marketplace: { ...marketplace, baseUrl: 'https://marketplace.example/api/partner/v1' } },
      ['`marketplace.baseUrl` is the service address only: drop the trailing "/api/partner/v1" (the client adds it)'],
    ],
    [
      'a key id as the secret',
      { marketplace: { ...marketplace, secret: 'pk_test_oops' } },
      ['`marketplace.secret` looks like a key id (pk_…): use the API secret (sk_…) here and the pk_… value as `keyId`'],
    ],
    [
      'an origin with a slash',
      { marketplace, allowedOrigins: ['https://shop.example/'] },
      [
        '`allowedOrigins[0]` must be an origin only (scheme, host, port); received "https://shop.example/", did you mean "https://shop.example"?',
      ],
    ],
    [
      'a wildcard origin',
      { marketplace, allowedOrigins: ['*'] },
      [
        '`allowedOrigins[0]` must be an exact origin: wildcards are not allowed, list each origin (such as "https://shop.example")',
      ],
    ],
    [
      'origins as a string',
      { marketplace, allowedOrigins: 'https://shop.example' },
      ['`allowedOrigins` must be an array of origins such as ["https://shop.example"]'],
    ],
    [
      'a non-http return URL',
      { marketplace, returnUrl: 'ftp://shop.example/x' },
      ['`returnUrl` must be an absolute http(s) URL such as "https://shop.example/thanks"'],
    ],
    [
      'a bad header prefix',
      { marketplace: { ...marketplace, headerPrefix: 'X Service' } },
      ['`marketplace.headerPrefix` must be letters, digits and dashes ending in "-", such as "X-Service-"'],
    ],
    [
      'a logger that is not pino',
      { marketplace, logger: console },
      ['`logger` must be a pino logger, or false for no logging'],
    ],
    [
      'both marketplace and client',
      { marketplace, client: { searchDomains() {}, getDomain() {}, createCheckoutSession() {} } },
      ['pass either `marketplace` (a credential) or `client` (a ready PartnerClient), not both'],
    ],
    [
      'siblings that is not a boolean',
      { marketplace, siblings: 'off' },
      ['`siblings` must be true or false (false turns GET /siblings off)'],
    ],
    [
      'siblings with a ready client',
      { client: { searchDomains() {}, getDomain() {}, createCheckoutSession() {} }, siblings: true },
      [
        '`siblings` needs `marketplace` (the Public API is called at `marketplace.baseUrl`): with a ready `client`, leave `siblings` out',
      ],
    ],
    [
      'a misspelt option with an alias',
      { marketplace, origins: ['https://shop.example'] },
      ['received `origins`; did you mean `allowedOrigins`?'],
    ],
  ])('rejects %s', (_name, options, expected) => {
    expect(problemsOf(() => createBff(options as never))).toEqual(expected);
  });

  it('puts every problem in one error message, as a list', () => {
    try {
      createBff({ marketplace: { baseUrl: 'nope', keyId: '', secret: SECRET } } as never);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(
        'createBff: invalid options:\n' +
          '  - `marketplace.baseUrl` must be an absolute http(s) URL such as "https://marketplace.example"\n' +
          '  - `marketplace.keyId` must not be empty (the pk_… key id)',
      );
    }
  });
});

describe('startBff options', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a port out of range', { port: 70000 }, '`port` must be an integer from 0 to 65535 (0 picks a free port)'],
    [
      'a mount path without a slash',
      { mountPath: 'api' },
      '`mountPath` must be a path beginning with "/", such as "/" or "/api/domains"',
    ],
  ])('rejects %s before listening', async (_name, extra, expected) => {
    const error = await startBff({ marketplace, logger: false, ...extra } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BffOptionsError);
    expect((error as BffOptionsError).problems).toEqual([expected]);
  });
});
