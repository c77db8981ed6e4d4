/**
 * Issue 23, defect 9 (the results on a phone, recent searches) and "the results open without moving the page", on the
 * demo's script-tag page:
 *
 * - on a desktop the results open as a popup over the page: the search box keeps its box, nothing under it moves
 *   (no layout shift at all, not even one right after a keystroke);
 * - on a phone (390 px, touch) the search opens as a full-screen panel: the field on top, the results under it, a
 *   visible Close button, Escape closes, Tab stays inside, the page under it neither scrolls nor moves, and focus is
 *   back in the field after closing; a page narrowed from a desktop to phone width while a price is locked (the
 *   MoR order panel, on the SPA) keeps the order panel in view: the search panel does not open over it;
 * - focusing the empty box shows the visitor's recent searches (kept in localStorage), each one can be searched
 *   again or removed, and "Clear" removes them all; with storage unavailable nothing is kept or shown.
 *
 * axe-core finds nothing in each new state, light, dark and right to left.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { inEveryLook } from './shots.ts';
import { quoteOnTheSpa, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-results-popup-');

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 900 } };

/** A locator inside the search box (Playwright pierces its shadow root). */
const part = (page: Page, name: string) => page.locator(`dk-domain-search [part~="${name}"]`);

/** What has focus inside the search box's shadow root (its `part`), or `outside` when focus left the element. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const host = document.querySelector('dk-domain-search')!;
    if (document.activeElement !== host) return 'outside';
    return host.shadowRoot!.activeElement?.getAttribute('part') ?? 'host';
  });
}

/** Starts recording every layout shift of the page (also those right after input), summed in `window.__shift`. */
async function recordShifts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__shift += (entry as unknown as { value: number }).value;
    }).observe({ type: 'layout-shift' });
  });
}

/** Opens the demo page in a fresh context (its own localStorage). */
async function open(
  options: Parameters<(typeof stack.browser)['newContext']>[0],
  query = '',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await stack.browser.newContext(options);
  const page = await context.newPage();
  await page.goto(new URL(query, stack.demo.url).href);
  await page.locator('dk-domain-search[data-state]').waitFor();
  return { context, page };
}

describe('the results open without moving the page', () => {
  it('on a desktop they open as a popup over the page: nothing under the box moves', async () => {
    const { context, page } = await open(DESKTOP);
    const box = () => page.locator('dk-domain-search').boundingBox();
    const next = () => page.locator('#featured').boundingBox();
    const [boxBefore, nextBefore] = [await box(), await next()];
    await recordShifts(page);
    const rows = await searchFor(page, 'coffee');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await expect.poll(() => part(page, 'results').isVisible()).toBe(true);
    // The siblings list lands after the results: let it.
    await page.waitForTimeout(600);
    expect(await box(), 'the search box keeps its box').toEqual(boxBefore);
    expect(await next(), 'the section under it does not move').toEqual(nextBefore);
    const results = (await part(page, 'results').boundingBox())!;
    expect(results.y + results.height, 'the results lie over the page under the box').toBeGreaterThan(nextBefore!.y);
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), 'layout shift').toBe(0);
    // The results and the siblings under them are cards on one opaque panel: the page never shows between them.
    const between = await page.evaluate(() => {
      const root = document.querySelector('dk-domain-search')!.shadowRoot!;
      const results = root.querySelector('[part="results"]')!.getBoundingClientRect();
      const panel = root.querySelector('.pop')!;
      const after = [...panel.children].find((el) => el.getBoundingClientRect().top > results.bottom)!;
      return {
        gap: after.getBoundingClientRect().top - results.bottom,
        background: getComputedStyle(panel).backgroundColor,
      };
    });
    expect(between.gap, 'a card lies under the results (the siblings)').toBeGreaterThan(0);
    expect(between.background, 'what shows between them is the panel').not.toMatch(/^(transparent|rgba\(.*, 0\))$/);
    await inEveryLook(page, 'results-popup', (name) => expectNoAxeViolations(page, `the results popup (${name})`));
    await page.setViewportSize(DESKTOP.viewport); // (the looks end at 390 px)

    // A click elsewhere on the page closes it; focus back in the box opens it again.
    await page.locator('#hero-title').click();
    await expect.poll(() => part(page, 'results').isVisible()).toBe(false);
    await expect.poll(() => part(page, 'input').getAttribute('aria-expanded')).toBe('false');
    await part(page, 'input').click();
    await expect.poll(() => part(page, 'results').isVisible()).toBe(true);
    await context.close();
  });
});

