/**
 * The demo credential and the data folder: created once, reused on restart with data persisting, obtainable by a
 * CI job through the CLI; and the secrets it holds never appear in a response or a log line.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../../../test/setup/child-process.ts';
import {
  generateInventory,
  readDemoCredential,
  SCOPES,
  startSandbox,
  TEST_CARDS,
  type DemoCredential,
} from '../src/index.ts';
import {
  adminCreateCredential,
  PartnerTestClient,
  pay,
  removeDir,
  send,
  startTestSandbox,
  tempDir,
  tokenOf,
  type TestSandbox,
  freshPgliteDataDir,
} from './helpers.ts';

const V1 = '/api/partner/v1';
const dataDir = freshPgliteDataDir('dk-sandbox-');
let t: TestSandbox;
let demo: DemoCredential;

beforeAll(async () => {
  t = await startTestSandbox({ dataDir });
  demo = t.sandbox.demo;
});
afterAll(async () => {
  await t?.stop();
  removeDir(dataDir);
});

/** Runs the CLI with a clean environment (never a DATABASE_URL from the outside). */
async function runCli(args: string[], onStdout?: (text: string, child: ChildProcess) => void) {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.SANDBOX_PORT;
  delete env.SANDBOX_DATA_DIR;
  const cli = spawnCli('sandbox', args, env);
  if (onStdout !== undefined) cli.child.stdout.on('data', () => onStdout(cli.stdout(), cli.child));
  const code = await cli.closed;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('the demo credential', () => {
  it('is created at first start with every scope and saved in credentials.json, readable only by its owner', () => {
    expect(demo.key_id).toMatch(/^pk_test_[0-9A-Za-z]{24}$/);
    expect(demo.secret).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(demo.environment).toBe('SANDBOX');
    expect(demo.scopes).toEqual([...SCOPES]);
    expect(demo.webhook_secret.length).toBeGreaterThanOrEqual(16);
    expect(demo.admin_token.length).toBeGreaterThanOrEqual(16);
    const file = join(dataDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readDemoCredential(dataDir)).toEqual(demo);
  });

  it('is linked to an affiliate account', async () => {
    const row = await t.sandbox.db
      .selectFrom('credentials')
      .selectAll()
      .where('key_id', '=', demo.key_id)
      .executeTakeFirstOrThrow();
    expect(row.affiliate_id).toMatch(/^aff_/);
    expect(row.approved).toBe(true);
  });

  it('logs the key id and the file location, never the secret', () => {
    const ready = t.logs.entries().find((e) => e.msg === 'demo credential created');
    expect(ready).toMatchObject({ key_id: demo.key_id, credentials_file: join(dataDir, 'credentials.json') });
  });

  it('refuses to open a data folder another sandbox is using', async () => {
    await expect(startSandbox({ port: 0, dataDir, databaseUrl: '', logger: false })).rejects.toThrow(/in use/);
  });
});

describe('no secret in any response or log line', () => {
  it('holds over a run touching every surface', async () => {
    const client = new PartnerTestClient(t.sandbox, demo, t.clock.now);
    await client.request({ path: `${V1}/domains/search`, query: { q: 'coffee' } });
    await client.request({ path: `${V1}/domains/search` });
    await client.request({ path: `${V1}/availability`, query: { domain: 'nothing-here.com' } });
    await client.request({ path: `${V1}/pricing`, query: { domain: 'nothing-here.com' } });
    await client.request({ path: `${V1}/nowhere` });
    await client.request({ method: 'POST', path: `${V1}/checkout-session`, body: '{"domain":' });
    const first = await client.request({ path: `${V1}/domains/search`, query: { q: 'tea' } });
    await send(t.sandbox, { path: `${V1}/domains/search`, query: first.sent.query, headers: first.sent.headers }); // replay
    await send(t.sandbox, {
      path: `${V1}/domains/search`,
      query: 'q=tea',
      headers: { 'X-Service-Key-Id': demo.key_id },
    });
    await send(t.sandbox, {
      path: `${V1}/domains/search`,
      query: 'q=tea',
      headers: {
        'X-Service-Key-Id': demo.secret,
        'X-Service-Timestamp': String(Math.floor(Date.now() / 1000)),
        'X-Service-Nonce': 'n-1',
        'X-Service-Signature': `v1=${'0'.repeat(64)}`,
      },
    });
    const domain = generateInventory({ environment: 'SANDBOX' })[5]!.name;
    const session = await client.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain } });
    await send(t.sandbox, { path: '/checkout', query: `pt=${tokenOf(session.json.checkout_url)}` });
    await pay(t.sandbox, { pt: tokenOf(session.json.checkout_url), card_number: TEST_CARDS.declined });
    await pay(t.sandbox, { pt: tokenOf(session.json.checkout_url), card_number: TEST_CARDS.succeeds });
    await send(t.sandbox, { path: '/checkout/receipt', query: `pt=${tokenOf(session.json.checkout_url)}` });
    const created = await adminCreateCredential(t.sandbox, { scopes: ['search'], environment: 'LIVE' });
    expect(created.status).toBe(201);
    await send(t.sandbox, {
      method: 'POST',
      path: '/admin/credentials',
      headers: { authorization: `Bearer ${demo.secret}` },
      body: '{}',
    });
    await send(t.sandbox, { path: '/healthz' });

    const responses = t.responses.join('\n');
    const logs = t.logs.text();
    expect(responses).toContain('Payment received'); // the response capture works
    expect(logs).toContain(demo.key_id); // and so does the log capture
    for (const secret of [demo.secret, demo.admin_token, demo.webhook_secret]) {
      expect(responses).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    // The new credential's secret is answered once to the admin, and never logged.
    expect(logs).not.toContain(created.json.secret);
  });
});

