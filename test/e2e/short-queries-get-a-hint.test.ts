/**
 * Issue 23, defect 8 (short queries): a query under the minimum length gets a hint naming the minimum instead of
 * silence; the length is counted in grapheme clusters (what a reader sees as characters, so "é" typed as e + a
 * combining accent is one), and a Chinese, Japanese or Korean query may be one shorter (a two-character CJK word is
 * searched). axe-core finds nothing with the hint shown, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';

const stack = useDemoStack('domainkit-short-queries-');

/** Types `text` into the search box (cleared first) and gives the debounce time to pass. */
async function type(page: Page, text: string): Promise<void> {
  const input = page.locator('dk-domain-search [part="input"]');
  await input.fill('');
  await input.pressSequentially(text, { delay: 20 });
  await page.waitForTimeout(1200);
}

describe('short queries', () => {
  it('one or two characters: a hint naming the minimum, and no search', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await page.goto(stack.demo.url);
    const search = page.locator('dk-domain-search');
    const message = page.locator('dk-domain-search [part="message"]');
    for (const text of ['c', 'co', 'e\u0301e\u0301']) {
      await type(page, text);
      expect(await search.getAttribute('data-state'), JSON.stringify(text)).toBe('initial');
      expect(await message.isVisible(), `${JSON.stringify(text)}: a hint`).toBe(true);
      expect(await message.textContent()).toBe('Type at least 3 characters to search.');
    }
    await inEveryLook(page, 'short-query-hint', (name) =>
      expectNoAxeViolations(page, `the short-query hint (${name})`),
    );
    await type(page, 'cof');
    await expect.poll(() => search.getAttribute('data-state'), { timeout: 10_000 }).toMatch(/^(results|empty)$/);
    await page.close();
  });

  it('a two-character CJK word is searched', async () => {
    const page = await stack.browser.newPage();
    await page.goto(stack.demo.url);
    await type(page, '東京');
    await expect
      .poll(() => page.locator('dk-domain-search').getAttribute('data-state'), { timeout: 10_000 })
      .toMatch(/^(loading|results|empty|error)$/);
    await page.close();
  });
});
