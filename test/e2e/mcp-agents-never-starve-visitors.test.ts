/**
 * Issue 25, "what it must show" 4 and 5 (the requests half): an agent calling `search_domains` in a loop gets a busy
 * result with the seconds to wait (a result, not an error) once over its allowance, while a visitor's
 * `GET /dk/search` from the same address in the same minute is still answered; a request with a foreign `Origin`
 * or addressed to a rebinding `Host` is refused before it reaches the MCP server.
 */
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

const ALLOWANCE = 3;
const stack = useDemoStack('domainkit-mcp-busy-', { browser: false, demo: { mcp: { toolCallsPerMinute: ALLOWANCE } } });

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** POSTs `initialize` to the demo's MCP endpoint with the given `Host` and `Origin` (node:http sends them as given). */
function postInitialize(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL('dk/mcp', stack.demo.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('agents never starve the shop’s visitors', () => {
  it('past its allowance an agent gets busy with a retry time, while a visitor’s search is still answered', async () => {
    const client = new Client({ name: 'looping-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('dk/mcp', stack.demo.url)));
    const outcomes: Array<Record<string, unknown>> = [];
    for (let i = 0; i < ALLOWANCE + 2; i++) {
      const result = await client.callTool({ name: 'search_domains', arguments: { query: `coffee ${i}` } });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      outcomes.push(result.structuredContent as Record<string, unknown>);
    }
    await client.close();
    expect(outcomes.slice(0, ALLOWANCE).map((o) => o.outcome)).toEqual(Array(ALLOWANCE).fill('ok'));
    const busy = outcomes.at(-1)!;
    expect(busy.outcome).toBe('busy');
    expect(busy.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(busy.retry_after_seconds).toBeLessThanOrEqual(60);
    expect(busy.message).toMatch(/call again in \d+ s/);

    // The same address, the same minute: the visitor is answered (the agent's calls are not the visitor's).
    const visitor = await fetch(new URL('dk/search?q=coffee', stack.demo.url));
    expect(visitor.status).toBe(200);
    expect(((await visitor.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });

  it('answers its own host, with no Origin (an agent) or its own page’s Origin', async () => {
    const own = new URL(stack.demo.url);
    expect((await postInitialize({ host: own.host })).status).toBe(200);
    expect((await postInitialize({ host: own.host, origin: own.origin })).status).toBe(200);
  });

  it('refuses a foreign Origin', async () => {
    const answer = await postInitialize({ host: new URL(stack.demo.url).host, origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'forbidden' } });
    expect(answer.body).toMatch(/evil\.example/);
  });

  it('refuses a request addressed to a rebinding host, even from that host’s own page', async () => {
    const port = new URL(stack.demo.url).port;
    const answer = await postInitialize({ host: `rebind.example:${port}`, origin: `http://rebind.example:${port}` });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'forbidden' } });
    expect(answer.body).toMatch(/mcp\.allowedHosts/);
  });
});
