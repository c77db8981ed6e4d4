/**
 * Focus indicators a visitor can see (WCAG 2.2 SC 1.4.11: 3:1 against what is behind them), measured in headless
 * Chromium on the script-tag example, the React SPA example and the widget with its default theme (no partner
 * styling), in the light and the dark colour scheme: the search box, a result's Buy and a `<dk-buy-button>`.
 * Also: the script-tag page and the widget agree on the colour scheme (no dark slab on a light page).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { backgroundAt, type FocusRing, hex, measureFocusRing, measureRowMarker } from './focus-ring.ts';
import { searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-focus-');

/** WCAG 2.2 SC 1.4.11: a focus indicator's contrast against adjacent colours. */
const MINIMUM = 3;

type Scheme = 'light' | 'dark';

/** A page to measure, opened in a colour scheme. */
interface Subject {
  readonly name: string;
  open(page: Page, scheme: Scheme): Promise<void>;
}

const subjects: Subject[] = [
  {
    name: 'the script-tag example',
    open: async (page) => {
      await page.goto(stack.demo.url);
    },
  },
  {
    name: 'the React SPA example',
    open: async (page, scheme) => {
      await page.goto(new URL('spa/', stack.demo.url).href);
      // The SPA has its own switch (it passes theme="dark" to the elements).
      if (scheme === 'dark') await page.getByLabel('Dark theme').check();
    },
  },
  {
    name: "the widget's default theme",
    open: async (page) => {
      // A bare page on the demo's origin (so the widget reaches the demo's BFF at /dk): no partner styling at all.
      const bare = new URL('focus-bare.html', stack.demo.url).href;
      await page.route(bare, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="en"><head><title>Bare</title>
            <script type="module" src="/widget/domainkit.min.js"></script></head><body>
            <dk-domain-search api="/dk" label="Search domains"></dk-domain-search>
            <dk-buy-button api="/dk" domain="coffeehouse.com">Buy coffeehouse.com</dk-buy-button></body></html>`,
        }),
      );
      await page.goto(bare);
    },
  },
];

describe('focus indicators reach 3:1 against what is behind them', () => {
  for (const subject of subjects) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${subject.name}, ${scheme}: the search box, a result's Buy, the active result and <dk-buy-button>`, async () => {
        const page = await stack.browser.newPage({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
        await subject.open(page, scheme);
        await page.waitForFunction(() => customElements.get('dk-buy-button') !== undefined);
        const rows = await searchFor(page, 'coffee');
        // (A result's Buy is reached with the arrow keys, not Tab; its own ring shows when script focuses it.)
        const controls = {
          'search box': page.locator('dk-domain-search [part="input"]'),
          "a result's Buy": rows.locator('[part="buy-button"]').first(),
          '<dk-buy-button>': page.locator('dk-buy-button [part="buy-button"]'),
        };
        const measured: Record<string, string> = {};
        const record = (name: string, ring: FocusRing) => {
          measured[name] = `${ring.ratio}:1 (${ring.ring} on ${ring.background})`;
        };
        for (const [name, control] of Object.entries(controls)) record(name, await measureFocusRing(control));
        // The keyboard's way to a result: ArrowDown in the search box marks the active row.
        await controls['search box'].focus();
        await page.keyboard.press('ArrowDown');
        record('the active result (ArrowDown)', await measureRowMarker(rows.first()));
        const failing = Object.entries(measured).filter(([, text]) => Number.parseFloat(text) < MINIMUM);
        expect(failing, JSON.stringify(measured, null, 2)).toEqual([]);
        await page.close();
      });
    }
  }

  it('the script-tag example in dark mode: the widget matches the page, no dark slab on a light page', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await stack.browser.newPage({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
      await page.goto(stack.demo.url);
      await searchFor(page, 'coffee');
      const pageBackground = await backgroundAt(page.locator('#search'));
      for (const piece of [
        'dk-domain-search',
        'dk-domain-search [part="input"]',
        'dk-domain-search [part="results"]',
      ]) {
        const widget = await backgroundAt(page.locator(piece));
        const ratio = widget.contrast(pageBackground, 'WCAG21');
        expect(ratio, `${scheme}: ${piece} ${hex(widget)} on the page's ${hex(pageBackground)}`).toBeLessThan(2);
      }
      await page.close();
    }
  });
});
