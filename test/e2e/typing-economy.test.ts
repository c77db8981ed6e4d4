/**
 * Typing economy on the real stack: a visitor typing at a phone's pace (320 ms a key, where every key used to
 * become a search) over ten words, on the script-tag example page in headless Chromium, spends at most two
 * upstream searches (`GET /api/partner/v1/domains/search` at the marketplace, the site's shared budget of Partner
 * API spec 8) a word, and every word is answered.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

/** Every JSON log line of the demo stack (the sandbox's carry `service: "sandbox"`). */
const lines: Array<Record<string, unknown>> = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const stack = useDemoStack('domainkit-typing-', { demo: { quiet: false, logStream } });

/** Milliseconds between two keys: ordinary phone typing. */
const KEY_GAP = 320;
/** What the marketplace answers a search at. */
const UPSTREAM_SEARCH = '/api/partner/v1/domains/search';

/** The marketplace's search requests so far. */
function upstreamSearches(): number {
  return lines.filter((line) => line.service === 'sandbox' && line.msg === 'request' && line.path === UPSTREAM_SEARCH)
    .length;
}

describe('typing economy', () => {
  it('a typist at 320 ms a key over ten words causes at most 2 upstream searches a word', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(stack.demo.url);
    const search = page.locator('dk-domain-search');
    const input = search.locator('[part="input"]');
    await page.waitForFunction(() => customElements.get('dk-domain-search') !== undefined);
    const words = ['coffee', 'garden', 'studio', 'river', 'cloud', 'market', 'green', 'honey', 'bakery', 'travel'];
    const perWord: Record<string, number> = {};
    const states: Record<string, string | null> = {};
    for (const word of words) {
      await input.fill('');
      const before = upstreamSearches();
      await input.pressSequentially(word, { delay: KEY_GAP });
      // Settled: answered, or refused (a spent budget shows "busy"; asserted below, after the counts).
      await expect
        .poll(() => search.getAttribute('data-state'), { timeout: 10_000 })
        .toMatch(/^(results|empty|busy|error)$/);
      await page.waitForTimeout(1500); // the visitor reads the results; late searches would land here
      perWord[word] = upstreamSearches() - before;
      states[word] = await search.getAttribute('data-state');
    }
    const report = JSON.stringify(perWord);
    expect(Math.max(...Object.values(perWord)), `upstream searches a word: ${report}`).toBeLessThanOrEqual(2);
    // Each word is new to the BFF's cache, so each reaches the marketplace at least once (the count is real).
    expect(Math.min(...Object.values(perWord)), `upstream searches a word: ${report}`).toBeGreaterThanOrEqual(1);
    for (const word of words) expect(states[word], `${word} answered`).toMatch(/^(results|empty)$/);
    await page.close();
  }, 120_000);
});
