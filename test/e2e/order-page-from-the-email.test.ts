/**
 * A buyer follows an MoR order on the order page the shop links from its confirmation e-mail (Partner API spec 3,
 * 6), on the demo stack in Chromium: `/order/#order=<id>&token=<order token>` (the fragment never reaches a server)
 * shows each step as the sandbox admin starts the transfer and confirms delivery; a wrong token says the order cannot
 * be found, with what to do. Each state has no axe violation, light, dark and right to left, at 390 and 1280 px
 * (screenshots with `DK_SHOTS`).
 */
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { orderOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-order-page-');

describe('the order page linked from the confirmation e-mail', () => {
  it('shows each step of the order to its buyer; a wrong token says the order cannot be found', async () => {
    const page = await stack.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    let token = '';
    // The order token, as the buy button follows the order with it (the shop puts it in its e-mail's link).
    page.on('request', (request) => {
      token ||= request.headers()['x-order-token'] ?? '';
    });
    const domain = await orderOnTheSpa(page, stack.demo.url, 'coffee');
    await expect.poll(() => token, { timeout: 20_000 }).not.toBe('');
    const { orders } = await stack.admin.orders.list({ key_id: stack.demo.credential.key_id });
    const orderId = orders.find((o) => o.domain === domain)!.public_id;

    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(new URL(`order/#order=${orderId}&token=${token}`, stack.demo.url).href);
    const status = page.locator('dk-order-status [part="status"]');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toContain(domain);
    expect(await page.locator('dk-order-status [part="reference"]').textContent()).toContain(orderId);

    await stack.admin.orders.startTransfer(orderId);
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/The transfer of .* to you has started/);
    await inEveryLook(page, 'order-page-transfer-started', async (name) => {
      await expectNoAxeViolations(page, name);
    });
    await stack.admin.orders.confirmDelivery(orderId);
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/has been transferred to you/);
    await inEveryLook(page, 'order-page-transfer-completed', async (name) => {
      await expectNoAxeViolations(page, name);
    });
    // The token stays in the fragment: no request of the page carries it in its URL.
    expect(requested.filter((url) => url.includes(token))).toEqual([]);

    await page.goto(new URL(`order/#order=${orderId}&token=${token.slice(0, -2)}xx`, stack.demo.url).href);
    await page.reload();
    const heading = page.locator('dk-order-status [part="heading"]');
    await expect.poll(() => heading.textContent(), { timeout: 20_000 }).toBe('We could not find this order.');
    expect(await page.locator('dk-order-status [part="contact-link"]').textContent()).toBe('Contact the shop');
    expect(await page.locator('dk-order-status [part="retry-button"]').isVisible()).toBe(true);
    await inEveryLook(page, 'order-page-not-found', async (name) => {
      await expectNoAxeViolations(page, name);
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
