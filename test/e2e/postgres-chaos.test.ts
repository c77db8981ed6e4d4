/**
 * Issue 26, must-show 5 (chaos): the standalone BFF (MoR with test cards) and the sandbox behind it both run on
 * PostgreSQL (TEST_DATABASE_URL; skipped without it), each as a child process on a fresh schema, and reach the server
 * through a loopback TCP proxy the test owns. During a visitor load with purchases:
 *
 * 1. every connection of both processes is terminated (`pg_terminate_backend`), three times;
 * 2. the database server "restarts": the proxy closes every connection and refuses new ones, then listens again;
 * 3. the sandbox and the BFF processes are restarted (SIGTERM, then started on the same schemas), and visitors buy on.
 *
 * The purchases caught by steps 1 and 2 complete before step 3: the test-card adapter knows its charges only in the
 * memory of the process that took them (a real provider answers `retrievePayment` from any process).
 *
 * No process exits but the one the test stops; every search of a query the BFF already answered is answered 200 from
 * memory throughout; purchases answer 201, 202 or 503 and every one completes (the visitor retries with its purchase
 * key, as the widget does); the sandbox holds exactly one order per purchase: none lost, none doubled.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDemoCredential, type DemoCredential } from '@domainkit/sandbox';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCli, type CliProcess } from '../setup/child-process.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const tag = randomBytes(5).toString('hex');
const BFF_APP = `dk_chaos_bff_${tag}`;
const SANDBOX_APP = `dk_chaos_sb_${tag}`;
const BFF_SCHEMA = `dk_chaos_bff_${tag}`;
const SANDBOX_SCHEMA = `dk_chaos_sb_${tag}`;
/** Queries whose first available domain a visitor buys. */
const BUY_WORDS = ['maple', 'cedar', 'willow', 'harbor', 'summit', 'meadow'];
/** Queries visitors repeat all along (those whose answers list none of the domains bought). */
const SEARCH_WORDS = ['coffee', 'garden', 'pixel', 'rocket', 'river', 'stone'];
const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };

/** A loopback TCP proxy to the PostgreSQL server: `stop` is the server going down, `start` it coming back. */
class DatabaseProxy {
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.#target = target;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.#target);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Closes every connection at once and refuses new ones until {@link start}. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    const closed = server === undefined ? Promise.resolve() : new Promise((resolve) => server.close(resolve));
    for (const s of this.#sockets) s.destroy();
    await closed;
  }

