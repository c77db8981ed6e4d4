/**
 * One BFF, every host (issue 21, "what it must show" 1): the same checks run against the BFF as a partner deploys it
 * from the packed tarballs on Express (Node), Node's http server, a Next.js App Router app (`next build`, then
 * `next start`), Hono on Node, Bun, Deno and workerd (miniflare). See `runtimes/hosts.ts` for how each is started.
 *
 * Per host: `/readyz`; a search and the siblings of a word; a typed domain's standing and its WHOIS (`GET /whois`);
 * the shop's MCP tools listed and its search called by the official MCP SDK client (`POST /mcp`); a checkout session paid on the sandbox's hosted lander
 * whose signed return `GET /checkout/return` confirms (and an edited one it refuses); a Merchant of Record quote →
 * order → status; a webhook delivery signed over its exact bytes accepted (and the same bytes, one changed, refused).
 *
 * The marketplace is the sandbox, started here; each host gets a credential of its own (the sandbox's write limit
 * is per credential). Storage: PGlite in memory on the hosts where it runs, PostgreSQL (TEST_DATABASE_URL, a schema
 * per host, dropped after) on workerd; without TEST_DATABASE_URL those hosts are skipped, by name. Wall time per host
 * is printed after the file.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@domainkit/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { signWebhookPayload } from '@domainkit/protocol';
import { startSandbox, type RunningSandbox } from '@domainkit/sandbox';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOSTS, preparePartnerProject, startHost, type PartnerProject, type RunningHost } from './runtimes/hosts.ts';
import { payByForm } from './widget-page.ts';
import { seedPgliteCluster } from '../setup/pglite-data-dir.ts';

const root = join(import.meta.dirname, '..', '..');
const databaseUrl = process.env.TEST_DATABASE_URL;
/** `DK_RUNTIMES=bun,deno` runs those hosts only (the others are skipped, by name). */
const only = process.env.DK_RUNTIMES?.split(',').map((name) => name.trim());
const CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };

/** The handler entry is what every host but Express imports; until the package exports it, the suite cannot run. */
const manifest = JSON.parse(await readFile(join(root, 'packages/bff/package.json'), 'utf8')) as {
  exports: Record<string, string>;
};
const ready = './handler' in manifest.exports;

