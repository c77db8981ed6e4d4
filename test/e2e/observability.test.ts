/**
 * Operating the BFF against the real sandbox: one visitor search carries one request id through the BFF's answer,
 * every BFF log line of that request and the sandbox's log line of the upstream call; and `GET /metrics`, read with
 * a Prometheus text-format parser, moves as searches and purchases run.
 */
import { Writable } from 'node:stream';
import { startBff, testCardPayments, type RunningBff } from '@domainkit/bff';
import { createSandboxAdmin, startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, startCli, type CliProcess } from '../setup/child-process.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

const parsePrometheus = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}>;

/** A pino logger whose JSON lines are kept. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    }),
  );
  return { lines, logger };
}

let dir: string;
let sandbox: RunningSandbox;
const sandboxLogs = capture();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'domainkit-e2e-observability-'));
  sandbox = await startSandbox({
    port: 0,
    dataDir: seedPgliteCluster(join(dir, 'sandbox')),
    databaseUrl: '',
    logger: sandboxLogs.logger,
  });
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('request ids end to end', () => {
  let bff: RunningBff;
  const bffLogs = capture();
  beforeAll(async () => {
    bff = await startBff({
      port: 0,
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret },
      logger: bffLogs.logger,
      background: { enabled: false },
      siblings: false,
    });
  });
  afterAll(() => bff?.close());

  it('one search: the same id in the answer header, every BFF line of the request, and the upstream call', async () => {
    const before = bffLogs.lines.length;
    const res = await fetch(`${bff.url}/search?q=maple`);
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await res.arrayBuffer();
    await expect.poll(() => bffLogs.lines.slice(before).some((l) => l.msg === 'request')).toBe(true);

    // Every BFF line written while the request was served (nothing else runs: background work is off).
    const lines = bffLogs.lines.slice(before);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.req_id, JSON.stringify(line)).toBe(id);
    const access = lines.find((l) => l.msg === 'request')!;
    expect(access).toMatchObject({
      level: 30, // info
      method: 'GET',
      route: '/search',
      status: 200,
      cache: 'miss',
      upstream_calls: 1,
    });
    expect(typeof access.ms).toBe('number');
    expect(JSON.stringify(access)).not.toContain('maple'); // never the visitor's query

    const upstream = sandboxLogs.lines.filter(
      (l) => l.msg === 'request' && l.path === '/api/partner/v1/domains/search' && l.client_request_id === id,
    );
    expect(upstream).toHaveLength(1);
    expect(upstream[0]!.status).toBe(200);
  });

  it('adopts a well-formed id the widget sends, and replaces one that is not, never echoing it', async () => {
    const sent = await fetch(`${bff.url}/search?q=maple`, { headers: { 'X-Request-Id': 'widget-7f3a.1' } });
    expect(sent.headers.get('x-request-id')).toBe('widget-7f3a.1');
    await sent.arrayBuffer();
    await expect
      .poll(() => bffLogs.lines.find((l) => l.msg === 'request' && l.req_id === 'widget-7f3a.1'))
      .toMatchObject({ cache: 'hit', upstream_calls: 0 });

    const bad = await fetch(`${bff.url}/healthz`, { headers: { 'X-Request-Id': '<script>alert(1)</script>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await bad.arrayBuffer();
    expect(JSON.stringify(bffLogs.lines)).not.toContain('<script>');
  });
});

describe('GET /metrics', () => {
  let bff: RunningBff;
  beforeAll(async () => {
    bff = await startBff({
      port: 0,
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret },
      payments: testCardPayments(),
      database: { dataDir: seedPgliteCluster(join(dir, 'bff')) },
      logger: false,
      background: { enabled: false },
      siblings: false,
      visitorLimits: { searchesPerMinute: 4, writesPerMinute: 10 },
      metrics: { token: 'metrics-token-for-tests' },
    });
    await bff.bff.ready;
  });
  afterAll(() => bff?.close());

  async function scrape() {
    const res = await fetch(`${bff.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-tests' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheus(await res.text());
    return (name: string, labels: Record<string, string> = {}): number => {
      const family = families.find((f) => f.name === name);
      if (family === undefined) throw new Error(`no metric ${name}`);
      return family.metrics
        .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
        .reduce((sum, m) => sum + Number(m.value ?? 0), 0);
    };
  }

  it('needs its token', async () => {
    const res = await fetch(`${bff.url}/metrics`);
    expect(res.status).toBe(401);
  });

  it('moves as searches and a purchase run', async () => {
    await bff.bff.checkCredential({ writes: false }); // the start probe, done before the figures are read
    const start = await scrape();
    const searchTokens = start('domainkit_bff_budget_tokens', { class: 'search' });
    expect(searchTokens).toBeGreaterThan(4);
    expect(start('domainkit_bff_purchase_intents')).toBe(0);

    const first = await fetch(`${bff.url}/search?q=cedar`);
    const results = ((await first.json()) as { results: Array<{ domain: string; available: boolean }> }).results;
    await (await fetch(`${bff.url}/search?q=cedar`)).arrayBuffer();
    const searched = await scrape();
    expect(searched('domainkit_bff_upstream_requests_total', { class: 'search', status: '200' })).toBe(1);
    expect(searched('domainkit_bff_cache_lookups_total', { cache: 'search', result: 'miss' })).toBe(1);
    expect(searched('domainkit_bff_cache_lookups_total', { cache: 'search', result: 'hit' })).toBe(1);
    expect(searched('domainkit_bff_budget_tokens', { class: 'search' })).toBeLessThan(searchTokens);

    const domain = results.find((r) => r.available)!.domain;
    const post = (path: string, body: unknown) =>
      fetch(`${bff.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, string> }));
    const quote = await post('/quotes', { domain });
    expect(quote.status).toBe(201);
    const order = await post('/orders', {
      quote_id: quote.json.quote_id,
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    });
    expect(order.status, JSON.stringify(order.json)).toBe(201);
    const bought = await scrape();
    expect(bought('domainkit_bff_upstream_requests_total', { class: 'write', status: '201' })).toBe(2);
    expect(bought('domainkit_bff_purchase_intents', { state: 'recorded' })).toBe(1);
    expect(bought('domainkit_bff_recovery_backlog')).toBe(0);
    expect(bought('domainkit_bff_budget_tokens', { class: 'write' })).toBeLessThan(
      start('domainkit_bff_budget_tokens', { class: 'write' }),
    );

    // The visitor limit (4 searches a minute here, counting those that may spend the budget: not the second
    // "cedar", answered from memory): the next ones are 429s, counted.
    for (const q of ['birch', 'maple', 'alder', 'rowan']) await (await fetch(`${bff.url}/search?q=${q}`)).arrayBuffer();
    const limited = await scrape();
    expect(limited('domainkit_bff_visitor_refusals_total', { status: '429', route: '/search' })).toBeGreaterThan(0);
  });
});

describe('readiness proves the credential', () => {
  // The standalone server keeps its state in embedded PGlite: a data folder of this file's own.
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dk-readiness-'));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  const env = (secret: string, keyId = sandbox.demo.key_id) => ({
    PATH: process.env.PATH ?? '',
    DOMAINKIT_DATA_DIR: dataDir,
    DOMAINKIT_API_BASE_URL: sandbox.url,
    DOMAINKIT_KEY_ID: keyId,
    DOMAINKIT_API_SECRET: secret,
    DOMAINKIT_LOG_FORMAT: 'json',
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const WRONG = `sk_test_${'x'.repeat(40)}`;

  /** `domainkit-bff --check`: its exit code and output. */
  async function check(vars: Record<string, string>): Promise<{ code: number | null; output: string }> {
    const child = spawnCli('bff', ['--check'], vars);
    const code = await child.closed;
    return { code, output: child.output() };
  }

  /** The standalone BFF: its URL and its log lines. */
  function standalone(vars: Record<string, string>): Promise<CliProcess> {
    return startCli('bff', [], vars);
  }

  it('a wrong secret keeps /readyz at 503 invalid_signature and --check non-zero; the right one makes both pass', async () => {
    const wrong = await check(env(WRONG));
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toContain('invalid_signature');
    expect(wrong.output).not.toContain(WRONG);

    const bad = await standalone(env(WRONG));
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${bad.url}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ error: { code: 'unavailable', reason: 'invalid_signature' } });
      }
      await expect.poll(() => bad.output()).toMatch(/"level":40.*"reason":"invalid_signature"/);
    } finally {
      await bad.stop('SIGTERM');
    }

    const right = await check(env(sandbox.demo.secret));
    expect(right.code, right.output).toBe(0);
    expect(right.output).toMatch(/^ok: /);
    const good = await standalone(env(sandbox.demo.secret));
    try {
      const res = await fetch(`${good.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready', database: 'pglite' });
    } finally {
      await good.stop('SIGTERM');
    }
  });

  it('names a missing scope', async () => {
    const admin = createSandboxAdmin({ url: sandbox.url, adminToken: sandbox.demo.admin_token });
    const searchOnly = await admin.credentials.create({ scopes: ['search'], environment: 'SANDBOX' });
    const result = await check(env(searchOnly.secret, searchOnly.key_id));
    expect(result.code).toBe(1);
    expect(result.output).toContain('forbidden: scope embed missing');
  });
});
