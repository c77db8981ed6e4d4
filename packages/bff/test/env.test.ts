/**
 * Configuration from the environment: one error naming every missing or invalid variable (never echoing the
 * secret), defaults for the rest; and the CLI that starts from it and stops on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BffConfigError, loadBffConfigFromEnv } from '../src/index.ts';
import { spawnCli } from '../../../test/setup/child-process.ts';
import { KEY_ID, SECRET, call, startStubMarketplace } from './helpers.ts';

const complete = {
  DOMAINKIT_API_BASE_URL: 'https://marketplace.example',
  DOMAINKIT_KEY_ID: KEY_ID,
  DOMAINKIT_API_SECRET: SECRET,
};

function configError(env: Record<string, string>): BffConfigError {
  try {
    loadBffConfigFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(BffConfigError);
    expect((error as Error).message).not.toContain(SECRET);
    return error as BffConfigError;
  }
  throw new Error('expected BffConfigError');
}

describe('loadBffConfigFromEnv', () => {
  it('names each missing required variable in one error', () => {
    const error = configError({});

    expect(error.problems.map((p) => p.variable)).toEqual([
      'DOMAINKIT_API_BASE_URL',
      'DOMAINKIT_KEY_ID',
      'DOMAINKIT_API_SECRET',
    ]);
    expect(error.message).toContain('DOMAINKIT_API_BASE_URL is missing: set it to the marketplace service address');
    expect(error.message).toContain(
      'DOMAINKIT_KEY_ID is missing: set it to the public key id of your Partner API credential (pk_…)',
    );
    expect(error.message).toContain(
      'DOMAINKIT_API_SECRET is missing: set it to the API secret of your Partner API credential (sk_…)',
    );
  });

  it('treats blank values as missing', () => {
    expect(configError({ ...complete, DOMAINKIT_KEY_ID: '   ' }).problems.map((p) => p.variable)).toEqual([
      'DOMAINKIT_KEY_ID',
    ]);
  });

  it('names each invalid variable with what is wrong', () => {
    const error = configError({
      DOMAINKIT_API_BASE_URL: 'https://marketplace.example/api/partner/v1',
      DOMAINKIT_KEY_ID: KEY_ID,
      DOMAINKIT_API_SECRET: 'pk_test_swapped',
      DOMAINKIT_HEADER_PREFIX: 'X_Acme',
      DOMAINKIT_ALLOWED_ORIGINS: 'https://shop.example, https://blog.example/',
      DOMAINKIT_RETURN_URL: 'shop.example/thanks',
      PORT: 'eighty',
    });

    expect(error.problems).toEqual([
      {
        variable: 'DOMAINKIT_API_BASE_URL',
        problem:
          'is the service address only: drop the trailing "/api/partner/v1" (the client adds it); received "https://marketplace.example/api/partner/v1"',
      },
      {
        variable: 'DOMAINKIT_API_SECRET',
        problem: 'looks like a key id (pk_…): put the sk_… API secret here and the pk_… value in DOMAINKIT_KEY_ID',
      },
      {
        variable: 'DOMAINKIT_HEADER_PREFIX',
        problem: 'must be letters, digits and dashes ending in "-", such as "X-Service-"; received "X_Acme"',
      },
      {
        variable: 'DOMAINKIT_ALLOWED_ORIGINS',
        problem:
          'entry "https://blog.example/" must be an origin only (scheme, host, port); received "https://blog.example/", did you mean "https://blog.example"?',
      },
      {
        variable: 'DOMAINKIT_RETURN_URL',
        problem:
          'must be an absolute http(s) URL such as "https://shop.example/thanks"; received "shop.example/thanks"',
      },
      { variable: 'PORT', problem: 'must be an integer from 0 to 65535; received "eighty"' },
    ]);
  });

  it('reads a complete environment, with defaults for port and host', () => {
    expect(loadBffConfigFromEnv(complete)).toEqual({
      marketplace: { baseUrl: complete.DOMAINKIT_API_BASE_URL, keyId: KEY_ID, secret: SECRET },
      database: { dataDir: '.data/bff' },
      port: 8787,
      host: '127.0.0.1',
    });
    expect(
      loadBffConfigFromEnv({
        ...complete,
        DOMAINKIT_HEADER_PREFIX: 'X-Acme-',
        DOMAINKIT_ALLOWED_ORIGINS: ' https://shop.example ,http://localhost:5173,',
        DOMAINKIT_RETURN_URL: 'https://shop.example/thanks',
        DOMAINKIT_CANCEL_URL: 'https://shop.example/cart',
        PORT: '9000',
        HOST: '0.0.0.0',
      }),
    ).toEqual({
      marketplace: { baseUrl: complete.DOMAINKIT_API_BASE_URL, keyId: KEY_ID, secret: SECRET, headerPrefix: 'X-Acme-' },
      allowedOrigins: ['https://shop.example', 'http://localhost:5173'],
      returnUrl: 'https://shop.example/thanks',
      cancelUrl: 'https://shop.example/cart',
      database: { dataDir: '.data/bff' },
      port: 9000,
      host: '0.0.0.0',
    });
  });

  it('reads the database, payments, webhook and proxy settings', () => {
    const config = loadBffConfigFromEnv({
      ...complete,
      DATABASE_URL: 'postgres://bff:pw@db.internal:5432/shop',
      DOMAINKIT_DATABASE_SCHEMA: 'domainkit',
      DOMAINKIT_PAYMENTS: 'test_card',
      DOMAINKIT_WEBHOOK_SECRET: 'whsec_test_0123456789abcdef',
      DOMAINKIT_WEBHOOK_PUBLIC_URL: 'https://shop.example/api/domains/webhooks',
      DOMAINKIT_TRUST_PROXY: '1',
    });

    expect(config.database).toEqual({ url: 'postgres://bff:pw@db.internal:5432/shop', schema: 'domainkit' });
    expect(config.payments?.name).toBe('test_card');
    expect(config.webhook).toEqual({
      secret: 'whsec_test_0123456789abcdef',
      publicUrl: 'https://shop.example/api/domains/webhooks',
    });
    expect(config.trustProxy).toBe(1);
    expect(loadBffConfigFromEnv({ ...complete, DOMAINKIT_DATA_DIR: '/var/lib/bff' }).database).toEqual({
      dataDir: '/var/lib/bff',
    });
  });

  it('reads the budget, search cache and visitor-limit settings, and names each invalid one', () => {
    const config = loadBffConfigFromEnv({
      ...complete,
      DOMAINKIT_SEARCH_BUDGET_PER_MINUTE: '30',
      DOMAINKIT_SEARCH_BUDGET_BURST: '3',
      DOMAINKIT_SEARCH_MAX_WAIT_MS: '250',
      DOMAINKIT_SEARCH_CACHE_TTL_SECONDS: '3600',
      DOMAINKIT_SEARCH_CACHE_MEMORY_ENTRIES: '2000',
      DOMAINKIT_SEARCH_INDEX: 'false',
      DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE: '60',
    });
    expect(config.upstreamBudget).toEqual({ search: { perMinute: 30, burst: 3 }, searchMaxWaitMs: 250 });
    expect(config.searchCache).toEqual({ ttlSeconds: 3600, maxEntries: 2000, index: false });
    expect(config.visitorLimits).toEqual({ searchesPerMinute: 60 });
    expect(loadBffConfigFromEnv({ ...complete, DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE: 'off' }).visitorLimits).toBe(
      false,
    );

    const error = configError({
      ...complete,
      DOMAINKIT_SEARCH_BUDGET_PER_MINUTE: '6',
      DOMAINKIT_SEARCH_BUDGET_BURST: '6',
      DOMAINKIT_SEARCH_MAX_WAIT_MS: '-1',
      DOMAINKIT_SEARCH_INDEX: 'yes',
    });
    expect(error.problems.map((p) => p.variable)).toEqual([
      'DOMAINKIT_SEARCH_BUDGET_BURST',
      'DOMAINKIT_SEARCH_MAX_WAIT_MS',
      'DOMAINKIT_SEARCH_INDEX',
    ]);
  });

  it('names each invalid database, payments, webhook and proxy setting, never echoing a password', () => {
    const error = configError({
      ...complete,
      DATABASE_URL: 'mysql://root:hunter2@db/shop',
      DOMAINKIT_PAYMENTS: 'stripe',
      DOMAINKIT_WEBHOOK_PUBLIC_URL: 'shop.example/hooks',
      DOMAINKIT_TRUST_PROXY: 'yes',
      DOMAINKIT_LOG_LEVEL: 'loud',
    });

    expect(error.problems.map((p) => p.variable)).toEqual([
      'DATABASE_URL',
      'DOMAINKIT_PAYMENTS',
      'DOMAINKIT_WEBHOOK_PUBLIC_URL',
      'DOMAINKIT_WEBHOOK_PUBLIC_URL',
      'DOMAINKIT_TRUST_PROXY',
      'DOMAINKIT_LOG_LEVEL',
    ]);
    expect(error.message).toContain('DOMAINKIT_PAYMENTS must be "test_card"');
    expect(error.message).toContain('needs DOMAINKIT_WEBHOOK_SECRET');
    expect(error.message).not.toContain('hunter2');
  });
});

describe('the CLI', () => {
  it('refuses to start with a bad environment, naming each variable, without a stack trace', async () => {
    const cli = spawnCli('bff', [], { DOMAINKIT_API_SECRET: SECRET, PORT: '-1' });
    const code = await cli.closed;

    expect(code).toBe(78);
    for (const name of ['DOMAINKIT_API_BASE_URL', 'DOMAINKIT_KEY_ID', 'PORT']) expect(cli.stderr()).toContain(name);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
    expect(cli.output()).not.toContain(SECRET);
  });

  it('starts from the environment, serves, and stops cleanly on SIGTERM', async () => {
    const stub = await startStubMarketplace();
    const dataDir = mkdtempSync(join(tmpdir(), 'dk-bff-cli-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const cli = spawnCli('bff', [], {
      DOMAINKIT_API_BASE_URL: stub.url,
      DOMAINKIT_KEY_ID: KEY_ID,
      DOMAINKIT_API_SECRET: SECRET,
      DOMAINKIT_DATA_DIR: dataDir, // the standalone server keeps its state in a data folder
      PORT: '0',
      HOST: '127.0.0.1',
    });
    try {
      const url = await cli.logged('domainkit BFF listening');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const res = await call(`${url}/search?q=coffee`);
      expect(res.status).toBe(200);
      expect(res.json.results.length).toBeGreaterThan(0);

      await cli.stop('SIGTERM');
      expect(await cli.closed).toBe(0);
      expect(cli.stderr()).toContain('SIGTERM received, closing');
      expect(cli.output()).not.toContain(SECRET);
    } finally {
      await cli.stop();
      await stub.close();
    }
  });
});
