/**
 * Issue 23, defect 6: after a price change the order panel's headline shows the new price (never the old one above
 * "The price is now …"), and when confirming it meets the visitor's purchase limit (429 `rate_limited`), the message
 * says when to try again instead of "shortly". `price-changes.com` is the sandbox's scenario domain whose price rises
 * right after its first quote. axe-core finds nothing in either state, light, dark and right to left, 390 and 1280 px.
 */
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { quoteOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-price-change-words-');

describe('a changed price in the order panel', () => {
  it('heads the panel with the new price, and a purchase limit met on confirming says when to try again', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    const search = page.locator('dk-domain-search');
    await quoteOnTheSpa(page, stack.demo.url, 'price changes', 'price-changes.com');
    await page.locator('form.payment button[type="submit"]').click();
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('mismatch');

    const title = page.locator('dk-domain-search [part="order-title"]');
    expect(await page.locator('dk-domain-search [part="order-message"]').textContent()).toContain('$3,300');
    expect(await title.textContent(), 'the headline shows the price asked now').toContain('$3,300');
    expect(await title.textContent()).not.toContain('$3,000');
    await inEveryLook(page, 'price-changed', (name) => expectNoAxeViolations(page, `the changed price (${name})`));

    // This visitor (the same address as the browser) spends the rest of its purchase budget elsewhere.
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++) {
      const answer = await fetch(new URL('dk/quotes', stack.demo.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: new URL(stack.demo.url).origin },
        body: JSON.stringify({ domain: 'price-changes.com' }),
      });
      limited = answer.status === 429;
    }
    expect(limited, 'the visitor met its purchase limit').toBe(true);

    await page.locator('dk-domain-search [part="order-button"]').click(); // "Buy for $3,300"
    const alert = page.locator('dk-domain-search [part="order-error"]');
    await alert.waitFor();
    const words = (await alert.textContent())!;
    expect(words, 'says when').toMatch(/\d+ (seconds?|minutes?)/);
    expect(words).not.toContain('shortly');
    await inEveryLook(page, 'price-changed-limited', (name) =>
      expectNoAxeViolations(page, `the purchase limit met (${name})`),
    );
    await page.close();
  });
});
