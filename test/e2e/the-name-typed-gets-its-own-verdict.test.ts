/**
 * Issue 22: a visitor who types a whole domain learns first what became of that very name, above the partial matches
 * (as registrars' searches show it): `live-site.com` (the sandbox's scenario name that runs a live site) is taken,
 * and "Who holds it?" names its registrar and registration date through the BFF's `GET /whois`; a listed name is
 * for sale with its row first; a name nobody registered says the shop cannot sell it and where it can be had, above
 * the names that can be bought now. No "Also available" row is left without an action or with a price nobody can pay.
 * axe-core finds nothing in these states, light, dark and right to left, at 390 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-verdict-');

/** Types `query` on the demo's script-tag page (which has `siblings`) and waits for the verdict on it. */
async function verdictOn(page: Page, query: string): Promise<{ verdict: string; text: string }> {
  await searchFor(page, query);
  const verdict = page.locator('dk-domain-search [part="verdict"]');
  await verdict.waitFor();
  // The Public API's word arrives after the results: wait until the verdict no longer says only "not listed here".
  await expect.poll(() => verdict.getAttribute('data-verdict'), { timeout: 10_000 }).not.toBe('unlisted');
  return {
    verdict: (await verdict.getAttribute('data-verdict'))!,
    text: (await verdict.locator('[part="verdict-text"]').textContent())!.replace(/[\u2066-\u2069]/g, ''),
  };
}

/**
 * The result rows, read in one pass (a later render cannot change them between two reads): each available row has
 * its price and its Buy; a row that cannot be bought says why (its badge) and shows neither. The demo's history sells
 * random listings, so a partial match may be one of them. Returns the line the verdict puts above them: it says "can
 * be bought now" only when every row can.
 */
async function expectEachRowBuyableOrSaysWhy(page: Page): Promise<string> {
  const rows = await page.locator('dk-domain-search [part="option"]').evaluateAll((options) =>
    options.map((row) => ({
      domain: row.getAttribute('data-domain'),
      availability: row.querySelector('[part~="availability"]')?.getAttribute('part'),
      badge: row.querySelector('[part~="availability"]')?.textContent?.trim(),
      buy: row.querySelectorAll('[part="buy-button"]').length,
      price: row.querySelectorAll('[part="price"]').length,
    })),
  );
  expect(rows.filter((row) => row.availability === 'availability available').length).toBeGreaterThan(0);
  for (const row of rows) {
    if (row.availability === 'availability available') expect([row.buy, row.price], `${row.domain}`).toEqual([1, 1]);
    else {
      expect([row.buy, row.price], `${row.domain}: no Buy, no price`).toEqual([0, 0]);
      expect(row.badge, `${row.domain} says why`).toMatch(/^(Taken|Reserved)/);
    }
  }
  return rows.every((row) => row.availability === 'availability available')
    ? 'These names can be bought now:'
    : 'Names like it:';
}

/** The top of an element on screen (px). */
async function top(page: Page, selector: string): Promise<number> {
  return (await page.locator(selector).first().boundingBox())!.y;
}