  /** TEST_DATABASE_URL through the proxy, connections named `application`. */
  url(application: string): string {
    const u = new URL(databaseUrl!);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    u.searchParams.set('application_name', application);
    return u.href;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
type Json = any;

/** One HTTP exchange; a connection that fails is `status: 0` (the caller decides whether that may happen). */
async function send(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(15_000),
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, json: (await res.json().catch(() => undefined)) as Json };
  } catch {
    return { status: 0, json: undefined as Json };
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!databaseUrl)('chaos: PostgreSQL connections cut and the server restarted under load', () => {
  let dir: string;
  let proxy: DatabaseProxy;
  let admin: pg.Client;
  let sandbox: CliProcess;
  let demo: DemoCredential;
  /** The BFF processes, in start order; the last one is current. */
  const bffs: CliProcess[] = [];
  /** Processes the test stopped on purpose. */
  const stopped = new Set<ChildProcessWithoutNullStreams>();
  const exits: string[] = [];
  /** Whether the visitors' loops go on (afterAll ends them, should the test fail first). */
  let running = false;

  /** Starts the sandbox on its data folder and schema (again, after a stop). */
  async function startSandbox(): Promise<void> {
    const started = await startCli(
      'sandbox',
      [
        'start',
        '--port',
        '0',
        '--data-dir',
        join(dir, 'sandbox'),
        '--database-url',
        proxy.url(SANDBOX_APP),
        '--schema',
        SANDBOX_SCHEMA,
      ],
      { LOG_LEVEL: 'info' },
    );
    started.child.on('exit', (code, signal) => {
      if (!stopped.has(started.child))
        exits.push(`sandbox exited (${code ?? signal}):\n${started.output().slice(-3000)}`);
    });
    sandbox = started;
  }

  async function startBff(): Promise<CliProcess> {
    const bff = await startCli('bff', [], {
      DOMAINKIT_API_BASE_URL: sandbox.url,
      DOMAINKIT_KEY_ID: demo.key_id,
      DOMAINKIT_API_SECRET: demo.secret,
      DOMAINKIT_PAYMENTS: 'test_card',
      DATABASE_URL: proxy.url(BFF_APP),
      DOMAINKIT_DATABASE_SCHEMA: BFF_SCHEMA,
      DOMAINKIT_VISITOR_SEARCHES_PER_MINUTE: 'off',
      DOMAINKIT_SEARCH_BUDGET_PER_MINUTE: '600',
      DOMAINKIT_SEARCH_BUDGET_BURST: '50',
      DOMAINKIT_WRITE_BUDGET_PER_MINUTE: '600',
      DOMAINKIT_WRITE_BUDGET_BURST: '50',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    bff.child.on('exit', (code, signal) => {
      if (!stopped.has(bff.child)) exits.push(`BFF exited (${code ?? signal}):\n${bff.output().slice(-3000)}`);
    });
    bffs.push(bff);
    return bff;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dk-chaos-'));
    const target = new URL(databaseUrl!);
    proxy = new DatabaseProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await startSandbox();
    demo = readDemoCredential(join(dir, 'sandbox'));
    await startBff();
  }, 120_000);

  afterAll(async () => {
    running = false;
    for (const c of [...bffs, sandbox]) {
      if (c !== undefined && c.child.exitCode === null && c.child.signalCode === null) {
        stopped.add(c.child);
        c.child.kill('SIGKILL');
      }
    }
    await proxy?.stop();
    for (const schema of [BFF_SCHEMA, SANDBOX_SCHEMA])
      await admin?.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
    await admin?.end();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Terminates every connection of both processes to the server. */
  async function terminateAll(): Promise<number> {
    const { rows } = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name in ($1, $2)',
      [BFF_APP, SANDBOX_APP],
    );
    return rows.length;
  }

  it('loses no process, no search and no order', async () => {
    const bffUrl = () => bffs[bffs.length - 1]!.url;
    /** A first search of `word`, answered (a `busy` answer is retried, as a visitor would). */
    const warm = (word: string) =>
      vi.waitFor(
        async () => {
          const answer = await send(`${bffUrl()}/search?q=${word}`);
          expect(answer.status, JSON.stringify(answer.json)).toBe(200);
          return answer;
        },
        { timeout: 20_000, interval: 500 },
      );
    // Warm: the queries visitors will repeat, and the domains they will buy.
    const domains: string[] = [];
    for (const word of BUY_WORDS) {
      const answer = await warm(word);
      const available = (answer.json.results as Array<{ domain: string; available: boolean }>).find(
        (r) => r.available && !domains.includes(r.domain),
      );
      if (available) domains.push(available.domain);
    }
    expect(domains.length).toBeGreaterThanOrEqual(5);
    // A purchase rightly drops every answer listing the domain sold: the repeated queries are those listing none.
    const repeated: string[] = [];
    for (const word of SEARCH_WORDS) {
      const answer = await warm(word);
      const listed = (answer.json.results as Array<{ domain: string }>).map((r) => r.domain);
      if (!listed.some((d) => domains.includes(d))) repeated.push(word);
    }
    expect(repeated.length).toBeGreaterThan(0);

    // Visitors running, all along (but while the test restarts the BFF process: nobody answers then).
    let restarting = false;
    running = true;
    const searchStatuses: number[] = [];
    const searches = (async () => {
      for (let i = 0; running; i++) {
        if (!restarting) {
          const url = bffUrl();
          const answer = await send(`${url}/search?q=${repeated[i % repeated.length]}`);
          if (!(answer.status === 0 && (restarting || url !== bffUrl()))) searchStatuses.push(answer.status);
        }
        await pause(20);
      }
    })();

    // A purchase as the widget makes it: a quote, then the order with its purchase key; a 503 or an unanswered
    // request is retried (the same key: never a second payment), a 202 is followed until the order is recorded.
    const orderStatuses: number[] = [];
    /** The `error` of each 503 answer to `POST /orders`. */
    const refusals: Array<{ code: string; money?: string }> = [];
    /** The last view of each order placed, for the failure message. */
    const views = new Map<string, string>();
    const quoteStatuses: number[] = [];
    const buy = async (domain: string, ordering: Promise<void> = Promise.resolve()): Promise<string> => {
      let quoteId: string | undefined;
      while (quoteId === undefined && running) {
        const quote = await send(`${bffUrl()}/quotes`, { method: 'POST', body: { domain } });
        if (quote.status !== 0) quoteStatuses.push(quote.status);
        if (quote.status === 201) quoteId = quote.json.quote_id as string;
        else {
          expect([0, 502, 503]).toContain(quote.status);
          await pause(200);
        }
      }
      await ordering;
      const key = randomUUID();
      const body = { quote_id: quoteId, buyer: { email: 'ada@example.com' }, payment: CARD };
      while (running) {
        const order = await send(`${bffUrl()}/orders`, {
          method: 'POST',
          body,
          headers: { 'idempotency-key': key },
        });
        if (order.status !== 0) orderStatuses.push(order.status);
        if (order.status === 503) refusals.push(order.json.error);
        if (order.status === 201 || order.status === 202) {
          const { order_id: id, order_token: token } = order.json as { order_id: string; order_token: string };
          while (running) {
            const view = await send(`${bffUrl()}/orders/${id}`, { headers: { 'x-order-token': token } });
            views.set(domain, `${view.status} ${JSON.stringify(view.json)}`);
            if (view.status === 200 && view.json.status === 'EXTERNALLY_PAID') return domain;
            await pause(200);
          }
          break;
        }
        expect([0, 503]).toContain(order.status);
        await pause(200);
      }
      throw new Error(`the purchase of ${domain} was left unfinished`);
    };

    // 1. Purchases under way while every connection is cut, again and again (ten times, or until they are done).
    const firstBatch = Promise.all(domains.slice(0, 2).map((d) => buy(d)));
    let cutting = true;
    void firstBatch.finally(() => (cutting = false));
    for (let rounds = 0; rounds < 3 || (cutting && rounds < 10); rounds++) {
      await terminateAll();
      await pause(100);
    }
    const purchases = [firstBatch];
    // 2. The server goes down: purchases quoted before it pay while it is down; more start; then it comes back.
    let down!: () => void;
    const serverDown = new Promise<void>((resolve) => (down = resolve));
    purchases.push(Promise.all(domains.slice(2, 4).map((d) => buy(d, serverDown))));
    await vi.waitFor(
      () => {
        expect(exits).toEqual([]); // a process that died is the failure, not the purchases it left waiting
        expect(quoteStatuses.filter((s) => s === 201)).toHaveLength(4);
      },
      {
        timeout: 30_000,
        interval: 50,
      },
    );
    await proxy.stop();
    down();
    purchases.push(Promise.all(domains.slice(4, 5).map((d) => buy(d))));
    await vi.waitFor(
      () => {
        expect(orderStatuses.filter((s) => s === 503).length).toBeGreaterThan(0);
        expect(quoteStatuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect((await send(`${bffUrl()}/healthz`)).status).toBe(200);
    await proxy.start();

    /** Every purchase started so far, complete (bounded: the recovery pass runs every 10 s, a lease lasts 60 s). */
    const completed = (what: string) =>
      Promise.race([
        Promise.all(purchases).then((batches) => batches.flat()),
        pause(150_000).then(() => {
          throw new Error(
            `${what}: purchases not complete after 150 s; answers: ${orderStatuses.join(',')}; last views: ${JSON.stringify([...views])}`,
          );
        }),
      ]);
    // The purchases caught by the cuts and the outage complete on the process that took their payments: the test-card
    // adapter keeps its charges in that process's memory (a real provider answers `retrievePayment` from anywhere).
    await completed('before the restart');

    // 3. The sandbox and the BFF processes restart (the BFF on the sandbox's new port); visitors go on.
    const first = bffs[bffs.length - 1]!;
    restarting = true;
    for (const child of [first, sandbox]) {
      stopped.add(child.child);
      await child.stop('SIGTERM');
      expect(await child.closed).toBe(0);
    }
    await startSandbox();
    await startBff();
    restarting = false;
    purchases.push(Promise.all(domains.slice(5).map((d) => buy(d))));
    const bought = await completed('after the restart');
    running = false;
    await searches;

    expect(exits).toEqual([]);
    expect(searchStatuses.length).toBeGreaterThan(0);
    expect(searchStatuses.filter((s) => s !== 200)).toEqual([]);
    expect(orderStatuses.filter((s) => ![201, 202, 503].includes(s))).toEqual([]);
    expect(orderStatuses).toContain(503);
    // Each says the database is out of reach and what became of the money (taken or not before the cut).
    for (const refusal of refusals) {
      expect(refusal.code).toBe('unavailable');
      expect(['not_charged', 'unknown']).toContain(refusal.money);
    }
    expect(bought.sort()).toEqual([...domains].sort());
    const res = await fetch(`${sandbox.url}/admin/orders?key_id=${demo.key_id}&limit=100`, {
      headers: { authorization: `Bearer ${demo.admin_token}` },
    });
    const { orders } = (await res.json()) as { orders: Array<{ domain: string }> };
    // Every purchase recorded exactly once: none lost, none doubled.
    expect(orders.map((o) => o.domain).sort()).toEqual([...domains].sort());
  }, 300_000);
});
