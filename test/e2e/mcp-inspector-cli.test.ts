/**
 * Issue 25, "what it must show" 2: the MCP Inspector's CLI mode (`@modelcontextprotocol/inspector --cli`, from npm)
 * lists the demo shop's tools at `/dk/mcp` with their schemas and calls them: a search, one domain, a checkout link.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

const run = promisify(execFile);
const inspectorPackage = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
const inspector = join(dirname(inspectorPackage), 'clients/launcher/build/index.js');
const stack = useDemoStack('domainkit-mcp-inspector-', { browser: false });
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'domainkit-inspector-home-'));
});
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

/** Runs the Inspector's CLI against the demo's endpoint; resolves with its JSON answer on standard output. */
async function inspect(...args: string[]): Promise<Record<string, unknown>> {
  const url = new URL('dk/mcp', stack.demo.url).href;
  const { stdout, stderr } = await run(process.execPath, [inspector, '--cli', url, '--transport', 'http', ...args], {
    env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json'), NO_COLOR: '1' },
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`inspector ${args.join(' ')} failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
  });
  const start = stdout.indexOf('{');
  expect(start, `no JSON on stdout:\n${stdout}\n${stderr}`).toBeGreaterThanOrEqual(0);
  return JSON.parse(stdout.slice(start)) as Record<string, unknown>;
}

describe('the MCP Inspector CLI against the demo', () => {
  it('lists the tools with their input and output schemas', async () => {
    const { tools } = (await inspect('--method', 'tools/list')) as {
      tools: Array<{ name: string; inputSchema: { properties: object }; outputSchema?: { properties: object } }>;
    };
    expect(tools.map((t) => t.name).sort()).toEqual([
      'brokerage_eligibility',
      'brokerage_request',
      'checkout_link',
      'domain_details',
      'order_status',
      'search_domains',
    ]);
    for (const tool of tools) {
      expect(Object.keys(tool.inputSchema.properties).length, tool.name).toBeGreaterThan(0);
      expect(Object.keys(tool.outputSchema?.properties ?? {}), tool.name).toContain('outcome');
    }
  });

  it('calls search, one domain and a checkout link', async () => {
    const search = (
      await inspect('--method', 'tools/call', '--tool-name', 'search_domains', '--tool-arg', 'query=coffee')
    ).structuredContent as { outcome: string; results: Array<{ domain: string; available: boolean }> };
    expect(search.outcome).toBe('ok');
    const domain = search.results.find((r) => r.available)!.domain;
    const detail = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'domain_details',
      '--tool-arg',
      `domain=${domain}`,
    );
    expect(detail.structuredContent).toMatchObject({ outcome: 'ok', domain, available: true });
    const link = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'checkout_link',
      '--tool-arg',
      `domain=${domain}`,
    );
    expect(link.isError).toBeFalsy();
    expect((link.structuredContent as { checkout_url: string }).checkout_url).toMatch(
      new RegExp(`^${stack.demo.sandboxUrl}/checkout`),
    );
  });
});
