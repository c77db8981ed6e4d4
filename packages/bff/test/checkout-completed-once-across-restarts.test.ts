/**
 * Finding: `onCheckoutCompleted` ran "once" only per process (a memory of 1,000 sessions): a signed return replayed
 * after a restart, on another replica, or re-minted by re-opening the paid checkout link (the lander signs again
 * with the current time for 7 days) ran the partner's hook again. Now each completed checkout session is recorded
 * in the database, keyed by the credential and the session (not the signature), before the hook runs: once across
 * restarts and replicas.
 */
import { signCheckoutReturn, type CheckoutReturn } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { SECRET, call, databaseKinds, startTestBff, useDatabaseAndStub } from './helpers.ts';

/** The query of a return the lander signed `secondsAgo` ago for `session`. */
async function signedReturn(session: string, secondsAgo = 0): Promise<string> {
  return (
    await signCheckoutReturn(SECRET, {
      checkout_session_id: session,
      status: 'paid',
      domain: 'coffeehouse.com',
      price_cents: 250000,
      currency: 'USD',
      ts: Math.floor(Date.now() / 1000) - secondsAgo,
    })
  ).toString();
}

describe.each(databaseKinds())('onCheckoutCompleted on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);
  const sales: CheckoutReturn[] = [];

  async function replica() {
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      background: { enabled: false },
      onCheckoutCompleted: (sale) => void sales.push(sale),
    });
    fx.closers.push(() => bff.close());
    return bff;
  }

  async function comeBack(url: string, query: string): Promise<void> {
    const res = await call(`${url}/checkout/return?${query}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'paid', domain: 'coffeehouse.com' });
  }

  it('runs once for a return replayed on another replica', async () => {
    sales.length = 0;
    const [a, b] = [await replica(), await replica()];
    const query = await signedReturn('cs_replicas0001');

    await comeBack(a.url, query);
    await comeBack(b.url, query);

    expect(sales.map((s) => s.checkout_session_id)).toEqual(['cs_replicas0001']);
  });

  it('runs once for a return replayed after a restart', async () => {
    sales.length = 0;
    const query = await signedReturn('cs_restart0001');
    const first = await replica();
    await comeBack(first.url, query);
    await first.close();

    const second = await replica();
    await comeBack(second.url, query);

    expect(sales.map((s) => s.checkout_session_id)).toEqual(['cs_restart0001']);
  });

  it('runs once for a return re-minted later for the same session (a new signature, a new time)', async () => {
    sales.length = 0;
    const bff = await replica();

    await comeBack(bff.url, await signedReturn('cs_reminted0001', 3600));
    await comeBack(bff.url, await signedReturn('cs_reminted0001', 60));
    await comeBack(bff.url, await signedReturn('cs_reminted0001'));

    expect(sales.map((s) => s.checkout_session_id)).toEqual(['cs_reminted0001']);
  });

  it('runs at most once: a hook that throws is logged, the buyer still confirmed, a replay does not retry it', async () => {
    let runs = 0;
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      background: { enabled: false },
      onCheckoutCompleted: () => {
        runs++;
        throw new Error('the partner records are down');
      },
    });
    fx.closers.push(() => bff.close());
    const query = await signedReturn('cs_throws0001');

    await comeBack(bff.url, query);
    await comeBack(bff.url, query);

    expect(runs).toBe(1);
    expect(bff.lines.filter((l) => l.includes('onCheckoutCompleted failed'))).toHaveLength(1);
    const row = await fx.testDb.database.db
      .selectFrom('bff_checkout_completions')
      .select(['checkout_session_id', 'hook_error'])
      .execute();
    expect(row).toEqual([{ checkout_session_id: 'cs_throws0001', hook_error: 'Error: the partner records are down' }]);
  });

  it('runs for each checkout session, and never for a return it cannot verify', async () => {
    sales.length = 0;
    const bff = await replica();

    await comeBack(bff.url, await signedReturn('cs_each0001'));
    await comeBack(bff.url, await signedReturn('cs_each0002'));
    const forged = await call(
      `${bff.url}/checkout/return?${(await signedReturn('cs_each0003')).replace('sig=', 'sig=0')}`,
    );

    expect(forged.status).toBe(400);
    expect(sales.map((s) => s.checkout_session_id)).toEqual(['cs_each0001', 'cs_each0002']);
  });
});
