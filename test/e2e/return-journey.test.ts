import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { buyFirstOnLander, checkoutReturnOf, payOnLander } from './widget-page.ts';

const stack = useDemoStack('domainkit-return-');

describe('the return journey (hosted checkout)', () => {
  it('cancel → back on the page, usable; pay → back with a verified confirmation; a forged URL is not confirmed', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await page.goto(stack.demo.url);
    const first = await buyFirstOnLander(page, 'coffee');
    expect(await page.getByTestId('lander-domain').textContent()).toBe(first);
    // Cancel on the hosted checkout: back on the partner page, nothing charged, the search works.
    await page.getByTestId('lander-cancel').click();
    await page.waitForURL(
      (url) => url.origin === new URL(stack.demo.url).origin && url.searchParams.get('status') === 'canceled',
    );
    expect(await checkoutReturnOf(page)).toMatchObject({ state: 'canceled' });
    const bought = await buyFirstOnLander(page, 'coffee');
    // Pay: the return link carries the signed result; the page shows the sale the BFF verified.
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    await page.getByTestId('lander-return').click();
    await page.waitForURL((url) => url.searchParams.has('sig'));
    const done = await checkoutReturnOf(page);
    expect(done.state).toBe('confirmed');
    expect(done.text).toContain(bought);
    expect(done.text).toMatch(/Thank you!.*\$[\d,.]+.*paid/);
    // Forged: the same URL with the price (or anything) edited, and one made up, are not confirmed.
    const real = new URL(page.url());
    const edited = new URL(real);
    edited.searchParams.set('price_cents', '1');
    const madeUp = new URL(stack.demo.url);
    madeUp.search = new URLSearchParams({
      checkout_session_id: 'cs_forged',
      status: 'paid',
      domain: bought,
      price_cents: '1',
      currency: 'USD',
      ts: String(Math.floor(Date.now() / 1000)),
      sig: 'a'.repeat(64),
    }).toString();
    for (const forged of [edited, madeUp]) {
      await page.goto(forged.href);
      const answer = await checkoutReturnOf(page);
      expect(answer.state, forged.href).toBe('unconfirmed');
      expect(answer.text).not.toContain('Thank you');
    }
    await page.close();
  });

  it("returns the buyer to the widget's return-path and cancel-path, resolved on the page's own origin", async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    const origin = new URL(stack.demo.url).origin;
    await page.goto(stack.demo.url);
    await page.evaluate(() => {
      const search = document.querySelector('dk-domain-search')!;
      search.setAttribute('return-path', '/?via=return-path');
      search.setAttribute('cancel-path', '/?via=cancel-path');
    });
    await buyFirstOnLander(page, 'garden');
    await page.getByTestId('lander-cancel').click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'canceled');
    expect([new URL(page.url()).origin, new URL(page.url()).searchParams.get('via')]).toEqual([origin, 'cancel-path']);
    expect(await checkoutReturnOf(page)).toMatchObject({ state: 'canceled' });

    await page.evaluate(() => {
      document.querySelector('dk-domain-search')!.setAttribute('return-path', '/?via=return-path');
    });
    const bought = await buyFirstOnLander(page, 'garden');
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    await page.getByTestId('lander-return').click();
    await page.waitForURL((url) => url.searchParams.has('sig'));
    expect([new URL(page.url()).origin, new URL(page.url()).searchParams.get('via')]).toEqual([origin, 'return-path']);
    const done = await checkoutReturnOf(page);
    expect([done.state, done.text.includes(bought)]).toEqual(['confirmed', true]);

    // A return path on another site is refused by the BFF: the visitor stays, nothing opens.
    const refused = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ domain: 'coffeehouse.com', return_url: 'https://evil.example/x' }),
      });
      return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
    }, new URL('/dk', stack.demo.url).href);
    expect(refused).toEqual([400, 'return_url_not_allowed']);
    await page.close();
  });
});
