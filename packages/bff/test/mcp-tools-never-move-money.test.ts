/**
 * Issue 25, "what it must show" 5 (the static half): no MCP tool reaches the payment adapter or `POST /orders`.
 * - Read from the source: every module the MCP feature loads at run time (its imports, followed through the BFF's
 *   own files; type-only imports are erased) stays out of `purchase/` (the payment adapter, the order flow) and
 *   `brokerage/`; the routes the tools may call are reads and `POST /checkout` only, every path the tools call is one
 *   of them, and the composition builds the tools' route table from that list alone.
 * - Run: an agent calls every tool of a shop selling with a payment adapter; the adapter is never asked anything and
 *   the marketplace sees no quote, order or refund.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_CONSENT_ROUTES, MCP_SHOP_ROUTES } from '../src/mcp/index.ts';
import { testCardPayments, type PaymentAdapter } from '../src/index.ts';
import { startStubMarketplace, startTestBff, type StubMarketplace } from './helpers.ts';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** The BFF's own modules `file` imports at run time (static and dynamic; `import type` and `export type` left out). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'([^']+)'/gms),
    ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s));
}

/** Every BFF module reachable at run time from `entries`. */
function reachable(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...runtimeImports(file));
  }
  return seen;
}

describe('no MCP tool moves money (read from the source)', () => {
  const files = [...reachable(['index.ts', 'tools.ts', 'results.ts', 'options.ts'].map((f) => join(src, 'mcp', f)))]
    .map((f) => relative(src, f))
    .sort();

  it('the MCP feature loads nothing of purchase/ (payment adapter, orders) or brokerage/', () => {
    expect(files).toContain('mcp/tools.ts');
    expect(files).toContain('http/index.ts');
    expect(files.filter((f) => /^(purchase|brokerage)\//.test(f))).toEqual([]);
  });

  it('the tools may call reads and POST /checkout only, never POST /orders or POST /quotes', () => {
    expect(MCP_SHOP_ROUTES.filter((r) => r.startsWith('POST '))).toEqual(['POST /checkout']);
    const tools = readFileSync(join(src, 'mcp/tools.ts'), 'utf8');
    const called = [...tools.matchAll(/ctx\.shop\(\s*'(GET|POST)',\s*[`']([^`'?$]+)/g)].map(([, m, p]) => `${m} ${p}`);
    expect(called.length).toBeGreaterThanOrEqual(5);
    for (const call of called) {
      const pattern = call.replace(/\/$/, '/:');
      expect(
        MCP_SHOP_ROUTES.some((r) => r === call || r.startsWith(pattern)),
        `${call} is not one of MCP_SHOP_ROUTES`,
      ).toBe(true);
    }
  });

  it("the composition builds the tools' route table from MCP_SHOP_ROUTES alone", () => {
    const compose = readFileSync(join(src, 'compose.ts'), 'utf8');
    expect(compose).toMatch(/\bshop: shopCaller\(shopRoutes, common, MCP_SHOP_ROUTES\)/);
    // The person's consent page (not a tool) alone reaches POST /brokerage (and reads the eligibility as it opens);
    // nothing reaches orders or payments.
    expect(compose).toMatch(/\bconsentShop: shopCaller\(shopRoutes, common, MCP_CONSENT_ROUTES\)/);
    expect([...MCP_CONSENT_ROUTES]).toEqual(['GET /brokerage/eligibility', 'POST /brokerage']);
    const shopCaller = compose.slice(compose.indexOf('function shopCaller('));
    expect(shopCaller).toMatch(/new Set<string>\(allowed\)/);
    expect(shopCaller).toMatch(/reachable\.has\(`GET \$\{spec\.path\}`\)/);
    expect(shopCaller).toMatch(/reachable\.has\(`POST \$\{spec\.path\}`\)/);
  });
});

describe('no MCP tool moves money (run)', () => {
  let stub: StubMarketplace;
  let bff: Awaited<ReturnType<typeof startTestBff>>;
  const asked: string[] = [];

  beforeAll(async () => {
    stub = await startStubMarketplace();
    const cards = testCardPayments();
    // Every method of the adapter notes that it was asked.
    const spy = new Proxy(cards, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          asked.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as PaymentAdapter;
    bff = await startTestBff(stub, { payments: spy, database: { memory: true }, mcp: true });
  });
  afterAll(async () => {
    await bff?.close();
    await stub?.close();
  });

  it('an agent calls every tool; the payment adapter is never asked and no order is sent upstream', async () => {
    const client = new Client({ name: 'every-tool', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${bff.url}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'checkout_link',
      'domain_details',
      'order_status',
      'search_domains',
    ]);
    const search = await client.callTool({ name: 'search_domains', arguments: { query: 'coffee' } });
    const domain = (search.structuredContent as { results: Array<{ domain: string }> }).results[0]!.domain;
    await client.callTool({ name: 'domain_details', arguments: { domain } });
    const link = await client.callTool({ name: 'checkout_link', arguments: { domain } });
    expect(link.isError, JSON.stringify(link.content)).toBeFalsy();
    await client.callTool({ name: 'order_status', arguments: { order_id: 'or_1', order_token: 'x' } });
    await client.close();
    expect(stub.callsTo('checkout')).toHaveLength(1);
    expect([...stub.callsTo('quote'), ...stub.callsTo('order'), ...stub.callsTo('refund')]).toEqual([]);
    expect(asked.filter((m) => /Payment$/.test(m))).toEqual([]);
  });
});
