/**
 * Issue 23, defect 1: the React SPA example's featured Buy button (its page's most prominent call to action) in
 * Merchant-of-Record mode locks a price and then lets the buyer pay: the payment form shows in that button's
 * `payment` slot, and the order is recorded upstream once. axe-core finds nothing in the quoted state, light, dark
 * and right to left, at 390 and 1280 px.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';

const stack = useDemoStack('domainkit-spa-featured-');

/** The SPA in a fresh context (a 390 px phone unless `options` say otherwise), in MoR mode. */
async function spaAsMerchant(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 390, height: 900 }, ...options });
  const page = await context.newPage();
  await page.goto(new URL('spa/', stack.demo.url).href);
  await page.getByLabel('Buying flow').selectOption('order');
  return page;
}

describe("the SPA's featured Buy button as Merchant of Record", () => {
  it('axe-core: 0 violations with the price locked, light, dark and right to left, 390 and 1280 px', async () => {
    const page = await spaAsMerchant();
    const featured = page.locator('dk-buy-button');
    await featured.locator('[part="buy-button"]').click();
    await expect.poll(() => featured.getAttribute('data-purchase'), { timeout: 10_000 }).toBe('quoted');
    await featured.locator('form button[type="submit"]').waitFor();
    await inEveryLook(page, 'spa-featured-quoted', (name) =>
      expectNoAxeViolations(page, `the featured Buy button, price locked (${name})`),
    );
    // Cancelled: the next case (the same shop) quotes the domain again.
    await featured.locator('[part="cancel-button"]').click();
    await page.context().close();
  });

  it('locks the price, shows the payment form in the button and records the order', async () => {
    const page = await spaAsMerchant();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const featured = page.locator('dk-buy-button');
    await featured.locator('[part="buy-button"]').click();
    await expect.poll(() => featured.getAttribute('data-purchase'), { timeout: 10_000 }).toBe('quoted');
    const pay = featured.locator('form button[type="submit"]');
    expect(await pay.isVisible(), 'a Pay button under the locked price').toBe(true);
    await pay.click();
    await expect.poll(() => featured.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('ordered');
    expect(await featured.locator('[part="order"]').textContent()).toContain('Thank you for your order!');

    const admin = await fetch(`${stack.demo.sandboxUrl}/admin/orders?key_id=${stack.demo.credential.key_id}`, {
      headers: { authorization: `Bearer ${stack.demo.credential.admin_token}` },
    });
    const orders = ((await admin.json()) as { orders: Array<{ domain: string; status: string }> }).orders;
    expect(orders.filter((o) => o.domain === 'coffeehouse.com').map((o) => o.status)).toEqual(['EXTERNALLY_PAID']);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
