import Color from 'colorjs.io';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { openCheckout } from './widget-page.ts';

const stack = useDemoStack('domainkit-lander-');
let checkoutUrl: string;

beforeAll(async () => {
  checkoutUrl = await openCheckout(stack.demo.url, 'coffee');
});

describe('the hosted checkout', () => {
  for (const width of [320, 390]) {
    it(`fits a ${width} px phone: no sideways scroll, the Pay button in view`, async () => {
      const page = await stack.browser.newPage({ viewport: { width, height: 800 } });
      await page.goto(checkoutUrl);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      const pay = await page.locator('button[type=submit]').boundingBox();
      expect(pay!.x + pay!.width).toBeLessThanOrEqual(width);
      for (const field of ['card_number', 'card_expiry', 'card_cvc', 'card_name']) {
        const box = await page.locator(`#${field}`).boundingBox();
        expect(box!.x + box!.width, field).toBeLessThanOrEqual(width);
      }
      await page.close();
    });
  }

  it('follows prefers-color-scheme: dark', async () => {
    const page = await stack.browser.newPage({ colorScheme: 'dark', viewport: { width: 390, height: 800 } });
    await page.goto(checkoutUrl);
    const colours = await page.evaluate(() => ({
      page: getComputedStyle(document.body).backgroundColor,
      card: getComputedStyle(document.querySelector('main')!).backgroundColor,
      text: getComputedStyle(document.body).color,
    }));
    expect(colours).toEqual({ page: 'rgb(13, 17, 23)', card: 'rgb(22, 27, 34)', text: 'rgb(230, 233, 239)' });
    // The Pay button's label stays readable on its dark-scheme colour (WCAG 1.4.3: 4.5:1).
    const pay = await page
      .locator('button[type=submit]')
      .evaluate((button) => [getComputedStyle(button).color, getComputedStyle(button).backgroundColor]);
    expect(
      new Color(pay[0]!).contrast(new Color(pay[1]!), 'WCAG21'),
      `Pay: ${pay.join(' on ')}`,
    ).toBeGreaterThanOrEqual(4.5);
    await page.close();
  });

  it("speaks the browser's language: French, and Arabic right to left with the card number left to right", async () => {
    const french = await stack.browser.newPage({ locale: 'fr-FR', viewport: { width: 390, height: 800 } });
    await french.goto(checkoutUrl);
    expect(await french.locator('html').getAttribute('lang')).toBe('fr');
    // Pay names the amount, in French ("Payer 2 500,00 $US").
    expect(await french.locator('button[type=submit]').textContent()).toMatch(/^Payer [\d\u202f ]+,00\u00a0\$US$/);
    await french.close();

    const arabic = await stack.browser.newPage({ locale: 'ar-EG', viewport: { width: 390, height: 800 } });
    await arabic.goto(checkoutUrl);
    const page = await arabic.evaluate(() => {
      const card = document.querySelector<HTMLInputElement>('#card_number')!;
      return {
        lang: document.documentElement.lang,
        dir: getComputedStyle(document.body).direction,
        pay: document.querySelector('button[type=submit]')!.firstChild!.textContent,
        cardDirection: getComputedStyle(card).direction,
        // Its digits left to right, lined up with the page's start (the right edge).
        cardAlign: getComputedStyle(card).textAlign,
        scrollWidth: document.documentElement.scrollWidth,
      };
    });
    expect(page).toEqual({
      lang: 'ar',
      dir: 'rtl',
      pay: 'ادفع ',
      cardDirection: 'ltr',
      cardAlign: 'right',
      scrollWidth: 390,
    });
    // As the visitor reads it: "US$" whole before the amount (not "$US"), each test card on one line, the domain
    // lined up with the page's start.
    const reading = await arabic.evaluate(() => {
      /** Where the `index`th character of `element`'s text is drawn. */
      const box = (element: Element, index: number) => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const length = node.textContent!.length;
          if (index < length) {
            const range = document.createRange();
            range.setStart(node, index);
            range.setEnd(node, index + 1);
            return range.getBoundingClientRect();
          }
          index -= length;
        }
        throw new Error('no such character');
      };
      const price = document.querySelector('[data-testid="lander-price"]')!;
      const text = price.textContent!;
      const [u, dollar] = [text.indexOf('U'), text.indexOf('$')];
      return {
        dollarRightOfUs: box(price, dollar).left > box(price, u).left,
        cardsOnOneLine: [...document.querySelectorAll('.hint code')].map((code) => code.getClientRects().length),
        domainAlign: getComputedStyle(document.querySelector('[data-testid="lander-domain"]')!).textAlign,
      };
    });
    expect(reading).toEqual({ dollarRightOfUs: true, cardsOnOneLine: [1, 1], domainAlign: 'right' });
    await arabic.close();
  });
});