describe('on a phone', () => {
  it('the search opens as a full-screen panel with a Close button, Escape and a focus trap', async () => {
    const { context, page } = await open(PHONE);
    const input = part(page, 'input');
    const under = () => page.locator('#featured').boundingBox();
    const underBefore = await under();
    await input.tap();
    const rows = await searchFor(page, 'coffee');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    // The element keeps its place in the page under the panel: nothing there moves (nor back after Close).
    expect(await under(), 'the page under the panel does not move').toEqual(underBefore);
    const panel = await page.evaluate(() => {
      const host = document.querySelector('dk-domain-search')!;
      const field = host.shadowRoot!.querySelector('[part="input"]')!.getBoundingClientRect();
      const results = host.shadowRoot!.querySelector('[part="results"]')!.getBoundingClientRect();
      // What covers the lower part of the screen: the panel (inside the element), not the page under it.
      const covering = document.elementFromPoint(195, 800);
      return {
        fieldTop: field.top,
        resultsTop: results.top,
        fieldBottom: field.bottom,
        covered: covering === host,
        pageScroll: getComputedStyle(document.documentElement).overflow,
      };
    });
    expect(panel.fieldTop, 'the field is at the top of the screen').toBeLessThan(40);
    expect(panel.resultsTop, 'the results are under the field').toBeGreaterThanOrEqual(panel.fieldBottom);
    expect(panel.covered, 'the panel covers the page').toBe(true);
    expect(panel.pageScroll, 'the page under the panel does not scroll').toBe('hidden');
    const close = part(page, 'close-button');
    expect(await close.isVisible(), 'a visible Close button').toBe(true);
    const closeBox = (await close.boundingBox())!;
    expect(closeBox.height).toBeGreaterThanOrEqual(44);
    await inEveryLook(page, 'phone-panel-results', (name) =>
      expectNoAxeViolations(page, `the full-screen panel with results (${name})`),
    );

    // Tab and Shift+Tab never leave the panel.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await focused(page)).not.toBe('outside');
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).not.toBe('outside');
    }

    // Escape closes it; focus is back in the field; the page scrolls again.
    await input.focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => close.isVisible()).toBe(false);
    expect(await part(page, 'results').isVisible()).toBe(false);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await focused(page)).toBe('input');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');

    // A tap on the field opens it again with the results; the Close button closes it, focus back in the field.
    await input.tap();
    await expect.poll(() => close.isVisible()).toBe(true);
    await expect.poll(() => part(page, 'results').isVisible()).toBe(true);
    await close.tap();
    await expect.poll(() => close.isVisible()).toBe(false);
    expect(await focused(page)).toBe('input');
    expect(await under(), 'the page is where it was after Close').toEqual(underBefore);
    await context.close();
  });

  it('a page narrowed to phone width with a price locked keeps the order panel in view, no search panel over it', async () => {
    const context = await stack.browser.newContext(DESKTOP);
    const page = await context.newPage();
    await quoteOnTheSpa(page, stack.demo.url, 'garden');
    expect(await part(page, 'results').isVisible(), 'the order panel stands in for the results').toBe(false);
    await page.setViewportSize(PHONE.viewport);
    await page.waitForTimeout(300);
    const order = part(page, 'order');
    await order.scrollIntoViewIfNeeded();
    const onTop = await order.evaluate((panel) => {
      const box = panel.getBoundingClientRect();
      const root = panel.getRootNode() as ShadowRoot;
      const hit = root.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 20));
      return { hit: hit !== null && panel.contains(hit), dialog: root.querySelector('[role="dialog"]') !== null };
    });
    expect(onTop.dialog, 'no full-screen search panel').toBe(false);
    expect(onTop.hit, 'the order panel is what a tap on it reaches').toBe(true);
    expect(await part(page, 'close-button').isVisible()).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
    await inEveryLook(page, 'order-panel-after-resize', (name) =>
      expectNoAxeViolations(page, `the order panel after the page narrowed (${name})`),
    );
    // Back to a desktop and to a phone again (the looks did): still the order panel, no search panel over it.
    expect(
      await page.evaluate(() =>
        document.querySelector('dk-domain-search')!.shadowRoot!.querySelector('[role="dialog"]'),
      ),
    ).toBe(null);
    await context.close();
  });

  it('typing in the slotted payment form on a phone leaves the order panel in view, and Pay pays', async () => {
    const context = await stack.browser.newContext(PHONE);
    const page = await context.newPage();
    await quoteOnTheSpa(page, stack.demo.url, 'river');
    const form = page.locator('form.payment');
    for (const field of ['Email', 'Name', 'Card number']) {
      const input = form.getByLabel(field);
      await input.tap();
      await input.press('End');
      await input.pressSequentially(field === 'Card number' ? ' ' : 'x');
      await input.press('Backspace');
      expect(
        await page.evaluate(() => document.querySelector('dk-domain-search')!.shadowRoot!.querySelector('.sheet.open')),
        `typing in ${field} opened no search panel`,
      ).toBe(null);
    }
    await form.getByRole('button', { name: /^Pay / }).tap();
    await expect
      .poll(() => page.locator('dk-domain-search').getAttribute('data-purchase'), { timeout: 20_000 })
      .toBe('ordered');
    await context.close();
  });

  it('in Arabic the Close button and the recent searches speak Arabic, right to left', async () => {
    const { context, page } = await open(PHONE, '?lang=ar');
    await part(page, 'input').tap();
    await searchFor(page, 'coffee');
    await page.keyboard.press('Escape');
    await part(page, 'input').tap();
    await part(page, 'input').fill('');
    await expect.poll(() => part(page, 'recent-title').textContent()).toBe('عمليات البحث الأخيرة');
    expect((await part(page, 'close-button').textContent())?.trim()).toBe('إغلاق');
    await inEveryLook(page, 'phone-panel-recent-ar', (name) =>
      expectNoAxeViolations(page, `the panel with recent searches in Arabic (${name})`),
    );
    await context.close();
  });
});