let sandbox: RunningSandbox;
let project: PartnerProject;
let dataDir: string;
const wallTimes: Record<string, number> = {};
const schemas: string[] = [];

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer; tests read any path of it and a wrong path fails the assertion
async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${res.status}): ${text.slice(0, 500)}`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see json()
async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await json(res) };
}

/** A GET that a fresh BFF may answer 503 `busy` while its budget fills: retried after a second, as a client does. */
async function getPatiently(url: string): Promise<Response> {
  let answer = await fetch(url);
  for (let i = 0; i < 15 && answer.status === 503; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    answer = await fetch(url);
  }
  return answer;
}

/** Words the purchases look under; each host buys two domains, so the suite walks on as listings sell. */
const WORDS = ['garden', 'river', 'stone', 'cloud', 'coffee', 'forest', 'ocean', 'book', 'studio', 'market'];
const bought = new Set<string>();

/** A listed, available domain no earlier check bought, found through the host's own search. */
async function domainToBuy(url: string): Promise<string> {
  for (const word of WORDS) {
    const found = await json(await getPatiently(`${url}/search?q=${word}`));
    const domain = (found.results ?? []).find(
      (r: { domain: string; available: boolean }) => r.available && !bought.has(r.domain),
    )?.domain as string | undefined;
    if (domain !== undefined) {
      bought.add(domain);
      return domain;
    }
  }
  throw new Error(`no available domain under ${WORDS.join(', ')}`);
}

/** A credential of its own for one host, with every scope the BFF uses. */
async function credential(label: string): Promise<{ key_id: string; secret: string }> {
  const res = await fetch(`${sandbox.url}/admin/credentials`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.demo.admin_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      environment: 'SANDBOX',
      scopes: ['search', 'embed', 'buy', 'broker', 'refer', 'report', 'webhook'],
      label,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { key_id: string; secret: string };
}

beforeAll(async () => {
  if (!ready) return;
  dataDir = await mkdtemp(join(tmpdir(), 'domainkit-runtimes-sandbox-'));
  const started = performance.now();
  [sandbox, project] = await Promise.all([
    startSandbox({ port: 0, dataDir: seedPgliteCluster(join(dataDir, 'sandbox')), databaseUrl: '', logger: false }),
    preparePartnerProject({ nextBuild: only === undefined || only.includes('next') }),
  ]);
  wallTimes['prepare (build, pack, npm install, next build)'] = Math.round(performance.now() - started);
}, 900_000);

afterAll(async () => {
  await sandbox?.close();
  await project?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl && schemas.length > 0) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  if (ready) console.log(`runtimes suite wall time per host (ms): ${JSON.stringify(wallTimes)}`);
}, 60_000);

describe.skipIf(!ready)('the BFF on every host (packed tarballs, outside the workspace)', () => {
  for (const spec of HOSTS) {
    const why =
      only !== undefined && !only.includes(spec.name)
        ? 'not in DK_RUNTIMES'
        : spec.storage === 'postgres' && !databaseUrl
          ? 'needs PostgreSQL, set TEST_DATABASE_URL'
          : undefined;
    describe.skipIf(why !== undefined)(`${spec.title}${why ? ` (skipped: ${why})` : ''}`, () => {
      let host: RunningHost;
      let webhookSecret: string;
      let keyId: string;
      let secret: string;
      let started = 0;

      beforeAll(async () => {
        started = performance.now();
        const own = await credential(`runtimes ${spec.name}`);
        keyId = own.key_id;
        secret = own.secret;
        webhookSecret = `whsec_${spec.name}_${randomBytes(16).toString('hex')}`;
        const schema = `dk_runtimes_${spec.name}_${randomBytes(4).toString('hex')}`;
        if (spec.storage === 'postgres') schemas.push(schema);
        host = await startHost(project, spec.name, {
          DK_API_BASE_URL: sandbox.url,
          DK_KEY_ID: keyId,
          DK_API_SECRET: secret,
          DK_WEBHOOK_SECRET: webhookSecret,
          DK_DATABASE_URL: spec.storage === 'postgres' ? databaseUrl : undefined,
          DK_DATABASE_SCHEMA: spec.storage === 'postgres' ? schema : undefined,
        });
      }, 120_000);

      afterAll(async () => {
        await host?.stop();
        wallTimes[spec.name] = Math.round(performance.now() - started);
      }, 30_000);

      it('answers /readyz 200 once its storage is open and its credential proven', async () => {
        await vi.waitFor(
          async () => {
            const res = await fetch(`${host.url}/readyz`);
            expect(res.status, `${await res.text()}\n${host.output()}`).toBe(200);
          },
          { timeout: 60_000, interval: 250 },
        );
      }, 90_000);

      it('searches, and lists a word’s siblings under other TLDs', async () => {
        const search = await getPatiently(`${host.url}/search?q=coffee`);
        const found = await json(search);
        expect(search.status, JSON.stringify(found)).toBe(200);
        expect(found.results.length).toBeGreaterThan(0);
        expect(found.results[0].domain).toMatch(/^[a-z0-9-]+\.[a-z]+$/);

        const siblings = await getPatiently(`${host.url}/siblings?q=coffee`);
        const listed = await json(siblings);
        expect(siblings.status, JSON.stringify(listed)).toBe(200);
        expect(listed.query).toBe('coffee');
        expect(Array.isArray(listed.siblings)).toBe(true);
      }, 60_000);

      it('answers a cached search with the headers of every answer and a request id of its own', async () => {
        expect((await getPatiently(`${host.url}/search?q=coffee`)).status).toBe(200);
        const hits = [
          await fetch(`${host.url}/search?q=coffee`),
          await fetch(`${host.url}/search?q=coffee`),
          await fetch(`${host.url}/search?q=coffee`, { headers: { 'x-request-id': 'e2e-hit.1' } }),
        ];
        for (const hit of hits) {
          expect(hit.status).toBe(200);
          expect(hit.headers.get('cache-status')).toBe('domainkit-bff; hit');
          expect(hit.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(hit.headers.get('cache-control')).toBe('no-store');
          expect(hit.headers.get('content-security-policy')).toContain("default-src 'none'");
          expect(hit.headers.get('x-content-type-options')).toBe('nosniff');
          expect(hit.headers.get('x-frame-options')).toBe('DENY');
          // Next.js adds its own (`rsc`, …) to the BFF's.
          expect(hit.headers.get('vary')?.split(/,\s*/)).toContain('Origin');
          // Plain HTTP: no HSTS (RFC 6797 section 7.2).
          expect(hit.headers.get('strict-transport-security')).toBeNull();
          expect((await json(hit)).query).toBe('coffee');
        }
        const [first, second, sent] = hits.map((hit) => hit.headers.get('x-request-id'));
        expect(first).toMatch(/^[0-9a-f-]{36}$/);
        expect(second).toMatch(/^[0-9a-f-]{36}$/);
        expect(second).not.toBe(first);
        expect(sent).toBe('e2e-hit.1');
      }, 60_000);

      it('says where a typed domain stands and who holds it (GET /whois), refusing a bad domain first', async () => {
        const standing = await json(await getPatiently(`${host.url}/siblings?q=live-site.com`));
        expect(standing.domain).toEqual({ domain: 'live-site.com', status: 'registered' });

        const whois = await getPatiently(`${host.url}/whois?domain=live-site.com`);
        const held = await json(whois);
        expect(whois.status, JSON.stringify(held)).toBe(200);
        expect(held).toMatchObject({ domain: 'live-site.com', registered: true, registrar: expect.any(String) });

        const bad = await fetch(`${host.url}/whois?domain=live%00site.com`);
        expect(bad.status).toBe(400);
        expect((await json(bad)).error.code).toBe('validation_error');
      }, 60_000);

      it('serves the shop’s tools to an agent over MCP (official SDK client): the search answers as GET /search', async () => {
        const agent = new Client({ name: `domainkit-runtimes-${spec.name}`, version: '1.0.0' });
        await agent.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`)));
        try {
          const { tools } = await agent.listTools();
          expect(tools.map((t) => t.name)).toContain('search_domains');
          const visitor = await json(await getPatiently(`${host.url}/search?q=garden`));
          const result = await agent.callTool({ name: 'search_domains', arguments: { query: 'garden' } });
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
          const found = result.structuredContent as { outcome: string; results: unknown[] };
          expect(found.outcome).toBe('ok');
          expect(found.results).toEqual(visitor.results);
        } finally {
          await agent.close();
        }
      }, 60_000);

      it('opens a checkout session; the lander’s signed return is confirmed, an edited one refused', async () => {
        const domain = await domainToBuy(host.url);
        const session = await post(`${host.url}/checkout`, { domain });
        expect(session.status, JSON.stringify(session.body)).toBe(201);
        const checkoutUrl = new URL(session.body.checkout_url);

        const paid = await payByForm(checkoutUrl);
        expect(paid.status, await paid.clone().text()).toBe(303);
        const receipt = await (await fetch(new URL(paid.headers.get('location')!, checkoutUrl))).text();
        const href = /href="([^"]+)" data-testid="lander-return"/.exec(receipt)?.[1];
        expect(href, receipt).toBeDefined();
        const query = new URL(href!.replaceAll('&amp;', '&')).search;
        expect(query).toContain('sig=');

        const confirmed = await fetch(`${host.url}/checkout/return${query}`);
        const sale = await json(confirmed);
        expect(confirmed.status, JSON.stringify(sale)).toBe(200);
        expect(sale).toMatchObject({ status: 'paid', domain });

        const edited = new URLSearchParams(query);
        edited.set('price_cents', '1');
        const refused = await fetch(`${host.url}/checkout/return?${edited}`);
        expect(refused.status).toBe(400);
        expect((await json(refused)).error.code).toBe('validation_error');
      }, 60_000);

      it('sells as Merchant of Record: quote → order → its status', async () => {
        const domain = await domainToBuy(host.url);
        const quote = await post(`${host.url}/quotes`, { domain });
        expect(quote.status, JSON.stringify(quote.body)).toBe(201);
        const order = await post(`${host.url}/orders`, {
          quote_id: quote.body.quote_id,
          buyer: { email: 'ada@example.com', country: 'GB' },
          payment: CARD,
        });
        expect(order.status, JSON.stringify(order.body)).toBe(201);
        expect(order.body).toMatchObject({ domain, sale_price_cents: quote.body.price_cents });
        const view = await fetch(`${host.url}/orders/${order.body.order_id}`, {
          headers: { 'x-order-token': order.body.order_token },
        });
        const status = await json(view);
        expect(view.status, JSON.stringify(status)).toBe(200);
        expect(status).toMatchObject({ order_id: order.body.order_id, status: 'EXTERNALLY_PAID' });
      }, 90_000);

      it('accepts a webhook signed over its exact bytes and refuses the same delivery with one byte changed', async () => {
        const client = new PartnerClient({ baseUrl: sandbox.url, keyId, secret });
        let event: unknown;
        for await (const item of client.events.list({})) {
          event = item;
          break;
        }
        expect(event, 'the MoR order above recorded an event').toBeDefined();
        // Indented: bytes a re-serialising parser would not reproduce, so only the raw body verifies.
        const body = JSON.stringify(event, null, 2);
        const signature = await signWebhookPayload(webhookSecret, body);
        const deliver = (bytes: string) =>
          fetch(`${host.url}/webhooks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-service-signature': signature },
            body: bytes,
          });
        const accepted = await deliver(body);
        expect(accepted.status, await accepted.clone().text()).toBe(200);
        const refused = await deliver(body.replace('{', '{ '));
        expect(refused.status).toBe(400);
        expect((await json(refused)).error).toMatchObject({
          code: 'validation_error',
          message: expect.stringMatching(/signature/),
        });
      }, 60_000);

      // Last, after every route above: a partner reads a runtime's warning about the code it runs as a defect of theirs.
      it('leaves no runtime warning in the host’s output (deprecations, Deno’s legacy request abort)', () => {
        const warnings = host
          .output()
          .split('\n')
          .filter((line) => /DeprecationWarning|\[DEP\d+\]|legacy behavior|deprecated/i.test(line));
        expect(warnings).toEqual([]);
      });
    });
  }
});
