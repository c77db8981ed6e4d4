/**
 * Issue 23, defect 9 (part: touch targets): on a phone (a 390 px touch screen, `pointer: coarse`), every result row's
 * Buy button is at least 44 × 44 CSS px, the touch target most guidelines ask for. axe-core finds nothing in the
 * results on a phone, light, dark and right to left.
 */
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-touch-targets-');

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
});
