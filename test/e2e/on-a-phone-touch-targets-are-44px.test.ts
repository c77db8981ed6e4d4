/**
 * Issue 23, defect 9 (part: touch targets): on a phone (a 390 px touch screen, `pointer: coarse`), every result row's
 * Buy button, the Retry of a failed search and the Merchant-of-Record order panel's buttons (Cancel with a price
 * locked; confirm the new price and Cancel after a price change; a new quote and Cancel after the lock expired) are
 * at least 44 × 44 CSS px, the touch target most guidelines ask for (every button of the elements is, on a coarse
 * pointer). axe-core finds nothing in those states on a phone, light, dark and right to left.
 */
import type { Browser, Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { quoteOnTheSpa, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-touch-targets-');

/** A phone: 390 px wide, a touch screen (`pointer: coarse`). */
async function phone(browser: Browser) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 3,
  });
  return { context, page: await context.newPage() };
}

/** Expects every visible button of `buttons` (at least one) to be 44 × 44 CSS px or more. */
async function expectTouchTargets(buttons: Locator, what: string): Promise<void> {
  const sizes = await buttons.evaluateAll((all) =>
    all
      .map((button) => button.getBoundingClientRect())
      .filter((box) => box.width > 0)
      .map((box) => ({ height: Math.round(box.height), width: Math.round(box.width) })),
  );
  expect(sizes.length, what).toBeGreaterThan(0);
  for (const size of sizes) {
    expect(size.height, `${what}: height`).toBeGreaterThanOrEqual(44);
    expect(size.width, `${what}: width`).toBeGreaterThanOrEqual(44);
  }
}

describe('on a phone', () => {
  it('the Buy buttons of the results are 44 px touch targets', async () => {
    const context = await stack.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 3,
    });
    const page = await context.newPage();
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a touch screen').toBe(true);
    await page.goto(stack.demo.url);
    await searchFor(page, 'coffee');
    const sizes = await page.locator('dk-domain-search [part="buy-button"]').evaluateAll((buttons) =>
      buttons.map((button) => {
        const box = button.getBoundingClientRect();
        return { height: Math.round(box.height), width: Math.round(box.width) };
      }),
    );
    expect(sizes.length).toBeGreaterThan(0);
    for (const size of sizes) {
      expect(size.height, 'height').toBeGreaterThanOrEqual(44);
      expect(size.width, 'width').toBeGreaterThanOrEqual(44);
    }
    await inEveryLook(page, 'phone-results', (name) => expectNoAxeViolations(page, `the results on a phone (${name})`));
    await context.close();
  });

  it('the Retry of a failed search is a 44 px touch target', async () => {
    const { context, page } = await phone(stack.browser);
    await page.goto(stack.demo.url);
    // The BFF fails once (a server error a retry can help with).
    await page.route(
      '**/dk/search?*',
      (route) => route.fulfill({ status: 500, json: { error: { code: 'upstream_error', message: 'Down.' } } }),
      { times: 1 },
    );
    await page.locator('dk-domain-search [part="input"]').fill('coffee');
    const retry = page.locator('dk-domain-search [part="retry-button"]');
    await expect.poll(() => retry.isVisible(), { timeout: 15_000 }).toBe(true);
    await expectTouchTargets(retry, 'Retry');
    await inEveryLook(page, 'phone-search-error', (name) =>
      expectNoAxeViolations(page, `a failed search on a phone (${name})`),
    );
    await context.close();
  });
  it("the order panel's buttons (confirm the new price, Cancel, a new quote) are 44 px touch targets", async () => {
    const { context, page } = await phone(stack.browser);
    const search = page.locator('dk-domain-search');
    const button = (name: string) => page.locator(`dk-domain-search [part="${name}"]`);
    // A price locked (the SPA in Merchant-of-Record mode): Cancel.
    await quoteOnTheSpa(page, stack.demo.url, 'price changes', 'price-changes.com');
    await expectTouchTargets(button('cancel-button'), 'Cancel, a price locked');
    // The price changed when paying (the sandbox's scenario domain): confirm the new price, and Cancel.
    await page.locator('form.payment button[type="submit"]').tap();
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('mismatch');
    await expectTouchTargets(button('order-button'), 'confirm the new price');
    await expectTouchTargets(button('cancel-button'), 'Cancel, the price changed');
    await inEveryLook(page, 'phone-order-price-changed', (name) =>
      expectNoAxeViolations(page, `the order panel after a price change on a phone (${name})`),
    );
    await context.close();

    // The lock expired: a new quote (the retry), and Cancel.
    const again = await phone(stack.browser);
    await again.page.clock.install();
    await quoteOnTheSpa(again.page, stack.demo.url, 'garden');
    await again.page.clock.runFor(10 * 60_000 + 5_000);
    const expired = again.page.locator('dk-domain-search');
    await expect.poll(() => expired.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('expired');
    await expectTouchTargets(again.page.locator('dk-domain-search [part="order-button"]'), 'a new quote');
    await expectTouchTargets(again.page.locator('dk-domain-search [part="cancel-button"]'), 'Cancel, the lock expired');
    await inEveryLook(again.page, 'phone-order-expired', (name) =>
      expectNoAxeViolations(again.page, `the order panel after the lock expired on a phone (${name})`),
    );
    await again.context.close();
  });
});
