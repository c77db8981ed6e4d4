/**
 * Crash safety of MoR orders with the real `domainkit-bff` command on embedded PGlite in a data folder: the BFF is
 * killed with SIGKILL after the buyer's payment and before the upstream record is known, then started again on the
 * same folder; its recovery pass at start records the order with the same Idempotency-Key, so the marketplace
 * holds exactly one order, whether the first record never arrived or arrived and its answer was lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startCli, type CliProcess } from '../../../test/setup/child-process.ts';
import { KEY_ID, SECRET, call, postJson, startStubMarketplace, type StubMarketplace } from './helpers.ts';

const running: CliProcess[] = [];
const folders: string[] = [];
let stub: StubMarketplace | undefined;
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => child.stop()));
  await stub?.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a BFF killed between payment and record', () => {
  it.each([
    ['the record never reached the marketplace', false],
    ['the marketplace recorded it but the answer was lost', true],
  ])('records the order exactly once after a restart: %s', async (_name, committed) => {
    stub = await startStubMarketplace();
    const dataDir = mkdtempSync(join(tmpdir(), 'dk-bff-crash-'));
    folders.push(dataDir);
    const env = {
      DOMAINKIT_API_BASE_URL: stub.url,
      DOMAINKIT_KEY_ID: KEY_ID,
      DOMAINKIT_API_SECRET: SECRET,
      DOMAINKIT_PAYMENTS: 'test_card',
      DOMAINKIT_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
    };

    const first = await startCli('bff', [], env);
    running.push(first);
    const quote = await postJson(`${first.url}/quotes`, { domain: 'coffeehouse.com' });
    expect(quote.status).toBe(201);
    const held = stub.hold('order', committed);
    const order = postJson(`${first.url}/orders`, {
      quote_id: quote.json.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    }).catch((e: unknown) => e);
    await held; // paid, intent stored, record in flight
    await first.stop('SIGKILL');
    expect(await order).toBeInstanceOf(Error); // the visitor got no answer, certainly not a success
    expect(stub.orders.size).toBe(committed ? 1 : 0);

    const second = await startCli('bff', [], env);
    running.push(second);
    // Its recovery pass at start records the order (the log line comes after the marketplace's answer).
    await vi.waitFor(() => expect(second.output()).toContain('order recorded upstream'), {
      timeout: 20_000,
      interval: 100,
    });

    expect(stub.orders.size).toBe(1);
    const [a, b] = stub.callsTo('order');
    expect(b!.headers['idempotency-key']).toBe(a!.headers['idempotency-key']);
    expect(b!.body).toBe(a!.body);
    expect([...stub.orders.values()][0]).toMatchObject({
      domain: 'coffeehouse.com',
      sale_price_cents: 250000,
      idempotency_key: a!.headers['idempotency-key'],
    });
    expect(stub.callsTo('order')).toHaveLength(2);
    expect(second.output()).not.toContain(SECRET);

    const health = await call(`${second.url}/readyz`);
    expect(health.json).toEqual({ status: 'ready', database: 'pglite' });
    await second.stop('SIGTERM');
    expect(await second.closed).toBe(0);
  });
});
