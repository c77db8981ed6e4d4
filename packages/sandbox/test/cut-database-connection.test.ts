/**
 * Issue 26, finding 15 (the sandbox's side): a sandbox on PostgreSQL must outlive a connection cut during a query
 * (a PostgreSQL restart or failover, a proxy closing connections, `pg_terminate_backend`). The sandbox CLI runs as a
 * child process on a fresh schema of TEST_DATABASE_URL (skipped without it); an admin request waits on a table the
 * test holds locked, and every connection of the sandbox is then terminated while that query is in flight.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../../../test/setup/child-process.ts';
import { readDemoCredential, type DemoCredential } from '../src/index.ts';
import { admin, removeDir, send, tempDir, waitFor, type Answer } from './helpers.ts';

const url = process.env.TEST_DATABASE_URL;
const schema = `dk_sb_cut_${randomBytes(6).toString('hex')}`;
const app = `dk_sb_cut_${randomBytes(6).toString('hex')}`;

describe.skipIf(!url)('a sandbox on PostgreSQL whose connections are cut during a query', () => {
  const dataDir = tempDir('dk-sandbox-cut-');
  let child: CliProcess;
  let target: { url: string; demo: DemoCredential };
  let pgAdmin: pg.Client;

  beforeAll(async () => {
    pgAdmin = new pg.Client({ connectionString: url });
    await pgAdmin.connect();
    const withName = new URL(url!);
    withName.searchParams.set('application_name', app);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' };
    child = await startCli(
      'sandbox',
      ['start', '--port', '0', '--data-dir', dataDir, '--database-url', withName.href, '--schema', schema],
      env,
    );
    target = { url: child.url, demo: readDemoCredential(dataDir) };
  });
  afterAll(async () => {
    await child?.stop();
    await pgAdmin?.query(`drop schema if exists "${schema}" cascade`);
    await pgAdmin?.end();
    removeDir(dataDir);
  });

  it('keeps running and answering: the transaction in flight, the next request, liveness', async () => {
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`lock table "${schema}".orders in access exclusive mode`);
      const inFlight = admin(target, 'POST', '/orders/ord_cut0001/start-transfer', {}).catch((e: unknown) => e);
      // The sandbox's transaction on the orders waits for the lock: a checked-out connection with a query in flight.
      await waitFor('the admin request to wait for the lock', async () => {
        const { rows } = await pgAdmin.query(
          "select count(*)::int as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
          [app],
        );
        return rows[0].n > 0;
      });
      const { rows } = await pgAdmin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [app],
      );
      expect(rows.length).toBeGreaterThan(0);
      await locker.query('rollback');

      // The request in flight is answered (an error answer, the database having failed it), never a dropped socket.
      const answer = (await inFlight) as Answer;
      expect(answer).not.toBeInstanceOf(Error);
      expect(answer.status).toBeGreaterThanOrEqual(200);
    } finally {
      await locker.end();
    }
    expect(child.exited()).toBe(false);
    expect((await admin(target, 'GET', '/orders')).status).toBe(200);
    expect((await send(target, { path: '/healthz' })).status).toBe(200);
  });
});
