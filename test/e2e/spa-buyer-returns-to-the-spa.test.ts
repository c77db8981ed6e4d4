/**
 * Issue 23, defect 3: the hosted checkout returns the buyer to the page they came from, saying what is true there.
 * The React SPA's buyer comes back to the SPA (not to the other demo brand's page), which confirms the sale; after
 * Cancel, the message never speaks of a search the page no longer shows (the script-tag page and the SPA alike).
 * axe-core finds nothing in either return state, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { payOnLander, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-spa-return-');

/** Buys the first available result of `word` on the page; resolves once the hosted checkout shows. */
async function buyFirst(page: Page, word: string): Promise<void> {
  const rows = await searchFor(page, word);
  await rows
    .filter({ has: page.locator('[part="buy-button"]') })
    .first()
    .locator('[part="buy-button"]')
    .click();
  await page.getByTestId('lander-domain').waitFor();
}

/** `<dk-checkout-return>`'s state once settled, and its words. */
async function confirmation(page: Page): Promise<{ state: string | null; text: string | null }> {
  const host = page.locator('dk-checkout-return');
  await expect
    .poll(() => host.getAttribute('data-state'), { timeout: 10_000 })
    .toMatch(/^(confirmed|unconfirmed|canceled)$/);
  return { state: await host.getAttribute('data-state'), text: await host.locator('[part="message"]').textContent() };
}

describe('back from the hosted checkout', () => {
  it("the SPA's buyer returns to the SPA, which confirms the sale", async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    const spa = new URL('spa/', stack.demo.url);
    await page.goto(spa.href);
    await buyFirst(page, 'coffee');
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    await page.getByTestId('lander-return').click();
    await page.waitForURL((url) => url.searchParams.has('sig'));
    expect(new URL(page.url()).pathname, 'back on the SPA').toBe(spa.pathname);
    const done = await confirmation(page);
    expect(done.state).toBe('confirmed');
    expect(done.text).toMatch(/^Thank you!/);
    await inEveryLook(page, 'spa-return-confirmed', (name) =>
      expectNoAxeViolations(page, `the SPA's confirmation (${name})`),
    );
    await page.close();
  });

  for (const [where, path] of [
    ['the SPA', 'spa/'],
    ['the script-tag page', ''],
  ] as const) {
    it(`after Cancel, ${where} says nothing was charged and speaks of no search it does not show`, async () => {
      const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
      const start = new URL(path, stack.demo.url);
      await page.goto(start.href);
      await buyFirst(page, 'garden');
      await page.getByTestId('lander-cancel').click();
      await page.waitForURL((url) => url.searchParams.get('status') === 'canceled');
      expect(new URL(page.url()).pathname, `back on ${where}`).toBe(start.pathname);
      const canceled = await confirmation(page);
      expect(canceled.state).toBe('canceled');
      expect(canceled.text).toContain('nothing was charged');
      const query = await page.locator('dk-domain-search [part="input"]').inputValue();
      if (query === '') expect(canceled.text, 'the search box is empty').not.toMatch(/search/i);
      await inEveryLook(page, `return-canceled-${path ? 'spa' : 'script-tag'}`, (name) =>
        expectNoAxeViolations(page, `the cancel message on ${where} (${name})`),
      );
      await page.close();
    });
  }
});