describe('the name typed gets its own verdict', () => {
  it('live-site.com: taken, said above the partial matches, and "Who holds it?" names its registrar', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await page.goto(stack.demo.url);

    const { verdict, text } = await verdictOn(page, 'live-site.com');

    expect(verdict).toBe('taken');
    expect(text).toBe('live-site.com is taken: someone has registered it, and it is not for sale here.');
    // Before the partial matches ("olive…"), which stay, with their Buy: the names that can be bought now.
    const lead = await expectEachRowBuyableOrSaysWhy(page);
    expect(await top(page, 'dk-domain-search [part="verdict"]')).toBeLessThan(
      await top(page, 'dk-domain-search [part="option"]'),
    );
    expect(await page.locator('dk-domain-search [part="verdict-alternatives"]').textContent()).toBe(lead);
    // The verdict is announced (a polite live region).
    expect(await page.locator('dk-domain-search [part="verdict-text"]').getAttribute('role')).toBe('status');

    // Who holds it: from the keyboard, the answer replaces the button and takes the focus.
    const lookedUp = page.waitForResponse((r) => r.url().includes('/dk/whois?'));
    await page.locator('dk-domain-search [part="whois-button"]').focus();
    await page.keyboard.press('Enter');
    expect((await lookedUp).status()).toBe(200);
    const whois = page.locator('dk-domain-search [part="whois"]');
    await whois.waitFor();
    expect((await whois.textContent())!.replace(/[\u2066-\u2069]/g, '')).toMatch(
      /^Registered with .+ since [A-Z][a-z]+ \d{1,2}, (19|20)\d\d\.$/,
    );
    expect(
      await whois.evaluate(
        (el) => el.getRootNode() instanceof ShadowRoot && (el.getRootNode() as ShadowRoot).activeElement === el,
      ),
    ).toBe(true);

    await inEveryLook(page, 'verdict-taken', (name) => expectNoAxeViolations(page, `the taken name (${name})`));
    await page.close();
  });

  it('coffeehouse.com: for sale here, its own row first with its Buy', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(stack.demo.url);

    const { verdict, text } = await verdictOn(page, 'coffeehouse.com');

    expect(verdict).toBe('listed');
    expect(text).toBe('coffeehouse.com is for sale here: buy it now.');
    const first = page.locator('dk-domain-search [part="option"]').first();
    expect(await first.getAttribute('data-domain')).toBe('coffeehouse.com');
    expect(await first.locator('[part="buy-button"]').count()).toBe(1);
    expect(await page.locator('dk-domain-search [part="whois-button"]').count(), 'nothing to look up').toBe(0);
    await page.close();
  });

  it('a name nobody registered: why it cannot be had here, where it can, and the names that can be bought now', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 900 } });
    await page.goto(stack.demo.url);

    const { verdict, text } = await verdictOn(page, 'zebra-garden.com');

    expect(verdict).toBe('unregistered');
    expect(text).toBe(
      'Nobody has registered zebra-garden.com yet. This shop cannot sell it: any domain registrar can register it for you.',
    );
    const lead = await expectEachRowBuyableOrSaysWhy(page);
    expect(await page.locator('dk-domain-search [part="verdict-alternatives"]').textContent()).toBe(lead);
    await inEveryLook(page, 'verdict-unregistered', (name) =>
      expectNoAxeViolations(page, `the name nobody registered (${name})`),
    );
    await page.close();
  });

  it('leaves no "Also available" row without an action, and shows no price nobody can pay', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(stack.demo.url);

    for (const query of ['coffee', 'already-sold.com']) {
      await searchFor(page, query);
      const siblings = page.locator('dk-domain-search [part="sibling"]');
      await expect.poll(() => siblings.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      for (const row of await siblings.all()) {
        const kind = await row.getAttribute('data-kind');
        const buy = await row.locator('[part~="sibling-buy"]').count();
        const status = await row.locator('[part="sibling-status"]').textContent();
        if (kind === 'listing') expect(buy, `${await row.getAttribute('data-domain')} has its Buy`).toBe(1);
        else {
          expect(buy).toBe(0);
          expect(status).toBe('Not registered yet: any registrar can register it');
          expect(await row.locator('[part="sibling-price"]').count(), 'no registry price this shop cannot honour').toBe(
            0,
          );
        }
      }
    }
    // The sold scenario name: taken, and its row shows no price ("Taken $2,000" nobody can pay).
    const sold = page.locator('dk-domain-search [part="option"][data-domain="already-sold.com"]');
    expect(await sold.locator('[part="price"]').count()).toBe(0);
    expect(await page.locator('dk-domain-search [part="verdict"]').getAttribute('data-verdict')).toBe('taken');
    await page.close();
  });
});
