/**
 * Issue 23, defect 7: the sandbox's hosted checkout behaves like a payment page a partner can show. After Pay the
 * buyer is sent (303, Post/Redirect/Get) to a receipt URL, so reload, Back and Forward show the receipt and never
 * resubmit the form; the receipt's return link carries the signed result the BFF verifies; the partner's shop is
 * named; Pay shows the amount; no field looks filled in before the buyer types; headings wrap between words; and
 * the receipt returns the buyer to the shop by itself after a few seconds, announced, with a way to stay. axe-core
 * finds nothing in any of these states, light, dark and right to left.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { checkoutReturnOf, openCheckout, payByForm, payOnLander } from './widget-page.ts';

const stack = useDemoStack('domainkit-lander-prg-');
/** The shop's name as the demo's partner set it in the marketplace's back office. */
const SHOP = 'Acme Domains';

/** A page in a fresh context: a 390 px phone unless `options` say otherwise. */
async function visitor(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 390, height: 900 }, ...options });
  return context.newPage();
}

const taken = new Set<string>();
/** Checkouts: open for the whole file; paid in the browser by the Pay case; paid before the first case. */
let openUrl: string;
let paidUrl: string;
let receiptUrl: string;
beforeAll(async () => {
  openUrl = await openCheckout(stack.demo.url, 'coffee', taken);
  paidUrl = await openCheckout(stack.demo.url, 'coffee', taken);
  receiptUrl = await openCheckout(stack.demo.url, 'coffee', taken);
  expect((await payByForm(receiptUrl)).status).toBe(303);
});

describe('the hosted checkout, a payment page', () => {
  it('names the shop, shows the amount on Pay, and has no field that looks filled in', async () => {
    for (const [locale, pay] of [
      ['en-US', 'Pay'],
      ['fr-FR', 'Payer'],
      ['ar-EG', 'ادفع'],
    ] as const) {
      const page = await visitor({ locale });
      await page.goto(openUrl);
      const price = await page.getByTestId('lander-price').textContent();
      expect(await page.getByTestId('lander-shop').textContent(), locale).toBe(SHOP);
      expect((await page.locator('button[type=submit]').textContent())?.trim(), locale).toBe(`${pay} ${price}`);
      const fields = await page
        .locator('form input:not([type=hidden])')
        .evaluateAll((inputs) =>
          (inputs as HTMLInputElement[]).map((input) => ({ name: input.name, placeholder: input.placeholder })),
        );
      expect(
        fields.filter((field) => field.placeholder !== ''),
        `${locale}: a placeholder looks like a value already typed`,
      ).toEqual([]);
      await page.context().close();
    }
  });

  it('wraps headings between words, never inside one (320 px, English and French)', async () => {
    for (const locale of ['en-US', 'fr-FR']) {
      const page = await visitor({ locale, viewport: { width: 320, height: 800 } });
      await page.goto(new URL('?pt=not-a-token', openUrl).href);
      const broken = await page.locator('h1').evaluate((heading) => {
        const text = heading.textContent!;
        const words: string[] = [];
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          const node = heading.firstChild!;
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // A word drawn on two lines has two boxes.
          if (new Set(Array.from(range.getClientRects(), (box) => Math.round(box.top))).size > 1) words.push(match[0]);
        }
        return { words };
      });
      expect(broken.words, `${locale}: words broken across lines`).toEqual([]);
      await page.context().close();
    }
  });

  it('after Pay: a receipt URL; reload, Back and Forward show the receipt; its return link is verified', async () => {
    const page = await visitor();
    await page.goto(paidUrl);
    expect(await payOnLander(page, '4242 4242 4242 4242')).toBe('paid');
    const receipt = new URL(page.url());
    expect(receipt.pathname, 'Post/Redirect/Get: the receipt has a URL of its own').toBe('/checkout/receipt');
    await expectNoAxeViolations(page, 'the receipt (light, English)');

    const reloaded = await page.reload();
    expect(reloaded?.request().method(), 'a reload asks for the receipt, never posts the form again').toBe('GET');
    expect(await page.getByTestId('lander-success').textContent()).toBe('Payment received');

    await page.goBack();
    expect(await page.getByTestId('lander-success').count(), 'Back: the receipt, not the form').toBe(1);
    expect(await page.locator('input[name="card_number"]').count()).toBe(0);
    await page.goForward();
    expect(await page.getByTestId('lander-success').count(), 'Forward: the receipt').toBe(1);

    // The receipt (here after Back and Forward) names the shop and carries the signed result the BFF verifies.
    const back = page.getByTestId('lander-return');
    expect(await back.textContent()).toBe(`Return to ${SHOP}`);
    await back.click();
    await page.waitForURL((url) => url.searchParams.has('sig'));
    expect((await checkoutReturnOf(page)).state).toBe('confirmed');
    await page.context().close();
  });

  it('returns to the shop by itself after 10 seconds, says so, and lets the buyer stay', async () => {
    const page = await visitor();
    await page.clock.install();
    await page.goto(receiptUrl);
    expect(new URL(page.url()).pathname, 'a paid link opens its receipt').toBe('/checkout/receipt');
    const notice = page.getByTestId('lander-auto-return');
    await expect.poll(() => notice.textContent()).toBe(`Returning you to ${SHOP} in 10 seconds.`);
    expect(await notice.getAttribute('role')).toBe('status');
    await page.clock.runFor(10_000);
    await page.waitForURL((url) => url.searchParams.has('sig'));
    expect((await checkoutReturnOf(page)).state).toBe('confirmed');

    // Stay: the countdown stops, says so, and the buyer is still on the receipt long after.
    await page.goto(receiptUrl);
    await expect.poll(() => notice.textContent()).toMatch(/in 10 seconds/);
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    expect(await notice.textContent()).toBe(`Staying on this page. Return to ${SHOP} when you are ready.`);
    await expectNoAxeViolations(page, 'the receipt, countdown stopped');
    await page.clock.runFor(60_000);
    expect(new URL(page.url()).pathname).toBe('/checkout/receipt');
    await page.context().close();
  });

  it('axe-core: 0 violations on the form and the receipt, light, dark and Arabic (right to left)', async () => {
    for (const [what, options] of [
      ['light', {}],
      ['dark', { colorScheme: 'dark' }],
      ['Arabic', { locale: 'ar-EG' }],
      ['Arabic, dark, 1280 px', { locale: 'ar-EG', colorScheme: 'dark', viewport: { width: 1280, height: 800 } }],
    ] as const) {
      const page = await visitor(options);
      await page.goto(openUrl);
      await expectNoAxeViolations(page, `the checkout form (${what})`);
      await page.goto(receiptUrl);
      await page.getByTestId('lander-auto-return').waitFor();
      await expectNoAxeViolations(page, `the receipt with its countdown (${what})`);
      await page.context().close();
    }
  });
});
