/**
 * A buyer follows an MoR order to its end (Partner API spec 3, 6), on the demo stack in Chromium: after the order is
 * placed in the buy button's placed-order view, the sandbox admin starts the transfer and confirms delivery; each step
 * shows in the view (the BFF's long poll answers when the webhook moves the order), and the status route answers a
 * wrong order token with the same 404 as an unknown order. Each step has no axe violation, light, dark and right to
 * left, at 390 and 1280 px (screenshots with `DK_SHOTS`).
 */
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook, shot } from './shots.ts';
import { orderOnTheSpa } from './widget-page.ts';

const stack = useDemoStack('domainkit-order-follow-');

describe('a buyer follows an MoR order', () => {
  it('shows the transfer starting and completing as the admin moves the order; a wrong token is a 404', async () => {
    const page = await stack.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const tracked: Array<{ status: number; body: string; token: string | null }> = [];
    page.on('response', async (response) => {
      if (!/\/orders\/[^/]+\/status/.test(response.url())) return;
      tracked.push({
        status: response.status(),
        body: await response.text().catch(() => ''),
        token: (await response.request().allHeaders())['x-order-token'] ?? null,
      });
    });
    const panel = page.locator('dk-domain-search [part="order"]');
    const domain = await orderOnTheSpa(page, stack.demo.url, 'coffee');

    const { orders } = await stack.admin.orders.list({ key_id: stack.demo.credential.key_id });
    const orderId = orders.find((o) => o.domain === domain)!.public_id;

    await stack.admin.orders.startTransfer(orderId);
    await expect
      .poll(() => panel.locator('[part="order-next"]').textContent(), { timeout: 20_000 })
      .toMatch(/The transfer of .* to you has started/);
    await inEveryLook(page, 'order-transfer-started', async (name) => {
      await expectNoAxeViolations(page, name);
      await shot(page, name);
    });
    await stack.admin.orders.confirmDelivery(orderId);
    await expect
      .poll(() => panel.locator('[part="order-next"]').textContent(), { timeout: 20_000 })
      .toMatch(/has been transferred to you/);
    await inEveryLook(page, 'order-transfer-completed', async (name) => {
      await expectNoAxeViolations(page, name);
      await shot(page, name);
    });

    const token = tracked.find((t) => t.token !== null)!.token!;
    const url = (id: string) => new URL(`dk/orders/${id}/status`, stack.demo.url).href;
    const wrong = await page.request.get(url(orderId), { headers: { 'x-order-token': `${token.slice(0, -2)}xx` } });
    const unknown = await page.request.get(url('ord_unknown_0'), { headers: { 'x-order-token': token } });
    expect(wrong.status()).toBe(404);
    expect(unknown.status()).toBe(404);
    expect(await wrong.json()).toEqual(await unknown.json());
    expect(errors).toEqual([]);
    await page.close();
  });
});
