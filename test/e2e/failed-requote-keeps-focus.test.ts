/**
 * Issue 23, defect 8 (keyboard and screen reader): when the visitor confirms a changed price and the new quote fails
 * (here the connection is lost), focus moves to the panel's alert that says what happened and what to do (never left
 * on `<body>`), the alert is announced (`role="alert"`), and the visitor can try again from it. `price-changes.com` is
 * the sandbox's scenario domain whose price rises right after its first quote. axe-core finds nothing in this state,
 * light, dark and right to left, at 390 and 1280 px.
 */
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { quoteOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-failed-requote-');

describe('a failed re-quote after a changed price', () => {
  it('moves focus to the alert saying what to do, never to <body>, and the retry still works', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    const search = page.locator('dk-domain-search');
    await quoteOnTheSpa(page, stack.demo.url, 'price changes', 'price-changes.com');
    await page.locator('form.payment button[type="submit"]').click();
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('mismatch');

    // The re-quote's connection is lost; the visitor confirms "Buy for $3,300" with the keyboard.
    await page.route('**/dk/quotes', (route) => route.abort('connectionreset'));
    await page.locator('dk-domain-search [part="order-button"]').focus();
    await page.keyboard.press('Enter');
    const alert = page.locator('dk-domain-search [part="order-error"]');
    await alert.waitFor();
    expect(await search.getAttribute('data-purchase'), 'still asked to confirm the new price').toBe('mismatch');
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.textContent(), 'says what to do').toMatch(/check your connection|try again/i);

    // Deepest focus, through shadow roots: the alert, the words about what happened.
    const focused = () =>
      page.evaluate(() => {
        let active: Element | null = document.activeElement;
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
        return active === document.body || !active ? 'body' : `part=${active.getAttribute('part')}`;
      });
    await expect.poll(focused).toBe('part=order-error');
    await inEveryLook(page, 'requote-failed-focused', (name) =>
      expectNoAxeViolations(page, `a failed re-quote (${name})`),
    );

    // Tab from the alert reaches the retry ("Buy for $3,300"), which now succeeds.
    await page.unroute('**/dk/quotes');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('part=order-button');
    await page.keyboard.press('Enter');
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('ordered');
    await page.close();
  });
});
