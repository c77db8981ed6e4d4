/**
 * Issue 26, finding 15: a BFF on PostgreSQL must outlive a connection cut during a query (a PostgreSQL restart or
 * failover, a proxy closing connections, `pg_terminate_backend`). The standalone `domainkit-bff` runs as a child
 * process on a fresh schema of TEST_DATABASE_URL (skipped without it); a search waits on a table the test holds
 * locked, and every connection of the BFF is then terminated while that query is in flight.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCli, type CliProcess } from '../../../test/setup/child-process.ts';
import { KEY_ID, SECRET, call, startStubMarketplace, type Answer, type StubMarketplace } from './helpers.ts';

const url = process.env.TEST_DATABASE_URL;
const schema = `dk_bff_cut_${randomBytes(6).toString('hex')}`;
const app = `dk_bff_cut_${randomBytes(6).toString('hex')}`;

describe.skipIf(!url)('a BFF on PostgreSQL whose connections are cut during a query', () => {
  let stub: StubMarketplace;
  let bff: CliProcess;
  let admin: pg.Client;

  beforeAll(async () => {
    stub = await startStubMarketplace();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const withName = new URL(url!);
    withName.searchParams.set('application_name', app);
    bff = await startCli('bff', [], {
      DOMAINKIT_API_BASE_URL: stub.url,
      DOMAINKIT_KEY_ID: KEY_ID,
      DOMAINKIT_API_SECRET: SECRET,
      DATABASE_URL: withName.href,
      DOMAINKIT_DATABASE_SCHEMA: schema,
      PORT: '0',
      HOST: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await bff?.stop();
    await stub?.close();
    await admin?.query(`drop schema if exists "${schema}" cascade`);
    await admin?.end();
  });

  it('keeps running and answering: the search in flight, the next search, liveness and readiness', async () => {
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`lock table "${schema}".bff_search_answers in access exclusive mode`);
      const inFlight = call(`${bff.url}/search?q=coffee`).catch((e: unknown) => e);
      // The BFF's read of the shared answers waits for the lock: a checked-out connection with a query in flight.
      await vi.waitFor(
        async () => {
          const { rows } = await admin.query(
            "select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
            [app],
          );
          expect(rows[0].n).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as cut from pg_stat_activity where application_name = $1',
        [app],
      );
      expect(rows.length).toBeGreaterThan(0);
      await locker.query('rollback');

      // The search in flight is answered: from upstream, or 503 `unavailable` when the next connection it takes is
      // one the server cut too (never a dropped socket, never a 500).
      const answer = (await inFlight) as Answer;
      expect(answer).not.toBeInstanceOf(Error);
      if (answer.status !== 200) expect(answer.json.error.code).toBe('unavailable');
    } finally {
      await locker.end();
    }
    expect(bff.exited()).toBe(false);
    expect((await call(`${bff.url}/search?q=shop`)).status).toBe(200);
    expect((await call(`${bff.url}/healthz`)).status).toBe(200);
    expect((await call(`${bff.url}/readyz`)).json).toMatchObject({ status: 'ready', database: 'postgres' });
    expect(bff.output()).not.toContain('Connection terminated unexpectedly\n    at');
  });
});
