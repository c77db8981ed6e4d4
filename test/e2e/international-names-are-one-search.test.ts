/**
 * Issue 23, defect 8 (international queries): a name typed in Unicode and its `xn--` form (IDNA, UTS #46) are one
 * search on the demo stack: `münchen` and `xn--mnchen-3ya` list the same domains (the BFF maps both to the ASCII
 * form before its cache and the marketplace see them), so do `münchen.de` and `xn--mnchen-3ya.de`, and an
 * internationalised name is offered only under TLDs whose registry takes IDNs. axe-core finds nothing with the
 * answer shown, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';

const stack = useDemoStack('domainkit-idn-queries-');

/** Types `text` (cleared first), waits for the answer and returns the domain names the widget lists. */
async function namesFor(page: Page, text: string): Promise<string[]> {
  const search = page.locator('dk-domain-search');
  const input = page.locator('dk-domain-search [part="input"]');
  await input.fill('');
  await input.pressSequentially(text, { delay: 20 });
  await expect.poll(() => search.getAttribute('data-state'), { timeout: 15_000 }).toMatch(/^(results|empty)$/);
  const siblings = page.locator('dk-domain-search [part~="sibling-name"]');
  await expect.poll(() => siblings.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  const rows = await page.locator('dk-domain-search [part~="name"]').allTextContents();
  return [...rows, ...(await siblings.allTextContents())].map((name) => name.trim());
}

describe('international names', () => {
  it('münchen and xn--mnchen-3ya give the same answer, with or without .de', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(stack.demo.url);
    const unicode = await namesFor(page, 'münchen');
    expect(unicode.length).toBeGreaterThan(0);
    expect(await namesFor(page, 'xn--mnchen-3ya')).toEqual(unicode);
    // Only TLDs that take internationalised names (.io's registry does not, per its metadata).
    expect(unicode.some((name) => /\.io$/.test(name))).toBe(false);
    await inEveryLook(page, 'idn-query', (name) => expectNoAxeViolations(page, `an IDN query's answer (${name})`));
    const withTld = await namesFor(page, 'münchen.de');
    expect(await namesFor(page, 'xn--mnchen-3ya.de')).toEqual(withTld);
    await page.close();
  });
});
