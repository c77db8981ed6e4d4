/**
 * Issue 23, defect 5: a domain that is only reserved (another buyer's price lock holds it) is never called sold, and
 * its row never says "Available … Buy" beside why it cannot be bought. `reserved-elsewhere.com` is the sandbox's
 * scenario domain that is always reserved by another buyer. Both buying flows (hosted checkout on the script-tag
 * page, Merchant of Record on the SPA). axe-core finds nothing in the reserved row, light, dark and right to left, at
 * 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { buyButtonOf, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-reserved-');
const DOMAIN = 'reserved-elsewhere.com';

/** Buys the reserved domain from its search row and resolves with the row's words once the purchase settled. */
async function tryToBuy(page: Page): Promise<string> {
  await searchFor(page, 'reserved elsewhere');
  await buyButtonOf(page, DOMAIN).click();
  const row = page.locator(`dk-domain-search [part="option"][data-domain="${DOMAIN}"]`);
  await row.locator('[part="buy-error"]').waitFor();
  return (await row.textContent())!.replace(/\s+/g, ' ');
}

describe('a reserved domain', () => {
  for (const [flow, path, mode] of [
    ['the hosted checkout', '', undefined],
    ['Merchant of Record', 'spa/', 'order'],
  ] as const) {
    it(`has words of its own (${flow}): reserved, not sold, and no "Available … Buy" beside them`, async () => {
      const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
      await page.goto(new URL(path, stack.demo.url).href);
      if (mode) await page.getByLabel('Buying flow').selectOption(mode);
      const row = await tryToBuy(page);
      expect(row, 'never called sold').not.toMatch(/sold/i);
      expect(row).toMatch(/reserved/i);
      expect(row, 'no "Available" badge beside it').not.toContain('Available');
      expect(await buyButtonOf(page, DOMAIN).count(), 'no Buy button beside "reserved" (nothing to buy now)').toBe(0);
      await inEveryLook(page, `reserved-row-${mode ?? 'checkout'}`, (name) =>
        expectNoAxeViolations(page, `the reserved row (${flow}, ${name})`),
      );
      await page.close();
    });
  }
});
