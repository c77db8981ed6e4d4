/**
 * Issue 23, defect 8 (keyboard and screen reader, the order panel): after a failed Pay, a lost connection or a price
 * change, focus moves to the panel's words about it (never left on `<body>` when the partner's Pay button is
 * disabled while paying); and the price lock's quiet countdown becomes prominent and is announced once in its last
 * minute. axe-core finds nothing in these states, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { quoteOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-focus-lock-');

/** The SPA in MoR mode with a price locked (see {@link quoteOnTheSpa}); resolves with its domain. */
const quoted = (page: Page, word: string, domain?: string) => quoteOnTheSpa(page, stack.demo.url, word, domain);

/** The `part` of the element focused inside the search's shadow root, or what has focus in the page. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const inner = document.querySelector('dk-domain-search')?.shadowRoot?.activeElement;
    return inner ? `part=${inner.getAttribute('part')}` : (document.activeElement?.tagName ?? 'none');
  });
}

/** Pays with `card` using the keyboard (focus on Pay, Enter), and waits for the panel to leave `ordering`. */
async function payWith(page: Page, card: string): Promise<void> {
  await page.locator('form.payment input[name="card_number"]').fill(card);
  await page.locator('form.payment button[type="submit"]').focus();
  await page.keyboard.press('Enter');
  await expect
    .poll(() => page.locator('dk-domain-search').getAttribute('data-purchase'), { timeout: 15_000 })
    .not.toMatch(/^(quoted|ordering)$/);
}

describe('focus after every outcome of the order panel', () => {
  it('a declined payment: focus on what happened and what became of the money', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await quoted(page, 'garden');
    await page.locator('form.payment input[name="card_number"]').fill('4000 0000 0000 0002');
    await page.locator('form.payment button[type="submit"]').focus();
    await page.keyboard.press('Enter');
    const error = page.locator('dk-domain-search [part="order-error"]');
    await error.waitFor();
    await expect.poll(() => focused(page)).toBe('part=order-error');
    await inEveryLook(page, 'order-declined-focused', (name) =>
      expectNoAxeViolations(page, `a declined payment (${name})`),
    );
    await page.close();
  });

  it('a lost connection while paying: focus on the message', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await quoted(page, 'studio');
    await page.route('**/dk/orders', (route) => route.abort('connectionreset'));
    await page.locator('form.payment button[type="submit"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('dk-domain-search [part="order-error"]').waitFor();
    await expect.poll(() => focused(page)).toBe('part=order-error');
    await page.close();
  });

  it('a changed price: focus on the new price', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await quoted(page, 'price changes', 'price-changes.com');
    await payWith(page, '4242 4242 4242 4242');
    expect(await page.locator('dk-domain-search').getAttribute('data-purchase')).toBe('mismatch');
    await expect.poll(() => focused(page)).toBe('part=order-message');
    await page.close();
  });
});

describe("the price lock's last minute", () => {
  it('stays quiet until its last minute, then shows it prominently and announces it once', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await page.clock.install();
    await quoted(page, 'cloud');
    const countdown = page.locator('dk-domain-search [part~="countdown"]');
    const notice = page.locator('dk-domain-search [part="lock-notice"]');
    expect(await countdown.getAttribute('part')).toBe('countdown');
    expect(await notice.textContent(), 'nothing announced while minutes are left').toBe('');

    await page.clock.runFor(9 * 60_000 + 5_000);
    await expect.poll(() => countdown.getAttribute('part')).toBe('countdown countdown-ending');
    expect(await countdown.textContent()).toMatch(/00:5\d/);
    expect(await notice.getAttribute('role')).toBe('status');
    const said = await notice.textContent();
    expect(said).toMatch(/less than a minute/i);
    await page.clock.runFor(10_000);
    expect(await notice.textContent(), 'said once: the notice does not tick').toBe(said);
    await inEveryLook(page, 'lock-last-minute', (name) =>
      expectNoAxeViolations(page, `the lock's last minute (${name})`),
    );
    await page.close();
  });
});
