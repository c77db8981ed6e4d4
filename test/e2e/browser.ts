/**
 * Headless Chromium for end-to-end tests: Debian's build (never a downloaded one), overridable with CHROME_PATH.
 */
import { chromium, type Browser } from 'playwright-core';

/** The executable the tests launch. */
export const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium with the flags this workplace's closed network needs.
 * @param options - `backForwardCache`: keep Chromium's back/forward cache on, as in a visitor's browser (Playwright
 *   turns it off by default, so Back would reload the page).
 */
export function launchChromium(options: { backForwardCache?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromePath,
    headless: true,
    ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
