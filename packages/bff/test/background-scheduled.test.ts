/**
 * Background work without a long-lived process (`background.mode: 'scheduled'`): no start task and no timer runs;
 * each `scheduled()` call (a platform cron) runs one round, and the money rules hold when only those calls drive
 * recovery: a payment whose capture stays unknown is refunded upstream and voided once a round runs past the record
 * deadline, never left held. And PostgreSQL one connection per request (`database.perRequest`, the Workers mode):
 * nothing opens before the first query, each request gets its own connection, closed once its work (including what
 * it handed to `waitUntil`) is done.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { DatabaseHandle } from '../src/db/handle.ts';
import { createBffHandler } from '../src/handler.ts';
import { bffLogger } from '../src/logger.ts';
import { validateBffOptions } from '../src/options.ts';
import { resolveBffOptions } from '../src/resolved-options.ts';
import { BffRuntime } from '../src/runtime.ts';
import { testCardPayments, type FailedOrderReport } from '../src/index.ts';
import { KEY_ID, SECRET, postJson, startTestBff, useDatabaseAndStub } from './helpers.ts';

const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };
const BUYER = { email: 'ada@example.com', name: 'Ada Lovelace', country: 'GB' };
const WEBHOOK = { secret: 'whsec_test_ScheduledRounds0123', publicUrl: 'https://shop.example/bff/webhooks' };

describe("background 'scheduled'", () => {
  const fx = useDatabaseAndStub('pglite');

  it('runs no start task or timer; each scheduled() call runs one round and reports it', async () => {
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      payments: testCardPayments(),
      webhook: WEBHOOK,
      background: { mode: 'scheduled' },
    });
    fx.closers.push(() => bff.close());
    await bff.bff.ready;
    await bff.bff.idle();
    expect(fx.stub.callsTo('webhook-register')).toHaveLength(0);
    expect(fx.stub.callsTo('events')).toHaveLength(0);

    const report = await bff.bff.scheduled();

    expect(report).toMatchObject({
      recovery: { outstanding: 0 },
      catchUp: { fetched: 0 },
      inboxPending: 0,
      failed: [],
    });
    expect(fx.stub.callsTo('webhook-register')).toHaveLength(1);
    expect(fx.stub.callsTo('events')).toHaveLength(1);
  });

  it("the web handler opens nothing at creation, and its first request starts the timers' work", async () => {
    const handler = createBffHandler({
      marketplace: { baseUrl: fx.stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
      database: fx.testDb.database,
      webhook: WEBHOOK,
      checkCredential: false,
      logger: false,
    });
    fx.closers.push(() => handler.close());
    expect(fx.stub.callsTo('webhook-register')).toHaveLength(0);

    const res = await handler.fetch(new Request('http://shop.example/healthz'));

    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(fx.stub.callsTo('webhook-register')).toHaveLength(1));
  });

  it('voids a payment whose capture stays unknown once a round runs past the record deadline', async () => {
    let now = Date.now();
    const base = testCardPayments();
    const payments = {
      ...base,
      capturePayment: async () => {
        throw new Error('connection reset by the payment provider');
      },
    };
    const failures: FailedOrderReport[] = [];
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      payments,
      background: { mode: 'scheduled' },
      orderDeadlineSeconds: 30,
      onOrderFailed: (report) => void failures.push(report),
      now: () => now,
    });
    fx.closers.push(() => bff.close());
    const quote = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
    const order = await postJson(`${bff.url}/orders`, { quote_id: quote.json.quote_id, buyer: BUYER, payment: CARD });
    expect(order.status).toBeLessThan(300);
    expect([...base.charges.values()].map((c) => c.status)).toEqual(['authorized']);

    now += 10_000;
    expect((await bff.bff.scheduled()).recovery).toMatchObject({ pending: 1, outstanding: 1 });
    expect([...base.charges.values()].map((c) => c.status)).toEqual(['authorized']);

    now += 21_000; // past the 30-s record deadline
    const report = await bff.bff.scheduled();

    expect(report.recovery).toMatchObject({ rejected: 1, outstanding: 0 });
    expect([...base.charges.values()].map((c) => c.status)).toEqual(['voided']);
    expect(fx.stub.callsTo('refund')).toHaveLength(1);
    expect(failures).toMatchObject([{ reason: 'capture_failed', money: 'voided', orderRefund: 'refunded' }]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL one connection per request', () => {
  const url = process.env.TEST_DATABASE_URL!;

  async function withAdmin<T>(run: (admin: pg.Client) => Promise<T>): Promise<T> {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      return await run(admin);
    } finally {
      await admin.end();
    }
  }

  it('opens nothing until a request queries, gives each request its own connection and closes it after its work', async () => {
    const schema = `dk_bff_per_request_${randomBytes(6).toString('hex')}`;
    const schemaExists = () =>
      withAdmin(async (a) => (await a.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount === 1);
    const alive = (pid: number) =>
      withAdmin(async (a) => (await a.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 1);
    const handle = new DatabaseHandle({ kind: 'postgres', source: { url, schema, perRequest: true }, owned: true });
    try {
      expect(handle.perRequest).toBe(true);
      expect(await schemaExists()).toBe(false);

      const handedOn: Array<Promise<unknown>> = [];
      const waitUntil = (p: Promise<unknown>) => void handedOn.push(p);
      let finishLater = () => {};
      const later = new Promise<void>((resolve) => {
        finishLater = resolve;
      });
      const pidOf = async () => {
        const rows = await (await handle.db())
          .selectNoFrom((eb) => eb.fn<number>('pg_backend_pid', []).as('pid'))
          .execute();
        return rows[0]!.pid;
      };
      const [first, second] = await Promise.all([
        handle.withRequest(waitUntil, async (keep) => {
          const a = await pidOf();
          keep(later);
          return [a, await pidOf()];
        }),
        handle.withRequest(undefined, async () => [await pidOf()]),
      ]);

      expect(await schemaExists()).toBe(true);
      expect(first![0]).toBe(first![1]);
      expect(first![0]).not.toBe(second![0]);
      expect(await alive(first![0]!)).toBe(true); // work handed to waitUntil still holds it
      finishLater();
      await Promise.all(handedOn);
      expect(await alive(first![0]!)).toBe(false);
    } finally {
      await handle.close();
      await withAdmin((a) => a.query(`drop schema if exists ${schema} cascade`));
    }
  });
});

it("calls the host's waitUntil as its context's method (Workers throw Illegal invocation otherwise)", async () => {
  const runtime = new BffRuntime(
    resolveBffOptions(
      validateBffOptions({
        marketplace: {
          baseUrl: 'http://127.0.0.1:9',
          keyId: 'pk_test_waituntil01',
          secret: 'sk_test_waitUntilSecret01',
        },
      }),
    ),
    bffLogger(false),
  );
  const handedOn: Array<Promise<unknown>> = [];
  const ctx = {
    waitUntil(promise: Promise<unknown>) {
      if (this !== ctx) throw new TypeError('Illegal invocation');
      handedOn.push(promise);
    },
  };
  try {
    await runtime.withRequest(ctx, async (waitUntil) => waitUntil(Promise.resolve('handled')));
    expect(await Promise.all(handedOn)).toContain('handled');
  } finally {
    await runtime.close();
  }
});
