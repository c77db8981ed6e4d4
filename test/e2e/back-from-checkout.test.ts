/**
 * Back from the hosted checkout with the browser's Back button, in headless Chromium on the script-tag example: the
 * page comes back from the back/forward cache (as it is, spinner and all, unless the widget recovers) and the search
 * must be usable at once: no spinner on the chosen row, every Buy enabled, and a new search's Buy goes to checkout.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { useDemoStack } from './demo-stack.ts';
import { searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-back-', { browser: false });
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium({ backForwardCache: true });
});
afterAll(() => browser?.close());

describe('back from the hosted checkout', () => {
  it('the page restored from the back/forward cache: the search is usable, every Buy enabled', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Counts the page's shows, and whether the last came from the back/forward cache.
    await page.addInitScript(() => {
      const shows = { count: 0, persisted: false };
      Object.assign(window, { dkShows: shows });
      addEventListener('pageshow', (event) => {
        shows.count++;
        shows.persisted = event.persisted;
      });
    });
    await page.goto(stack.demo.url);
    const rows = await searchFor(page, 'coffee');
    const buy = rows.locator('[part="buy-button"]');
    expect(await buy.count()).toBeGreaterThan(0);
    await buy.first().click();
    await page.getByTestId('lander-domain').waitFor();

    // (A page the cache restores fires pageshow, not load.)
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { dkShows?: { count: number } }).dkShows?.count === 2);
    const shows = await page.evaluate(
      () => (window as unknown as { dkShows: { count: number; persisted: boolean } }).dkShows,
    );
    expect(shows, 'restored from the back/forward cache, not reloaded').toEqual({ count: 2, persisted: true });
    const search = page.locator('dk-domain-search');
    await expect.poll(() => search.getAttribute('data-purchase')).toBe('idle');
    expect(await search.locator('[part="option"] [part="spinner"]').count(), 'no spinner left on a row').toBe(0);
    const disabled = await buy.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-disabled')));
    expect(
      disabled.every((value) => value === 'false'),
      `aria-disabled: ${disabled.join(', ')}`,
    ).toBe(true);

    // A new search, then Buy: the visitor is on the checkout again.
    const again = await searchFor(page, 'garden');
    const row = again.filter({ has: page.locator('[part="buy-button"]') }).first();
    const domain = await row.getAttribute('data-domain');
    await row.locator('[part="buy-button"]').click();
    await page.getByTestId('lander-domain').waitFor();
    expect(await page.getByTestId('lander-domain').textContent()).toBe(domain);
    await page.close();
  });
});
