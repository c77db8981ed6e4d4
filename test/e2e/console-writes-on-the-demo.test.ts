/**
 * The console's two writes on the demo stack, in Chromium (issue 24, must-show 2 and 3):
 *
 * - Refund: confirmed in the console, the sandbox records it (the client reads the order as `REFUNDED`) and the view
 *   shows it refunded; a `TRANSFER_COMPLETED` order has no Refund button, and says why; when the order was delivered
 *   after the console read it and the webhook saying so has not arrived (the endpoint is pointed away meanwhile), the
 *   BFF sends the refund and the sandbox's own refusal is shown in its words, then the row shows the order as it now
 *   is.
 * - Links: a link created in the console, opened twice through the sandbox's `/r/{code}`, shows 2 clicks after
 *   Refresh (no webhook announces a click, so Refresh asks the BFF to check its cached copy with the marketplace).
 */
import { MarketplaceError, PartnerClient } from '@domainkit/client';
import type { OrderStatus } from '@domainkit/protocol';
import { createSandboxAdmin } from '@domainkit/sandbox';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, demoLog, settledView } from './console-page.ts';
import { useDemoStack } from './demo-stack.ts';

const log = demoLog();
const stack = useDemoStack('domainkit-console-writes-', { demo: { quiet: false, logStream: log.stream } });

let client: PartnerClient;
let admin: ReturnType<typeof createSandboxAdmin>;
let page: Page;

beforeAll(async () => {
  const { credential, sandboxUrl } = stack.demo;
  client = new PartnerClient({
    baseUrl: sandboxUrl,
    keyId: credential.key_id,
    secret: credential.secret,
    maxRetries: 0,
  });
  admin = createSandboxAdmin({ url: sandboxUrl, adminToken: credential.admin_token });
  page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await page?.close();
});

/** The seeded orders of `status`, as the client lists them. */
async function ordersIn(
  status: OrderStatus,
): Promise<Array<{ public_id: string; domain: string; sale_price_cents: number }>> {
  const { orders } = await admin.orders.list({ key_id: stack.demo.credential.key_id, status, limit: 50 });
  expect(orders.length, `the demo has a ${status} order`).toBeGreaterThan(0);
  return orders;
}

/** The sandbox's answers to `POST /refunds` so far. */
const refundAnswers = () =>
  log.requests.filter((r) => r.method === 'POST' && r.path === '/api/partner/v1/refunds').map((r) => r.status);

