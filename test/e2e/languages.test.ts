/**
 * The demo's language switch on the script-tag example: the page and the widget in French or Arabic (right to
 * left), the widget's words from its language sets, the BFF's errors said in the page's language by their code.
 */
import { ar } from '@domainkit/widget/strings/ar';
import { fr } from '@domainkit/widget/strings/fr';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-languages-');

/** The text of the first `selector` (inside the widget's shadow roots too) as it appears on screen, left to right. */
function onScreen(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const seen: Array<[number, string]> = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const chars = node.textContent ?? '';
        for (let i = 0; i < chars.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const { left, width } = range.getBoundingClientRect();
          if (width > 0 && chars[i]!.trim()) seen.push([left, chars[i]!]);
        }
      }
      return seen
        .sort((a, b) => a[0] - b[0])
        .map(([, char]) => char)
        .join('');
    });
}

/** The search box's visible state: its error message and whether Retry is offered. */
async function problem(page: Page): Promise<{ message: string; retry: boolean }> {
  return {
    message: ((await page.locator('dk-domain-search [part="error-message"]').textContent()) ?? '').trim(),
    retry: await page.locator('dk-domain-search [part="retry-button"]').isVisible(),
  };
}

describe("the demo's language switch", () => {
  it('an Arabic page: right to left, Arabic words, prices in the page locale and in reading order', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(stack.demo.url);
    await page.getByRole('button', { name: 'العربية' }).click();
    await expect.poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    expect(new URL(page.url()).searchParams.get('lang')).toBe('ar');

    const rows = await searchFor(page, 'coffee');
    const priced = rows.filter({ has: page.locator('[part="price"]') }).first();
    const price = priced.locator('[part="price"]');
    const cents = await page.evaluate(async (url) => {
      const answer = await fetch(url).then((r) => r.json());
      return answer.results.find((r: { price_cents: number | null }) => r.price_cents !== null);
    }, new URL('dk/search?q=coffee', stack.demo.url).href);
    const expected = new Intl.NumberFormat('ar', {
      style: 'currency',
      currency: cents.currency,
      trailingZeroDisplay: 'stripIfInteger',
    }).format(cents.price_cents / 100);
    expect(await price.evaluate((el) => el.localName)).toBe('bdi');
    expect((await price.textContent())?.replace(/[\u2066-\u2069]/g, '')).toBe(expected);
    // "7,810 US$" read right to left: on screen "US$ 7,810", never "$US 7,810".
    const shown = await onScreen(page, 'dk-domain-search [part="option"] [part="price"]');
    expect(shown).toMatch(/^US\$[\d,.]+$/);
    expect(await priced.locator('[part~="availability"]').textContent()).toBe(ar.available);
    expect((await page.locator('dk-domain-search [part="label"]').textContent())?.trim()).toBe('ابحث عن نطاق');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a 300-character paste shows the localized "too long" message, with no Retry (the BFF answers query_too_long)', async () => {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.demo.url}?lang=ar`);
    await expect.poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
    const answered = page.waitForResponse((r) => r.url().includes('/dk/search?'));
    await page.locator('dk-domain-search [part="input"]').fill('coffee'.repeat(50));
    const answer = await answered;
    expect([answer.status(), ((await answer.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'query_too_long',
    ]);
    await expect.poll(() => page.locator('dk-domain-search').getAttribute('data-state')).toBe('error');
    expect(await problem(page)).toEqual({ message: ar.queryTooLong, retry: false });
    expect(await page.locator('dk-domain-search').evaluate((el) => el.shadowRoot!.textContent)).not.toContain(
      'too long',
    );
    await page.close();
  });

  it('switches to French and back, and an English page never downloads a language set', async () => {
    const page = await stack.browser.newPage();
    const sets: string[] = [];
    page.on('request', (request) => {
      if (/domainkit-(fr|ar)\.min\.js/.test(request.url())) sets.push(request.url());
    });
    await page.goto(stack.demo.url);
    await searchFor(page, 'coffee');
    expect(sets, 'the entry never loads a language set by itself').toEqual([]);

    await page.getByRole('button', { name: 'Français' }).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('fr-FR');
    expect(await page.getByRole('button', { name: 'Français' }).getAttribute('aria-pressed')).toBe('true');
    // The press on the switch, outside the element, closed the results popup; the visitor opens it again in the box.
    await page.locator('dk-domain-search [part="input"]').click();
    await expect
      .poll(() => page.locator('dk-domain-search [part="option"] [part~="availability"]').first().textContent())
      .toMatch(new RegExp(`^(${fr.available}|${fr.unavailable})$`));
    expect(sets).toHaveLength(1);

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en-US');
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    await page.locator('dk-domain-search [part="input"]').click();
    expect(await page.locator('dk-domain-search [part="option"] [part~="availability"]').first().textContent()).toMatch(
      /^(Available|Taken)$/,
    );
    await page.close();
  });
});
