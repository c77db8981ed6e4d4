/**
 * Two sandbox processes on one PostgreSQL (runs when TEST_DATABASE_URL is set), in a fresh schema dropped
 * afterwards: this test process runs one sandbox, a child process (the CLI) the other. What must hold across them:
 * rate limits (item 4 of the issue), idempotency under concurrency (item 2), and one ordered event history.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../../../test/setup/child-process.ts';
import { generateInventory } from '../src/index.ts';
import {
  dropSchema,
  newPartner,
  PartnerTestClient,
  removeDir,
  startTestSandbox,
  tempDir,
  type TestSandbox,
} from './helpers.ts';

const V1 = '/api/partner/v1';
const databaseUrl = process.env.TEST_DATABASE_URL;
const schema = `dk_sandbox_partner_${randomBytes(6).toString('hex')}`;
const pool = generateInventory({ environment: 'SANDBOX' })
  .filter((d) => d.words.length === 2)
  .slice(1200);

describe.skipIf(!databaseUrl)('two sandbox processes on one PostgreSQL', () => {
  let a: TestSandbox;
  let child: CliProcess;
  let childUrl: string;
  let childDir: string;

  beforeAll(async () => {
    childDir = tempDir();
    a = await startTestSandbox({ databaseUrl: databaseUrl!, schema, deliverWebhooks: false });
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    child = await startCli(
      'sandbox',
      ['start', '--port', '0', '--data-dir', childDir, '--database-url', databaseUrl!, '--schema', schema],
      { ...env, LOG_LEVEL: 'info' },
    );
    childUrl = child.url;
  });
  afterAll(async () => {
    await child?.stop('SIGTERM');
    await a?.stop();
    if (childDir) removeDir(childDir);
    if (databaseUrl) await dropSchema(databaseUrl, schema);
  });

  async function partnerOnBoth() {
    const { credential, client } = await newPartner(a.sandbox, a.clock);
    return { credential, onA: client, onB: new PartnerTestClient({ url: childUrl }, credential) };
  }

  it('holds the search budget (60/min) exactly across both processes under concurrent load', async () => {
    const { onA, onB } = await partnerOnBoth();
    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        (i % 2 === 0 ? onA : onB).request({ path: `${V1}/domains/search`, query: { q: 'sun' } }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(60);
    const limited = answers.filter((r) => r.status === 429);
    expect(limited).toHaveLength(10);
    for (const r of limited) {
      expect(r.json.error.code).toBe('rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('holds the write budget (20/min) when requests alternate between the processes', async () => {
    const { onA, onB } = await partnerOnBoth();
    for (let i = 0; i < 20; i++)
      expect((await (i % 2 === 0 ? onA : onB).request({ method: 'POST', path: `${V1}/quotes`, json: {} })).status).toBe(
        400,
      );
    expect((await onA.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[0]!.name } })).status).toBe(
      429,
    );
    expect((await onB.request({ method: 'POST', path: `${V1}/quotes`, json: { domain: pool[0]!.name } })).status).toBe(
      429,
    );
  });

  it('makes one order from ten concurrent requests with one key spread over both processes', async () => {
    const { credential, onA, onB } = await partnerOnBoth();
    const d = pool[1]!;
    const body = { domain: d.name, expected_price: d.price_cents, currency: 'USD' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? onA : onB).request({
          method: 'POST',
          path: `${V1}/orders`,
          headers: { 'Idempotency-Key': 'pg-concurrent' },
          json: body,
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(
      await a.sandbox.db.selectFrom('orders').select('public_id').where('key_id', '=', credential.key_id).execute(),
    ).toHaveLength(1);
  });

  it('keeps one gapless event history when both processes record orders at once', async () => {
    const { onA, onB } = await partnerOnBoth();
    const domains = pool.slice(2, 12);
    const answers = await Promise.all(
      domains.map((d, i) =>
        (i % 2 === 0 ? onA : onB).request({
          method: 'POST',
          path: `${V1}/orders`,
          headers: { 'Idempotency-Key': `pg-ev-${i}` },
          json: { domain: d.name, expected_price: d.price_cents, currency: 'USD' },
        }),
      ),
    );
    expect(answers.every((r) => r.status === 201)).toBe(true);
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await (i % 2 === 0 ? onB : onA).request({
        path: `${V1}/events`,
        query: { limit: '3', ...(after ? { after_id: after } : {}) },
      });
      seen.push(...(page.json.events as Array<{ id: string }>).map((e) => e.id));
      if (page.json.next_cursor === null) break;
      after = page.json.next_cursor;
    }
    expect(seen).toHaveLength(10);
    expect([...seen].sort()).toEqual(seen);
    expect(new Set(seen).size).toBe(10);
  });
});
