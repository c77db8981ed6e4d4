/**
 * The back-office console routes of the BFF (docs/console-api.md) against the sandbox: without a console session
 * token, with a visitor's purchase key, with a forged or an expired token, every console route answers 401 and the
 * marketplace sees no call (counted by the sandbox's own request log); a cross-site write is 403; a refund is refused
 * on a `TRANSFER_COMPLETED` order before any refund is sent, and the sandbox's own refusal is shown in words; a refund
 * sent twice with one Idempotency-Key refunds once; no console answer carries the API secret.
 */
import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleSigningKey, mintConsoleToken, startBff, type RunningBff } from '@domainkit/bff';
import { createSandboxAdmin, startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

const ADMIN_COOKIE = 'shop_admin=ops';
let sandbox: RunningSandbox;
let bff: RunningBff;
let dataDir: string;
const sandboxLines: Array<{ method?: string; path?: string; msg?: string }> = [];
const bffLines: string[] = [];
let admin: ReturnType<typeof createSandboxAdmin>;

const capture = (into: (line: string) => void) =>
  new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) into(line);
      done();
    },
  });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'console-routes-'));
  sandbox = await startSandbox({
    port: 0,
    dataDir: seedPgliteCluster(join(dataDir, 'sandbox')),
    databaseUrl: '',
    logger: pino(
      { level: 'info' },
      capture((l) => sandboxLines.push(JSON.parse(l))),
    ),
  });
  admin = createSandboxAdmin({ url: sandbox.url, adminToken: sandbox.demo.admin_token });
  bff = await startBff({
    marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret, maxRetries: 0 },
    database: { dataDir: seedPgliteCluster(join(dataDir, 'bff')) },
    logger: pino(
      { level: 'debug' },
      capture((l) => bffLines.push(l)),
    ),
    visitorLimits: false,
    background: { enabled: false },
    port: 0,
    console: {
      authorize: (request) => (request.headers.get('cookie') === ADMIN_COOKIE ? { actor: 'ops@shop.example' } : null),
    },
  });
});
afterAll(async () => {
  await bff?.close();
  await sandbox?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

/** The Partner API endpoints the console reads or writes (the BFF's own start-up credential check is not one). */
const CONSOLE_UPSTREAM =
  /^\/api\/partner\/v1\/(orders|refunds|settlements|transactions|payouts|me\/|analytics|brokerage|links|events)/;
/** Console-endpoint requests the sandbox has logged so far. */
const upstreamCalls = () =>
  sandboxLines.filter((l) => l.msg === 'request' && CONSOLE_UPSTREAM.test(l.path ?? '')).length;

async function session(): Promise<string> {
  const answer = await fetch(`${bff.url}/console/session`, { method: 'POST', headers: { cookie: ADMIN_COOKIE } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { token: string }).token;
}

const READS = [
  '/console/overview',
  '/console/orders',
  '/console/orders/ord_x',
  '/console/settlements',
  '/console/transactions',
  '/console/transactions.csv',
  '/console/payouts',
  '/console/commissions',
  '/console/sales',
  '/console/brokerage',
  '/console/brokerage/brk_x',
  '/console/links',
  '/console/clicks',
  '/console/events',
];
const WRITES = ['/console/orders/ord_x/refund', '/console/links'];

describe('every console route refuses without a console session token, and never calls upstream', () => {
  const expired = () =>
    mintConsoleToken(consoleSigningKey(undefined, sandbox.demo.secret), 'ops@shop.example', 900, Date.now() - 1_000_000)
      .token;
  const forged = () =>
    mintConsoleToken(consoleSigningKey('another-key-0123456789-0123456789-0123', ''), 'x', 900, Date.now()).token;
  const cases: Array<[string, () => Record<string, string>]> = [
    ['no token', () => ({})],
    ["a visitor's purchase key as bearer", () => ({ authorization: `Bearer ${crypto.randomUUID()}` })],
    ["a visitor's purchase key as Idempotency-Key", () => ({ 'idempotency-key': crypto.randomUUID() })],
    ['an expired token', () => ({ authorization: `Bearer ${expired()}` })],
    ['a token signed with another key', () => ({ authorization: `Bearer ${forged()}` })],
  ];
  it.each(cases)('%s: 401 unauthorized on every route', async (_name, headers) => {
    const before = upstreamCalls();
    for (const path of READS) {
      const answer = await fetch(`${bff.url}${path}`, { headers: headers() });
      expect([path, answer.status, ((await answer.json()) as { error: { code: string } }).error.code]).toEqual(
        path.endsWith('.csv') ? [path, 401, 'unauthorized'] : [path, 401, 'unauthorized'],
      );
    }
    for (const path of WRITES) {
      const answer = await fetch(`${bff.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...headers() },
        body: JSON.stringify(path.endsWith('links') ? { kind: 'generic' } : {}),
      });
      expect([path, answer.status]).toEqual([path, 401]);
    }
    expect(upstreamCalls()).toBe(before);
  });

  it('the session is refused when the partner hook says no', async () => {
    const answer = await fetch(`${bff.url}/console/session`, { method: 'POST' });
    expect(answer.status).toBe(401);
  });
});

describe('console writes', () => {
  it('a cross-site refund is 403 and nothing reaches the marketplace', async () => {
    const token = await session();
    const before = upstreamCalls();
    const answer = await fetch(`${bff.url}/console/orders/ord_x/refund`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: '{}',
    });
    expect(answer.status).toBe(403);
    expect(upstreamCalls()).toBe(before);
  });

  it('a TRANSFER_COMPLETED order is not refundable: 409 in words, and no refund is sent', async () => {
    const { order } = await admin.fixtures.order({ status: 'TRANSFER_COMPLETED' });
    const token = await session();
    const view = await fetch(`${bff.url}/console/orders/${order.public_id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await view.json()) as { order: { refundable: boolean } }).order.refundable).toBe(false);
    const answer = await fetch(`${bff.url}/console/orders/${order.public_id}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    });
    const body = (await answer.json()) as { error: { code: string; message: string; status: string } };
    expect([answer.status, body.error.code, body.error.status]).toEqual([409, 'not_refundable', 'TRANSFER_COMPLETED']);
    expect(body.error.message).toMatch(/only possible before TRANSFER_COMPLETED/);
    expect(sandboxLines.filter((l) => l.path?.endsWith('/refunds')).length).toBe(0);
  });

  it('a refund sent twice with one Idempotency-Key refunds once and answers the same', async () => {
    const { order } = await admin.fixtures.order({ status: 'EXTERNALLY_PAID' });
    const token = await session();
    const key = crypto.randomUUID();
    const send = () =>
      fetch(`${bff.url}/console/orders/${order.public_id}/refund`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'buyer changed their mind' }),
      });
    const first = await send();
    const firstBody = (await first.json()) as { refund: { refund_id: string }; order: { status: string } };
    expect([first.status, firstBody.order.status]).toEqual([200, 'REFUNDED']);
    const second = await send();
    expect([second.status, await second.json()]).toEqual([200, firstBody]);
    expect(sandboxLines.filter((l) => l.method === 'POST' && l.path?.endsWith('/refunds')).length).toBe(1);
    // Logged with who did it.
    expect(bffLines.some((l) => l.includes('console refund made') && l.includes('ops@shop.example'))).toBe(true);
    // Another write under the same key is a conflict.
    const other = await fetch(`${bff.url}/console/orders/ord_other/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
    });
    expect(other.status).toBe(409);
  });

  it("the sandbox's refusal is shown in its words: an order delivered since the console read it", async () => {
    const { order } = await admin.fixtures.order({ status: 'TRANSFER_IN_PROGRESS' });
    const token = await session();
    const view = await fetch(`${bff.url}/console/orders/${order.public_id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await view.json()) as { order: { refundable: boolean } }).order.refundable).toBe(true);
    await admin.orders.confirmDelivery(order.public_id);
    const answer = await fetch(`${bff.url}/console/orders/${order.public_id}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    });
    const body = (await answer.json()) as { error: { code: string; detail: string } };
    expect([answer.status, body.error.code]).toEqual([409, 'not_refundable']);
    expect(body.error.detail).toMatch(/only possible before TRANSFER_COMPLETED/);
  });
});

describe('no console answer carries the API secret', () => {
  it('every read, with data in the sandbox', async () => {
    await admin.fixtures.order({ status: 'SETTLED' });
    await admin.fixtures.referralSale({ clicks: 3 });
    await admin.fixtures.brokerageCase({ status: 'CLOSED_DEAL' });
    const token = await session();
    for (const path of READS) {
      const answer = await fetch(`${bff.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const text = await answer.text();
      expect(text).not.toContain(sandbox.demo.secret);
      if (!/_x$/.test(path)) expect([path, answer.status]).toEqual([path, 200]);
    }
    expect(bffLines.join('\n')).not.toContain(sandbox.demo.secret);
  });
});

describe("a person's Refresh reads the marketplace again", () => {
  it('with Cache-Control: no-cache the cached copy is read again; without it, the copy answers', async () => {
    const token = await session();
    const linkReads = () =>
      sandboxLines.filter((l) => l.msg === 'request' && l.path === '/api/partner/v1/links').length;
    const read = async (headers: Record<string, string> = {}) => {
      const answer = await fetch(`${bff.url}/console/links?limit=7`, {
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { as_of: string };
    };
    const first = await read();
    const reads = linkReads();
    expect(await read()).toEqual(first);
    expect(linkReads()).toBe(reads);
    await read({ 'cache-control': 'no-cache' });
    expect(linkReads()).toBe(reads + 1);
  });
});

describe('the visitor write limit counts the creation of links, never the console reading them', () => {
  it('past the limit a new link is 429 in words, while the list still answers', async () => {
    const limited = await startBff({
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret, maxRetries: 0 },
      database: { dataDir: seedPgliteCluster(join(dataDir, 'limited-bff')) },
      logger: false,
      visitorLimits: { writesPerMinute: 3 }, // the sign-in and two links
      background: { enabled: false },
      port: 0,
      console: { authorize: () => ({ actor: 'ops@shop.example' }) },
    });
    try {
      const signIn = () => fetch(`${limited.url}/console/session`, { method: 'POST' });
      const token = ((await (await signIn()).json()) as { token: string }).token;
      const auth = { authorization: `Bearer ${token}` };
      const create = () =>
        fetch(`${limited.url}/console/links`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ kind: 'generic' }),
        });
      const list = () => fetch(`${limited.url}/console/links`, { headers: { ...auth, 'cache-control': 'no-cache' } });
      for (let i = 0; i < 2; i++) {
        const made = await create();
        expect(made.status, `link ${i + 1}: ${await made.clone().text()}`).toBe(201);
        // The console reads the list again after each link made: those reads are not the visitor's writes.
        for (let j = 0; j < 3; j++) expect((await list()).status).toBe(200);
      }
      const refused = await create();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('rate_limited');
      expect(error.message, 'a new link is no purchase request').toMatch(
        /^Too many purchases and other changes from you/,
      );
      expect(error.message).toMatch(/retry in \d+ s/);
      expect((await list()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