describe('recent searches', () => {
  it('focusing the empty box lists them; each can be searched again or removed; Clear removes them all', async () => {
    const { context, page } = await open(DESKTOP);
    const input = part(page, 'input');
    const recent = part(page, 'recent-query');
    const texts = () => recent.allTextContents().then((all) => all.map((text) => text.trim()));
    // Nothing searched yet: focusing the empty box shows nothing.
    await input.focus();
    expect(await part(page, 'recent').count()).toBe(0);

    for (const query of ['coffee', 'studio']) {
      await searchFor(page, query);
      await page.keyboard.press('Escape'); // closes the results: the visitor saw them
      await page.keyboard.press('Escape'); // clears the box
    }
    await expect.poll(texts).toEqual(['studio', 'coffee']);
    await expect.poll(() => part(page, 'recent-status').textContent()).toMatch(/2 recent searches/);
    await inEveryLook(page, 'recent-searches', (name) => expectNoAxeViolations(page, `the recent searches (${name})`));
    await page.setViewportSize(DESKTOP.viewport);

    // Kept across a reload (the visitor's localStorage).
    await page.reload();
    await input.focus();
    await expect.poll(texts).toEqual(['studio', 'coffee']);

    // By keyboard: Tab reaches the first one; Enter searches it again.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('recent-query');
    await page.keyboard.press('Enter');
    await expect.poll(() => input.inputValue()).toBe('studio');
    await expect.poll(() => page.locator('dk-domain-search').getAttribute('data-state')).toBe('results');
    expect(await focused(page)).toBe('input');

    // Removing one keeps the other; Clear removes them all, and the box has focus again.
    await input.fill('');
    await page.keyboard.press('Escape');
    await input.focus();
    await part(page, 'recent-remove').first().click();
    await expect.poll(texts).toEqual(['coffee']);
    await expect.poll(() => part(page, 'recent-status').textContent()).toMatch(/removed/);
    await part(page, 'recent-clear').click();
    await expect.poll(() => part(page, 'recent').count()).toBe(0);
    expect(await focused(page)).toBe('input');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('dk-')))).toEqual([]);
    await context.close();
  });

  it('with storage unavailable nothing is kept and nothing is shown', async () => {
    const context = await stack.browser.newContext(DESKTOP);
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(stack.demo.url);
    await searchFor(page, 'coffee');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await part(page, 'input').focus();
    await expect.poll(() => page.locator('dk-domain-search').getAttribute('data-state')).toBe('initial');
    expect(await part(page, 'recent').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
