/**
 * Issue 25, "what it must show" 1: the official MCP SDK client against the demo stack (`/dk/mcp` on the demo's
 * origin). `tools/list` gives each tool with its input and output schemas and annotations; `search_domains` answers
 * the same names and prices as `GET /dk/search`; `checkout_link` gives a hosted checkout URL that a person opens in
 * Chromium and pays with the test card, and the partner's `onCheckoutCompleted` hook sees the sale. No tool result
 * carries the partner's secret. `GET /dk/llms.txt` describes the same tools.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { payOnLander } from './widget-page.ts';

const sales: Array<{ domain: string; status: string; price_cents: number }> = [];
const stack = useDemoStack('domainkit-mcp-', { demo: { onCheckoutCompleted: (sale) => void sales.push(sale) } });
const toolTexts: string[] = [];
let client: Client;

beforeAll(async () => {
  client = new Client({ name: 'domainkit-e2e-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('dk/mcp', stack.demo.url)));
});
afterAll(async () => {
  await client?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  toolTexts.push(JSON.stringify(result));
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

describe("an agent shops at the partner's MCP endpoint", () => {
  it('lists each tool with its input and output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'brokerage_eligibility',
      'brokerage_request',
      'checkout_link',
      'domain_details',
      'order_status',
      'search_domains',
    ]);
    expect(byName.get('search_domains')!.inputSchema.required).toEqual(['query']);
    expect(byName.get('domain_details')!.inputSchema.required).toEqual(['domain']);
    expect(byName.get('checkout_link')!.inputSchema.required).toEqual(['domain']);
    expect(byName.get('order_status')!.inputSchema.required).toEqual(['order_id', 'order_token']);
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {}), tool.name).toContain('outcome');
      expect(tool.description, tool.name).toBeTruthy();
    }
    expect(byName.get('search_domains')!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('domain_details')!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('order_status')!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('checkout_link')!.annotations?.readOnlyHint).toBe(false);
    expect(byName.get('checkout_link')!.annotations?.destructiveHint).toBe(false);
  });

  it('search answers the same names and prices as GET /search, with the alternate TLDs', async () => {
    const found = await call('search_domains', { query: 'Coffee' });
    const visitor = (await (await fetch(new URL('dk/search?q=coffee', stack.demo.url))).json()) as {
      results: unknown[];
    };
    expect(found.outcome).toBe('ok');
    expect(found.query).toBe('coffee');
    expect((found.results as unknown[]).length).toBeGreaterThan(0);
    expect(found.results).toEqual(visitor.results);
    const siblings = (await (await fetch(new URL('dk/siblings?q=coffee', stack.demo.url))).json()) as {
      siblings: unknown[];
    };
    expect(found.alternatives).toEqual(siblings.siblings);
  });

  it('a bad query is refused before anything upstream, naming the field', async () => {
    const result = await client.callTool({ name: 'search_domains', arguments: { query: '' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/query/);
  });

  it('one domain: its price when available, its WHOIS record when taken', async () => {
    const found = await call('search_domains', { query: 'coffee' });
    const results = found.results as Array<{ domain: string; available: boolean; price_cents: number }>;
    const free = results.find((r) => r.available)!;
    const detail = await call('domain_details', { domain: free.domain });
    expect(detail).toMatchObject({ outcome: 'ok', listed: true, available: true, price_cents: free.price_cents });
    const taken = await call('domain_details', { domain: 'google.com' });
    expect(taken).toMatchObject({ outcome: 'ok', available: false });
    expect(taken.whois).toMatchObject({ registered: true });
    expect((taken.whois as { registrar: string | null }).registrar).toBeTruthy();
  });

  it('the checkout link opens in Chromium, the test card pays, and the partner hook sees the sale', async () => {
    const found = await call('search_domains', { query: 'coffee' });
    // The last available result: the domain test above looked at the first.
    const pick = (found.results as Array<{ domain: string; available: boolean; price_cents: number }>)
      .filter((r) => r.available)
      .at(-1)!;
    const link = await call('checkout_link', { domain: pick.domain });
    expect(link).toMatchObject({ outcome: 'ok', domain: pick.domain, price_cents: pick.price_cents });
    const page = await stack.browser.newPage();
    await page.goto(link.checkout_url as string);
    expect(await page.getByTestId('lander-domain').textContent()).toBe(pick.domain);
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    // Back on the partner's page, which verifies the signed return: the sale is the partner's, as for any widget sale.
    await expect.poll(() => sales.map((s) => s.domain), { timeout: 20_000 }).toContain(pick.domain);
    expect(sales.find((s) => s.domain === pick.domain)).toMatchObject({
      status: 'paid',
      price_cents: pick.price_cents,
    });
    await page.close();
    const after = await call('domain_details', { domain: pick.domain });
    expect(after.available).toBe(false);
  });

  it('an order the person holds no valid token for reveals nothing', async () => {
    const result = await client.callTool({
      name: 'order_status',
      arguments: { order_id: 'or_unknown', order_token: 'not-a-token' },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/not_found/);
  });

  it('GET /llms.txt describes the same tools', async () => {
    const answer = await fetch(new URL('dk/llms.txt', stack.demo.url));
    expect(answer.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await answer.text();
    expect(text).toMatch(/^# Acme Domains/);
    const { tools } = await client.listTools();
    for (const tool of tools) expect(text).toContain(`\`${tool.name}\`: ${tool.description}`);
  });

  it("no tool result carries the partner's secret", () => {
    expect(toolTexts.length).toBeGreaterThan(5);
    expect(toolTexts.filter((t) => t.includes(stack.demo.credential.secret))).toEqual([]);
  });
});
