/**
 * Issue 23, defect 10: the React SPA example follows the visitor's `prefers-color-scheme`, and its payment form (MoR
 * mode) says what Pay costs, matches the widget's own buttons beside it, and cannot be edited while the payment is
 * under way. axe-core finds nothing on the quoted form, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { quoteOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-spa-scheme-');

/** The SPA in MoR mode with a price locked (see {@link quoteOnTheSpa}); resolves with its domain. */
const quoted = (page: Page, word: string, domain?: string) => quoteOnTheSpa(page, stack.demo.url, word, domain);

describe('the SPA example', () => {
  it('follows prefers-color-scheme: dark page, dark widget', async () => {
    const page = await stack.browser.newPage({ colorScheme: 'dark' });
    await page.goto(new URL('spa/', stack.demo.url).href);
    const background = await page.locator('.page').evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!, `a dark page background (${background})`).toBeLessThan(150);
    expect(await page.locator('dk-domain-search').getAttribute('theme')).toBe('dark');
    expect(await page.getByLabel('Dark theme').isChecked(), 'the switch says what is shown').toBe(true);
    await page.close();
  });

  it("Pay shows the locked amount, matches the widget's Cancel, and the form is locked while paying", async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await quoted(page, 'garden');
    const title = (await page.locator('dk-domain-search [part="order-title"]').textContent())!;
    const price = title.slice(title.lastIndexOf(' ') + 1);
    const pay = page.locator('form.payment button[type="submit"]');
    expect((await pay.textContent())?.trim(), 'the amount on Pay').toBe(`Pay ${price}`);

    const looks = async (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const style = getComputedStyle(el);
        return {
          height: Math.round(el.getBoundingClientRect().height),
          radius: style.borderTopLeftRadius,
          font: `${style.fontSize} ${style.fontWeight}`,
        };
      });
    expect(await looks('form.payment button[type="submit"]'), "Pay looks like the widget's Cancel beside it").toEqual(
      await looks('dk-domain-search [part="cancel-button"]'),
    );
    await inEveryLook(page, 'spa-payment-form', (name) => expectNoAxeViolations(page, `the payment form (${name})`));

    // While the order is under way (its answer held back), nothing in the form can be changed or sent again.
    let release!: () => void;
    const held = new Promise<void>((ok) => {
      release = ok;
    });
    await page.route('**/dk/orders', async (route) => {
      await held;
      await route.continue();
    });
    await pay.click();
    await expect.poll(() => page.locator('dk-domain-search').getAttribute('data-purchase')).toBe('ordering');
    const editable = await page
      .locator('form.payment')
      .evaluate(
        (form) =>
          [...form.querySelectorAll('input, button')].filter((el) => !(el as HTMLInputElement).matches(':disabled'))
            .length,
      );
    expect(editable, 'fields and Pay disabled while paying').toBe(0);
    await inEveryLook(page, 'spa-payment-form-paying', (name) =>
      expectNoAxeViolations(page, `the payment form while paying (${name})`),
    );
    release();
    await expect
      .poll(() => page.locator('dk-domain-search').getAttribute('data-purchase'), { timeout: 15_000 })
      .toBe('ordered');
    await page.close();
  });
});
