/**
 * The React SPA example (examples/spa, built with Vite from the npm build of the widget) against the demo stack:
 * a visitor searches, the app logs the widget's dk-* events, and a purchase completes on the hosted checkout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type Demo } from '@domainkit/example-demo';
import { launchChromium } from './browser.ts';
import { buyButtonOf, payOnLander, searchFor } from './widget-page.ts';

let demo: Demo;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'domainkit-spa-'));
  demo = await startDemo({ port: 0, sandboxPort: 0, dataDir, quiet: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the React SPA example', () => {
  it('logs the widget events and completes a hosted-checkout purchase', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(new URL('spa/', demo.url).href);

    const options = await searchFor(page, 'coffee');
    expect(await options.count()).toBeGreaterThan(0);
    const log = page.getByTestId('event-log');
    await expect.poll(() => log.textContent()).toContain('dk-results');
    expect(await log.textContent()).toContain('dk-search');

    const domain = (await options
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
    await buyButtonOf(page, domain).click();
    await page.waitForURL((url) => url.href.startsWith(`${demo.sandboxUrl}/checkout`));
    expect(await page.getByTestId('lander-domain').textContent()).toBe(domain);
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');

    const after = await page.request.get(new URL(`dk/domains/${domain}`, demo.url).href);
    expect(((await after.json()) as { available: boolean }).available).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sells as Merchant of Record: a locked quote, the test card in the payment slot, an order recorded upstream', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(new URL('spa/', demo.url).href);
    await page.getByLabel('Buying flow').selectOption('order');

    // A query of its own: the domain sold by the test above may still come back, as available, from the BFF's
    // short-lived search cache (the marketplace then refuses the quote with 409, which the widget shows).
    const options = await searchFor(page, 'garden');
    const domain = (await options
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
    await buyButtonOf(page, domain).click();
    const search = page.locator('dk-domain-search');
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 10_000 }).toBe('quoted');
    await page.locator('form.payment button[type="submit"]').click();
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('ordered');
    const log = page.getByTestId('event-log');
    await expect.poll(() => log.textContent()).toContain('dk-order-created');
    expect(await log.textContent()).toContain('dk-quote');

    // The order exists upstream exactly once, recorded from the quote's price; the domain is no longer for sale.
    const admin = await fetch(`${demo.sandboxUrl}/admin/orders?key_id=${demo.credential.key_id}`, {
      headers: { authorization: `Bearer ${demo.credential.admin_token}` },
    });
    const orders = ((await admin.json()) as { orders: Array<{ domain: string; status: string }> }).orders.filter(
      (o) => o.domain === domain,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]!.status).toBe('EXTERNALLY_PAID');
    expect(errors).toEqual([]);
    await page.close();
  });
});
