/**
 * Issue 23, defect 2: the buyer's language survives the money moment. On the script-tag page switched to Arabic (in a
 * browser whose own language is English), the checkout session carries the page's language: the hosted checkout and
 * its receipt are in Arabic, right to left, and the buyer comes back to the Arabic page, which thanks them (or says
 * the checkout was cancelled) in Arabic. axe-core finds nothing on the Arabic return page, light and dark, 390 and
 * 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { buyFirstOnLander, checkoutReturnOf, payOnLander } from './widget-page.ts';

const stack = useDemoStack('domainkit-language-checkout-');

/** An English-speaking browser (Accept-Language: en-US) on the page switched to Arabic. */
async function arabicPage(): Promise<Page> {
  const context = await stack.browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  await page.goto(new URL('/?lang=ar', stack.demo.url).href);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ar');
  return page;
}

describe("the page's language, carried through the hosted checkout and back", () => {
  it('an Arabic page: Arabic checkout and receipt, then an Arabic thank-you on the Arabic page', async () => {
    const page = await arabicPage();
    await buyFirstOnLander(page, 'coffee');
    const lander = await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
    expect(lander, 'the hosted checkout follows the page, not the browser').toEqual(['ar', 'rtl']);
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    expect(await page.evaluate(() => document.documentElement.lang), 'the receipt').toBe('ar');

    await page.getByTestId('lander-return').click();
    await page.waitForURL((url) => url.searchParams.has('sig'));
    const done = await checkoutReturnOf(page);
    expect(done.state).toBe('confirmed');
    expect(done.text).toContain('شكرًا لك!');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    await inEveryLook(page, 'return-confirmed-ar', (name) =>
      expectNoAxeViolations(page, `the Arabic thank-you (${name})`),
    );
    await page.context().close();
  });

  it('an Arabic page: cancelling returns to the Arabic page, which says so in Arabic', async () => {
    const page = await arabicPage();
    await buyFirstOnLander(page, 'garden');
    await page.getByTestId('lander-cancel').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'canceled');
    const canceled = await checkoutReturnOf(page);
    expect(canceled.state).toBe('canceled');
    expect(canceled.text).toMatch(/[\u0600-\u06ff]/);
    expect(canceled.text).not.toMatch(/[A-Za-z]{3}/);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await inEveryLook(page, 'return-canceled-ar', (name) =>
      expectNoAxeViolations(page, `the Arabic cancel message (${name})`),
    );
    await page.context().close();
  });
});
