/**
 * The demo's pages as a partner first opens them, browser console open: no error is logged, not even a failed load of
 * a resource the pages never name (the browser's own `/favicon.ico`).
 */
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

const stack = useDemoStack('domainkit-demo-pages-');

describe('the demo pages', () => {
  for (const path of ['', 'spa/', 'console/', 'order/']) {
    it(`/${path} logs no error in the browser console`, async () => {
      const page = await stack.browser.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(new URL(path, stack.demo.url).href, { waitUntil: 'networkidle' });
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
