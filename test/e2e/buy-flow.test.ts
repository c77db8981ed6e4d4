/**
 * The walking skeleton, end to end: a visitor searches in <dk-domain-search> on the script-tag example page,
 * clicks Buy, lands on the sandbox's hosted checkout, pays with a test card, and the domain is sold.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { buyButtonOf, payOnLander, searchFor } from './widget-page.ts';

const logs: string[] = [];
const bodies: string[] = [];
/** The BFF's search-cache clock: search answers are cached for a short TTL, so "a new search" happens later. */
let bffClock = Date.now();

const logStream = new Writable({
  write(chunk, _encoding, done) {
    logs.push(String(chunk));
    done();
  },
});
const stack = useDemoStack('domainkit-e2e-', { demo: { quiet: false, logStream, bffClock: () => bffClock } });

async function openPage(): Promise<Page> {
  const page = await stack.browser.newPage();
  page.on('response', async (response) => {
    bodies.push(JSON.stringify(await response.allHeaders()));
    try {
      bodies.push((await response.body()).toString('utf8'));
    } catch {
      // redirects and aborted requests have no body
    }
  });
  await page.goto(stack.demo.url);
  return page;
}

async function availabilityFromBff(page: Page, domain: string): Promise<boolean> {
  const answer = await page.request.get(new URL(`dk/domains/${domain}`, stack.demo.url).href);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { available: boolean }).available;
}

describe('a visitor finds and buys a domain', () => {
  let domain: string;

  it('shows between 1 and 5 results with prices for a typed word', async () => {
    const page = await openPage();
    const options = await searchFor(page, 'coffee');
    const count = await options.count();
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(5);
    for (let i = 0; i < count; i++) {
      await expect.poll(() => options.nth(i).locator('[part="price"]').textContent()).toMatch(/\$\s?[\d,]+/);
    }
    const buyable = options.filter({ has: page.locator('[part="buy-button"]') }).first();
    domain = (await buyable.getAttribute('data-domain'))!;
    expect(domain).toMatch(/coffee/);
    await page.close();
  });

  it('a declined card leaves the domain available', async () => {
    const page = await openPage();
    await searchFor(page, domain);
    await buyButtonOf(page, domain).click();
    await page.waitForURL((url) => url.href.startsWith(`${stack.demo.sandboxUrl}/checkout`));
    await expect.poll(() => page.getByTestId('lander-domain').textContent()).toBe(domain);
    expect(await payOnLander(page, '4000 0000 0000 0002')).toBe('declined');
    expect(await availabilityFromBff(page, domain)).toBe(true);
    await page.close();
  });

  it('the test card pays, and a new search reports the domain unavailable', async () => {
    const page = await openPage();
    const options = await searchFor(page, domain);
    await buyButtonOf(page, domain).click();
    await page.waitForURL((url) => url.href.startsWith(`${stack.demo.sandboxUrl}/checkout`));
    expect(await page.getByTestId('lander-domain').textContent()).toBe(domain);
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    expect(await options.count()).toBe(0); // we left the partner page

    // A new search once the BFF has stopped serving its cached answer for this query (fresh 6 h, stale 18 h).
    bffClock += 25 * 60 * 60_000;
    await page.goto(stack.demo.url);
    await searchFor(page, domain);
    const row = page.locator(`dk-domain-search [part="option"][data-domain="${domain}"]`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('[part="buy-button"]').count()).toBe(0);
    const answer = await page.request.get(new URL(`dk/search?q=${encodeURIComponent(domain)}`, stack.demo.url).href);
    const found = ((await answer.json()) as { results: Array<{ domain: string; available: boolean }> }).results.find(
      (r) => r.domain === domain,
    );
    expect(found?.available).toBe(false);
    await page.close();
  });

  it('the stack.demo secret appears in no response, no log line and no widget build file', async () => {
    const secret = stack.demo.credential.secret;
    expect(secret).toMatch(/^sk_test_/);
    expect(bodies.length).toBeGreaterThan(5);
    expect(logs.length).toBeGreaterThan(0);
    expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
    expect(logs.filter((l) => l.includes(secret))).toEqual([]);
    const dist = fileURLToPath(new URL('../../packages/widget/dist/', import.meta.url));
    const files = (await readdir(dist, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(await readFile(join(file.parentPath, file.name), 'utf8')).not.toContain(secret);
    }
  });
});
