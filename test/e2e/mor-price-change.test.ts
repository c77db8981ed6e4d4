/**
 * One visitor's MoR purchase through a price change, against the real sandbox and BFF of the demo (a fresh stack, so
 * the BFF's write budget is what a real site starts with): quote, order refused with `price_mismatch`, the new price
 * confirmed at once (re-quote, order). It must succeed, say what became of the money exactly once, and never claim
 * "The price lock has expired" (the false message a write burst of 2 caused), then show the placed order with focus
 * on its heading. `price-changes.com` is the sandbox's scenario domain whose price rises right after its first quote.
 */
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { quoteOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-mor-price-');

describe('a MoR purchase whose price changed', () => {
  it('confirms the new price at once: quote, order, re-quote, order all pass, the money said once', async () => {
    const page = await stack.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const search = page.locator('dk-domain-search');
    const panel = page.locator('dk-domain-search [part="order"]');

    await quoteOnTheSpa(page, stack.demo.url, 'price changes', 'price-changes.com');
    await page.locator('form.payment button[type="submit"]').click();

    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('mismatch');
    const changed = (await panel.textContent())!;
    // The test card authorizes, so the refused order's authorization was released: nothing was taken.
    expect(changed).toContain('The price is now \u2068$3,300\u2069. Nothing was charged.');
    expect(changed.match(/charged|refund|taken/gi), `the money is said once in: ${changed}`).toHaveLength(1);

    await page.locator('dk-domain-search [part="order-button"]').click(); // "Buy for $3,300"
    await expect
      .poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 })
      .toMatch(/^(ordered|expired|quoted|failed)$/);
    const placed = (await panel.textContent())!;
    expect(placed).not.toContain('The price lock has expired');
    expect(await search.getAttribute('data-purchase'), placed).toBe('ordered');
    expect(placed).toContain('Thank you for your order!');
    expect(placed).toContain('You paid \u2068$3,300\u2069 for \u2068price-changes.com\u2069.');
    const focused = await page.evaluate(
      () => document.querySelector('dk-domain-search')?.shadowRoot?.activeElement?.getAttribute('part') ?? null,
    );
    expect(focused, 'focus moved to the placed order, not <body>').toBe('order-heading');

    // Upstream: the first quote's order was refused, the confirmed one recorded once at the new price.
    const admin = await fetch(`${stack.demo.sandboxUrl}/admin/orders?key_id=${stack.demo.credential.key_id}`, {
      headers: { authorization: `Bearer ${stack.demo.credential.admin_token}` },
    });
    const orders = ((await admin.json()) as { orders: Array<{ domain: string; sale_price_cents: number }> }).orders;
    expect(orders.filter((o) => o.domain === 'price-changes.com').map((o) => o.sale_price_cents)).toEqual([330_000]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
