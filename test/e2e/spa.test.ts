import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { buyButtonOf, payOnLander, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-spa-');

describe('the React SPA example', () => {
  it('logs the widget events and completes a hosted-checkout purchase', async () => {
    const page = await stack.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(new URL('spa/', stack.demo.url).href);

    const options = await searchFor(page, 'coffee');
    expect(await options.count()).toBeGreaterThan(0);
    const log = page.getByTestId('event-log');
    await expect.poll(() => log.textContent()).toContain('dk-results');
    expect(await log.textContent()).toContain('dk-search');

    const domain = (await options
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
    await buyButtonOf(page, domain).click();
    await page.waitForURL((url) => url.href.startsWith(`${stack.demo.sandboxUrl}/checkout`));
    expect(await page.getByTestId('lander-domain').textContent()).toBe(domain);
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');

    const after = await page.request.get(new URL(`dk/domains/${domain}`, stack.demo.url).href);
    expect(((await after.json()) as { available: boolean }).available).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sells as Merchant of Record: a locked quote, the test card in the payment slot, an order recorded upstream', async () => {
    const page = await stack.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(new URL('spa/', stack.demo.url).href);
    await page.getByLabel('Buying flow').selectOption('order');

    // A query of its own: the domain sold by the test above may still come back, as available, from the BFF's
    // short-lived search cache (the marketplace then refuses the quote with 409, which the widget shows).
    const options = await searchFor(page, 'garden');
    const domain = (await options
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
    await buyButtonOf(page, domain).click();
    const search = page.locator('dk-domain-search');
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 10_000 }).toBe('quoted');
    await page.locator('form.payment button[type="submit"]').click();
    await expect.poll(() => search.getAttribute('data-purchase'), { timeout: 15_000 }).toBe('ordered');
    const log = page.getByTestId('event-log');
    await expect.poll(() => log.textContent()).toContain('dk-order-created');
    expect(await log.textContent()).toContain('dk-quote');

    // The order exists upstream exactly once, recorded from the quote's price; the domain is no longer for sale.
    const admin = await fetch(`${stack.demo.sandboxUrl}/admin/orders?key_id=${stack.demo.credential.key_id}`, {
      headers: { authorization: `Bearer ${stack.demo.credential.admin_token}` },
    });
    const orders = ((await admin.json()) as { orders: Array<{ domain: string; status: string }> }).orders.filter(
      (o) => o.domain === domain,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]!.status).toBe('EXTERNALLY_PAID');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the card number left to right on an Arabic right-to-left page', async () => {
    const page = await stack.browser.newPage();
    await page.goto(new URL('spa/', stack.demo.url).href);
    await page.evaluate(() => {
      document.documentElement.lang = 'ar';
      document.documentElement.dir = 'rtl';
    });
    // The payment form shows (and is laid out) once a price is locked.
    await page.getByLabel('Buying flow').selectOption('order');
    const options = await searchFor(page, 'studio');
    const domain = (await options
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
    await buyButtonOf(page, domain).click();
    await expect
      .poll(() => page.locator('dk-domain-search').getAttribute('data-purchase'), { timeout: 10_000 })
      .toBe('quoted');
    const card = page.locator('form.payment input[name="card_number"]');
    await card.evaluate((input: HTMLInputElement) => {
      input.value = '4000 0000 0000 0002';
    });
    // An input lays out its text with its own direction and unicode-bidi; measure that same text in a span styled
    // alike: the group typed first must be the leftmost one (in RTL the four groups come out in reverse order).
    const order = await card.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const span = document.createElement('span');
      span.style.direction = style.direction;
      span.style.unicodeBidi = style.unicodeBidi;
      span.textContent = input.value;
      document.body.append(span);
      const x = (group: string): number => {
        const range = document.createRange();
        const start = input.value.indexOf(group);
        range.setStart(span.firstChild!, start);
        range.setEnd(span.firstChild!, start + group.length);
        return range.getBoundingClientRect().left;
      };
      const first = x('4000');
      const last = x('0002');
      span.remove();
      return { direction: style.direction, firstLeftOfLast: first < last };
    });
    expect(order).toEqual({ direction: 'ltr', firstLeftOfLast: true });
    await page.close();
  });
});