describe('restarting on the same data folder', () => {
  it('reuses the credential file and keeps every piece of state', async () => {
    const client = new PartnerTestClient(t.sandbox, demo, t.clock.now);
    const domain = generateInventory({ environment: 'SANDBOX' })[7]!.name;
    const session = await client.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain } });
    expect(
      (await pay(t.sandbox, { pt: tokenOf(session.json.checkout_url), card_number: TEST_CARDS.succeeds })).status,
    ).toBe(303);
    const extra = (await adminCreateCredential(t.sandbox, { scopes: ['search'], environment: 'SANDBOX' })).json as {
      key_id: string;
      secret: string;
    };
    const fileBefore = readFileSync(join(dataDir, 'credentials.json'), 'utf8');
    const domainsBefore = await t.sandbox.db
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await t.stop();
    expect(existsSync(join(dataDir, 'sandbox.pid'))).toBe(false);

    t = await startTestSandbox({ dataDir });
    expect(t.sandbox.demo).toEqual(demo);
    expect(readFileSync(join(dataDir, 'credentials.json'), 'utf8')).toBe(fileBefore);
    expect(t.logs.entries().find((e) => e.msg === 'demo credential ready')).toMatchObject({
      key_id: demo.key_id,
      origin: 'existing',
    });

    const again = new PartnerTestClient(t.sandbox, demo, t.clock.now);
    const availability = await again.request({ path: `${V1}/availability`, query: { domain } });
    expect(availability.json.available).toBe(false);
    const other = new PartnerTestClient(t.sandbox, extra, t.clock.now);
    expect((await other.request({ path: `${V1}/domains/search`, query: { q: 'sun' } })).status).toBe(200);
    const domainsAfter = await t.sandbox.db
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(domainsAfter.n)).toBe(Number(domainsBefore.n));
    // The lander token of a session issued before the restart still verifies (the signing key persists).
    expect(
      (await send(t.sandbox, { path: '/checkout/receipt', query: `pt=${tokenOf(session.json.checkout_url)}` })).status,
    ).toBe(200);
  });
});

describe('the command line', () => {
  it('prints the demo credential as JSON, also while a sandbox runs on that data folder', async () => {
    const result = await runCli(['credentials', '--data-dir', dataDir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(demo);
  });

  it('initialises a new data folder when asked for its credential', async () => {
    const fresh = tempDir();
    try {
      const result = await runCli(['credentials', '--data-dir', fresh]);
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout) as DemoCredential;
      expect(printed.key_id).toMatch(/^pk_test_/);
      expect(readDemoCredential(fresh)).toEqual(printed);
      expect(result.stderr).not.toContain(printed.secret);
    } finally {
      removeDir(fresh);
    }
  });

  it('starts on the given port and data folder, serves, and shuts down gracefully on SIGTERM', async () => {
    await t.stop(); // free the data folder for the child process
    let url: string | undefined;
    let healthy: number | undefined;
    const result = await runCli(['start', '--port', '0', '--data-dir', dataDir], (stdout, child) => {
      const listening = stdout.split('\n').find((l) => l.includes('"sandbox listening"'));
      if (listening === undefined || url !== undefined) return;
      url = (JSON.parse(listening) as { url: string }).url;
      fetch(`${url}/healthz`)
        .then((r) => (healthy = r.status))
        .finally(() => child.kill('SIGTERM'));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(healthy).toBe(200);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"sandbox stopped"');
    expect(result.stdout).toContain(demo.key_id);
    expect(result.stdout).not.toContain(demo.secret);
    expect(existsSync(join(dataDir, 'sandbox.pid'))).toBe(false);
    t = await startTestSandbox({ dataDir });
  });

  it('rejects a bad option with a message naming it', async () => {
    const result = await runCli(['start', '--port', 'abc', '--data-dir', dataDir]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/port must be a whole number/);
  });
});