const money = (cents: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(cents / 100);

describe('refund from the console', () => {
  let orders: Locator;
  beforeAll(async () => {
    await page.goto(`${stack.demo.consoleUrl}?tab=orders`);
    orders = await settledView(page, 'orders');
  });

  it('the sandbox records the refund, the client reads the order as refunded, the view shows it', async () => {
    const [order] = await ordersIn('EXTERNALLY_PAID');
    await orders.getByRole('button', { name: `Refund the order for ${order!.domain}` }).click();
    const dialog = orders.getByRole('dialog');
    await expect.poll(() => deepText(dialog)).toContain(`Refund ${money(order!.sale_price_cents)} to the buyer`);
    await dialog.getByRole('button', { name: 'Refund the order' }).click();
    const row = orders.locator(`tr[data-order="${order!.public_id}"]`);
    await expect.poll(() => row.getAttribute('data-status')).toBe('REFUNDED');
    expect(await deepText(orders.locator('[part="notice"]'))).toContain(
      `Refunded. Return ${money(order!.sale_price_cents)} to the buyer`,
    );
    expect(await row.locator('[part="refund"]').count()).toBe(0);
    expect((await client.orders.retrieve(order!.public_id)).status).toBe('REFUNDED');
    expect(refundAnswers()).toEqual([201]);
  });

  it('a TRANSFER_COMPLETED order has no Refund button, and says why', async () => {
    for (const order of await ordersIn('TRANSFER_COMPLETED')) {
      const row = orders.locator(`tr[data-order="${order.public_id}"]`);
      expect(await row.getAttribute('data-status')).toBe('TRANSFER_COMPLETED');
      expect(await row.locator('[part="refund"]').count()).toBe(0);
      expect(await deepText(row)).toContain('No refund: the domain has been transferred to the buyer.');
    }
  });

  it("delivered since the console read it, its webhook not yet in: the sandbox's refusal in its words", async () => {
    const [order] = await ordersIn('TRANSFER_IN_PROGRESS');
    const row = orders.locator(`tr[data-order="${order!.public_id}"]`);
    // The person opens the order's timeline (the BFF now holds the order as it was), then asks to refund it.
    await row.getByRole('button', { name: `Timeline of order ${order!.public_id}` }).click();
    await orders.locator(`#tl-${order!.public_id}`).waitFor();
    await row.getByRole('button', { name: `Refund the order for ${order!.domain}` }).click();
    const dialog = orders.getByRole('dialog');
    await dialog.waitFor();
    // Meanwhile the marketplace completes the transfer, and its webhook does not reach the BFF before the refund
    // does (the endpoint is pointed away while the person confirms, then back): the BFF still holds the order as
    // refundable, sends the refund, and the marketplace refuses it.
    const { webhook_secret: secret } = stack.demo.credential;
    await client.webhooks.register({ url: 'http://127.0.0.1:9/held-for-the-test', secret });
    try {
      await admin.orders.confirmDelivery(order!.public_id);
      await dialog.getByRole('button', { name: 'Refund the order' }).click();
      await expect.poll(() => refundAnswers().length, { timeout: 10_000 }).toBe(2);
    } finally {
      await client.webhooks.register({ url: `${stack.demo.url}/dk/webhooks`, secret });
    }
    const alert = orders.getByRole('alert');
    await alert.waitFor();
    expect(refundAnswers(), 'the BFF sent the refund and the sandbox refused it').toEqual([201, 409]);
    // The sandbox's words for this refusal, as the client reads them.
    const words = await client.refunds.create({ order_id: order!.public_id }).then(
      () => 'refunded?',
      (error: unknown) => (error instanceof MarketplaceError ? error.message : String(error)),
    );
    expect(await deepText(alert)).toContain(`The marketplace refused the refund: ${words}`);
    // The row shows the order as the marketplace now has it, without a Refund button.
    await expect.poll(() => row.getAttribute('data-status')).toBe('TRANSFER_COMPLETED');
    expect(await row.locator('[part="refund"]').count()).toBe(0);
    expect((await client.orders.retrieve(order!.public_id)).status).toBe('TRANSFER_COMPLETED');
  });
});

describe('a link created in the console', () => {
  it('opened twice through the sandbox, shows 2 clicks after Refresh', async () => {
    await page.goto(`${stack.demo.consoleUrl}?tab=links`);
    const links = await settledView(page, 'links');
    const before = await links.locator('tr[data-link]').count();
    await links.getByRole('textbox', { name: 'Label (optional)' }).fill('Spring newsletter');
    await links.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => links.locator('tr[data-link]').count()).toBe(before + 1);
    const row = links.locator('tr[data-link]', { hasText: 'Spring newsletter' });
    const url = (await row.locator('code').textContent())!.trim();
    expect(url).toMatch(new RegExp(`^${stack.demo.sandboxUrl}/r/[A-Za-z0-9]+$`));
    expect(await row.locator('[data-clicks]').getAttribute('data-clicks')).toBe('0');

    // Two visitors follow the link.
    for (let i = 0; i < 2; i++) {
      const visitor = await stack.browser.newPage();
      const answer = await visitor.goto(url);
      expect(answer?.ok()).toBe(true);
      await visitor.close();
    }

    await links.locator('[part="refresh"]').click();
    await expect.poll(() => row.locator('[data-clicks]').getAttribute('data-clicks')).toBe('2');
    expect(await deepText(row)).toContain('Spring newsletter');
    // The marketplace agrees.
    const { items } = await firstLinksPage();
    expect(items.find((l) => l.url === url)?.clicks).toBe(2);
  });
});

async function firstLinksPage() {
  for await (const p of client.links.list({ limit: 100 }).pages()) return p;
  throw new Error('no page');
}
