import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { buyFirstOnLander, checkoutReturnOf, payOnLander } from './widget-page.ts';

const stack = useDemoStack('domainkit-spa-return-');

describe('back from the hosted checkout', () => {
  it("the SPA's buyer returns to the SPA, which confirms the sale", async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    const spa = new URL('spa/', stack.demo.url);
    await page.goto(spa.href);
    await buyFirstOnLander(page, 'coffee');
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    await page.getByTestId('lander-return').click();
    await page.waitForURL((url) => url.searchParams.has('sig'));
    expect(new URL(page.url()).pathname, 'back on the SPA').toBe(spa.pathname);
    const done = await checkoutReturnOf(page);
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
      await buyFirstOnLander(page, 'garden');
      await page.getByTestId('lander-cancel').click();
      await page.waitForURL((url) => url.searchParams.get('status') === 'canceled');
      expect(new URL(page.url()).pathname, `back on ${where}`).toBe(start.pathname);
      const canceled = await checkoutReturnOf(page);
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
