/**
 * Issue 25, "what it must show" 3: a brokerage request an agent prepares opens no case upstream until the person
 * consents. `brokerage_request` answers a consent link and creates nothing (the marketplace lists no case for the
 * shop's credential); the person opens the link in Chromium, types their e-mail address, ticks the consent and sends
 * the form: then exactly one case is opened, and sending the same form again opens no second one. A form sent from
 * another site is refused.
 */
import { PartnerClient } from '@domainkit/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

const stack = useDemoStack('domainkit-mcp-brokerage-');
let agent: Client;
const domain = `bakery-of-${Date.now().toString(36)}.com`;

beforeAll(async () => {
  agent = new Client({ name: 'brokerage-agent', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL('dk/mcp', stack.demo.url)));
});
afterAll(async () => {
  await agent?.close();
});

/** The cases the marketplace holds for the demo shop's credential for `domain` (`GET /brokerage`, scope report). */
async function casesFor(name: string): Promise<unknown[]> {
  const { key_id, secret } = stack.demo.credential;
  const partner = new PartnerClient({ baseUrl: stack.demo.sandboxUrl, keyId: key_id, secret });
  const cases: unknown[] = [];
  for await (const c of partner.brokerage.list()) if ((c as { domain: string }).domain === name) cases.push(c);
  return cases;
}

describe('a brokerage request needs the person', () => {
  let consentUrl: string;

  it("the agent's request answers a consent link and opens no case", async () => {
    const eligibility = await agent.callTool({ name: 'brokerage_eligibility', arguments: { domain } });
    const offer = eligibility.structuredContent as { eligible: boolean; min_budget_cents: number };
    expect(offer.eligible).toBe(true);
    const request = await agent.callTool({
      name: 'brokerage_request',
      arguments: { domain, budget_cents: offer.min_budget_cents + 5_000 },
    });
    expect(request.isError, JSON.stringify(request.content)).toBeFalsy();
    const prepared = request.structuredContent as { outcome: string; consent_url: string };
    expect(prepared.outcome).toBe('ok');
    expect(prepared.consent_url.startsWith(new URL('dk/mcp/consent?t=', stack.demo.url).href)).toBe(true);
    consentUrl = prepared.consent_url;
    expect(await casesFor(domain)).toEqual([]);
  });

  it('a budget under the minimum is refused before anything is prepared', async () => {
    const result = await agent.callTool({ name: 'brokerage_request', arguments: { domain, budget_cents: 1 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/budget_cents must be at least/);
  });

  it('a form sent from another site opens nothing', async () => {
    const token = new URL(consentUrl).searchParams.get('t')!;
    const answer = await fetch(consentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ t: token, buyer_email: 'agent@example.com', consent: 'true' }),
    });
    expect(answer.status).toBe(403);
    expect(await casesFor(domain)).toEqual([]);
  });

  it('the person opens the link, agrees, and exactly one case is opened', async () => {
    const page = await stack.browser.newPage();
    await page.goto(consentUrl);
    await expect.poll(() => page.locator('h1').textContent()).toContain(domain);
    await page.getByLabel('Your e-mail address').fill('person@example.com');
    // Sent without the consent ticked, the form comes back saying so, and nothing is opened.
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Tick the box so our brokers may contact you.');
    expect(await casesFor(domain)).toEqual([]);
    await page.getByLabel('I agree to be contacted about this request.').check();
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Request sent');
    expect(await page.getByTestId('progress').getAttribute('href')).toMatch(/^http/);
    expect(await casesFor(domain)).toHaveLength(1);
    // The same link opened and sent again: still one case, and the person reads that it was sent.
    await page.goto(consentUrl);
    await page.getByLabel('Your e-mail address').fill('person@example.com');
    await page.getByLabel('I agree to be contacted about this request.').check();
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Request sent');
    expect(await casesFor(domain)).toHaveLength(1);
    await page.close();
  });
});
