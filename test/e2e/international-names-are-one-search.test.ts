/**
 * Issue 23, defect 8 (international queries): a name typed in Unicode and its `xn--` form (IDNA, UTS #46) are one
 * search on the demo stack: `münchen` and `xn--mnchen-3ya` list the same domains (the BFF maps both to the ASCII
 * form before its cache and the marketplace see them), so do `münchen.de` and `xn--mnchen-3ya.de`, and an
 * internationalised name is offered only under TLDs whose registry takes IDNs.
 *
 * The visitor reads those names in Unicode (`münchen.com`, never `xn--mnchen-3ya.com`): the result rows, the
 * "Also available" list and the verdict on a whole name typed; Buy sends the ASCII form (`xn--…`) to the BFF, and the
 * order panel (Merchant of Record, on the SPA) titles the quote in Unicode with the ASCII form beside it. axe-core
 * finds nothing with the answer shown, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { buyButtonOf, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-idn-queries-');

/**
 * Puts `text` in the box at once (cleared first), waits for the answer and returns the domain names the widget lists.
 * At once, not key by key: on a busy machine the gap between two keys can outlast the widget's pause before it
 * searches, and the rows read would be those of a part of the word (`münch`).
 */
async function namesFor(page: Page, text: string): Promise<string[]> {
  const search = page.locator('dk-domain-search');
  const input = page.locator('dk-domain-search [part="input"]');
  await input.fill('');
  await input.fill(text);
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

  it('are shown in Unicode: the rows, the siblings and the verdict on a whole name', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(stack.demo.url);
    const names = await namesFor(page, 'münchen');
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect(name, 'a name as a person reads it').toMatch(/^münchen\./);
    // The typed ASCII form is shown in Unicode too, and each row keeps the ASCII form as its value.
    expect(await namesFor(page, 'xn--mnchen-3ya')).toEqual(names);
    const rows = page.locator('dk-domain-search [part="option"]');
    const values = await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-domain')));
    for (const value of values) expect(value).toMatch(/^xn--mnchen-3ya\./);
    const buy = rows.first().locator('[part="buy-button"]');
    expect(await buy.getAttribute('aria-label')).toContain('münchen.');

    // A whole name typed: its verdict names it in Unicode, and its row comes first.
    // (`xn--mnchen-3ya.de` is the sandbox's internationalised scenario listing.)
    await namesFor(page, 'münchen.de');
    const verdict = page.locator('dk-domain-search [part="verdict-text"]');
    await expect.poll(() => verdict.textContent(), { timeout: 15_000 }).toContain('münchen.de');
    expect(await verdict.textContent()).not.toContain('xn--');
    expect(await page.locator('dk-domain-search [part="verdict"]').getAttribute('data-verdict')).toBe('listed');
    expect((await rows.first().locator('[part~="name"]').textContent())?.trim()).toBe('münchen.de');
    expect(await rows.first().getAttribute('data-domain')).toBe('xn--mnchen-3ya.de');
    await inEveryLook(page, 'idn-unicode', (name) => expectNoAxeViolations(page, `IDNs in Unicode (${name})`));
    await page.close();
  });

  it('Buy sends the ASCII form; the order panel names the domain in Unicode', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(new URL('spa/', stack.demo.url).href);
    await page.getByLabel('Buying flow').selectOption('order');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/quotes')) {
        sent.push((request.postDataJSON() as { domain: string }).domain);
      }
    });
    const rows = await searchFor(page, 'münchen');
    const value = (await rows
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
    expect(value).toMatch(/^xn--mnchen-3ya\./);
    await buyButtonOf(page, value).click();
    const search = page.locator('dk-domain-search');
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('quoted');
    expect(sent, 'the BFF is sent the ASCII form').toEqual([value]);
    const unicode = value.replace('xn--mnchen-3ya', 'münchen');
    const title = (await page.locator('dk-domain-search [part="order-title"]').textContent())!;
    expect(title).toContain(unicode);
    expect(title).not.toContain('xn--');
    // The ASCII form beside it, for a buyer who needs it (a registrar's form, DNS settings).
    expect((await page.locator('dk-domain-search [part="order-ascii"]').textContent())?.trim()).toBe(value);
    await inEveryLook(page, 'idn-order-panel', (name) =>
      expectNoAxeViolations(page, `an IDN in the order panel (${name})`),
    );
    await page.close();
  });
});
