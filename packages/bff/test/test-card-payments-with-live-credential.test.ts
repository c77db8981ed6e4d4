/**
 * Finding: test-card payments ran with a LIVE credential, and under NODE_ENV=production, with only a warning: a
 * visitor recorded a real `EXTERNALLY_PAID` order without paying (the partner, Merchant of Record, owes the
 * marketplace for it). The test-card adapter is now refused at start with a LIVE key (`pk_live_…`) whatever else is
 * set, and under NODE_ENV=production unless a staging shop opts in explicitly
 * (`allowTestCardsInProduction` / `DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION=true`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BffOptionsError, createBff, testCardPayments } from '../src/index.ts';
import { spawnCli, type WatchedProcess } from '../../../test/setup/child-process.ts';
import { KEY_ID, SECRET, postJson, startStubMarketplace, type StubMarketplace } from './helpers.ts';

const LIVE_KEY_ID = 'pk_live_bff0001';
const LIVE_SECRET = 'sk_live_BffS3cretNeverInTheBrowser42';

interface Outcome {
  /** The exit code, when the process ended by itself. */
  readonly exitCode?: number | null;
  /** The URL it listens on, when it started. */
  readonly url?: string;
  readonly stderr: string;
}

const children: WatchedProcess[] = [];
const folders: string[] = [];
let stub: StubMarketplace | undefined;
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop()));
  await stub?.close();
  stub = undefined;
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

/** Starts `domainkit-bff` with `env` and resolves once it exits or listens, whichever comes first. */
async function runCli(env: Record<string, string>): Promise<Outcome> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dk-bff-test-cards-'));
  folders.push(dataDir);
  const child = spawnCli('bff', [], { DOMAINKIT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...env });
  children.push(child);
  return child.logged('domainkit BFF listening').then(
    (url) => ({ url, stderr: child.stderr() }),
    async () => ({ exitCode: await child.closed, stderr: child.stderr() }),
  );
}

/** Tries to buy with the test card through a BFF that started (the old behaviour), so the test shows the harm. */
async function tryToBuy(url: string): Promise<void> {
  const quote = await postJson(`${url}/quotes`, { domain: 'coffeehouse.com' });
  if (quote.status !== 201) return;
  await postJson(`${url}/orders`, {
    quote_id: quote.json.quote_id,
    buyer: { email: 'visitor@example.com' },
    payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
  });
}

/**
 * Starts the stub marketplace and `domainkit-bff` in front of it with `DOMAINKIT_PAYMENTS=test_card`, a LIVE or
 * SANDBOX credential and the `extra` variables; when it starts, tries to buy with the test card.
 */
async function startWithTestCards(credential: 'live' | 'sandbox', extra: Record<string, string>): Promise<Outcome> {
  stub = await startStubMarketplace();
  const [keyId, secret] = credential === 'live' ? [LIVE_KEY_ID, LIVE_SECRET] : [KEY_ID, SECRET];
  const outcome = await runCli({
    DOMAINKIT_API_BASE_URL: stub.url,
    DOMAINKIT_KEY_ID: keyId,
    DOMAINKIT_API_SECRET: secret,
    DOMAINKIT_PAYMENTS: 'test_card',
    ...extra,
  });
  if (outcome.url) await tryToBuy(outcome.url);
  return outcome;
}

describe('the standalone BFF with DOMAINKIT_PAYMENTS=test_card', () => {
  it.each([
    ['alone', {}],
    ['in development', { NODE_ENV: 'development' }],
    ['with the staging opt-in set', { NODE_ENV: 'production', DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION: 'true' }],
    ['with the test profile', { DOMAINKIT_PROFILE: 'test' }],
  ])('exits 78 with a LIVE key (%s), naming the problem, before any call upstream', async (_name, extra) => {
    const outcome = await startWithTestCards('live', extra);

    expect(outcome.url, 'the BFF must not start').toBeUndefined();
    expect(outcome.exitCode).toBe(78);
    expect(outcome.stderr).toContain('DOMAINKIT_PAYMENTS');
    expect(outcome.stderr).toMatch(/LIVE credential/);
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
    expect(outcome.stderr).not.toContain(LIVE_SECRET);
    expect(stub!.calls).toEqual([]);
    expect(stub!.rejected).toEqual([]);
  });

  it('exits 78 under NODE_ENV=production with a sandbox key; no order reaches the marketplace', async () => {
    const outcome = await startWithTestCards('sandbox', { NODE_ENV: 'production' });

    expect(stub!.callsTo('order'), 'no order may reach the marketplace').toEqual([]);
    expect(outcome.url, 'the BFF must not start').toBeUndefined();
    expect(outcome.exitCode).toBe(78);
    expect(outcome.stderr).toContain('DOMAINKIT_PAYMENTS');
    expect(outcome.stderr).toContain('DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION');
    expect(stub!.calls).toEqual([]);
  });

  it('starts and sells with test cards under NODE_ENV=production with a sandbox key when the staging shop opts in', async () => {
    const outcome = await startWithTestCards('sandbox', {
      NODE_ENV: 'production',
      DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION: 'true',
    });

    expect(outcome.stderr).toBe('');
    expect(outcome.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stub!.callsTo('order')).toHaveLength(1);
  }, 60_000);

  it('refuses an opt-in value other than true or false', async () => {
    const outcome = await startWithTestCards('sandbox', { DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION: 'yes' });

    expect(outcome.exitCode).toBe(78);
    expect(outcome.stderr).toContain('DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION must be true or false');
  });
});

describe('createBff with the test-card adapter', () => {
  const sandbox = { baseUrl: 'https://marketplace.example', keyId: KEY_ID, secret: SECRET };
  const live = { baseUrl: 'https://marketplace.example', keyId: LIVE_KEY_ID, secret: LIVE_SECRET };

  /** The options error `createBff(options)` throws, or undefined when it creates a BFF (closed at once). */
  function refusal(options: Parameters<typeof createBff>[0]): BffOptionsError | undefined {
    try {
      const bff = createBff({ logger: false, background: { enabled: false }, database: { memory: true }, ...options });
      void bff.close();
      return undefined;
    } catch (error) {
      if (error instanceof BffOptionsError) return error;
      throw error;
    }
  }

  it('throws an options error with a LIVE key, even with the opt-in', () => {
    for (const allowTestCardsInProduction of [undefined, true]) {
      const error = refusal({
        marketplace: live,
        payments: testCardPayments(),
        ...(allowTestCardsInProduction && { allowTestCardsInProduction }),
      });
      expect(error?.problems.join('\n')).toMatch(/`payments` .*test-card adapter.*LIVE credential/);
    }
  });

  it('throws an options error under NODE_ENV=production unless allowTestCardsInProduction is true', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const error = refusal({ marketplace: sandbox, payments: testCardPayments() });
    expect(error?.problems.join('\n')).toMatch(/`payments` .*NODE_ENV.*allowTestCardsInProduction/);
    expect(refusal({ marketplace: sandbox, payments: testCardPayments(), allowTestCardsInProduction: true })).toBe(
      undefined,
    );
  });

  it('leaves other adapters alone with a LIVE key in production', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const provider = { ...testCardPayments(), name: 'provider', test: false };
    expect(refusal({ marketplace: live, payments: provider })).toBe(undefined);
  });
});
