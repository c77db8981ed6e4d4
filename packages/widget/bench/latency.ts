/**
 * `pnpm bench` (speed): keystroke-to-results time of `<dk-domain-search>` in headless Chromium, against the real
 * demo stack (sandbox marketplace + BFF + the script-tag page, `dist/domainkit.min.js`) with a warm BFF cache.
 *
 * The stack listens on 127.0.0.1 only and the page may reach nothing else (every other request is aborted).
 * Every query is asked of the BFF once beforehand, so its search cache answers the measured searches. Each
 * sample is a fresh element (so the widget's own page cache never answers) with the default debounce: the
 * query is typed key by key, and the time runs from the last keystroke's `input` event to the results being
 * in the element's shadow DOM (`data-state="results"`, rows rendered), both read with `performance.now()` in
 * the page. Prints p50/p95 and the p95 beyond the debounce. It measures; it asserts nothing about time.
 *
 * Chromium is the system's: CHROME_PATH, default /usr/bin/chromium. Run `pnpm build` first.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '@domainkit/example-demo';
import { chromium } from 'playwright-core';

/** Measured samples, after {@link WARMUP} unmeasured ones (JIT, first style sheet adoption). */
const SAMPLES = 100;
const WARMUP = 5;
/** Milliseconds between two keystrokes: a quick typist, well inside the debounce. */
const KEY_DELAY = 30;
/** The widget's default debounce (`debounce` attribute), milliseconds. */
const DEBOUNCE = 250;
/** Words of the sandbox's inventory; those with at least one result are used. */
const WORDS = ['coffee', 'house', 'garden', 'studio', 'river', 'forest', 'cloud', 'market', 'green', 'honey', 'stone', 'harbor', 'pixel', 'rocket', 'maple', 'ocean', 'summit', 'lemon', 'falcon', 'craft'];

const root = join(import.meta.dirname, '..');
if (!existsSync(join(root, 'dist', 'domainkit.min.js'))) {
  throw new Error('dist/domainkit.min.js is missing: run `pnpm --filter @domainkit/widget build` first.');
}

const dataDir = await mkdtemp(join(tmpdir(), 'dk-latency-'));
const demo = await startDemo({ port: 0, sandboxPort: 0, dataDir, quiet: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

try {
  // Warm the BFF's search cache (sequentially: the sandbox's search budget is 60 a minute).
  const queries: string[] = [];
  for (const word of WORDS) {
    const response = await fetch(new URL(`dk/search?q=${word}`, demo.url));
    const body = (await response.json()) as { results?: unknown[] };
    if (response.ok && (body.results?.length ?? 0) > 0) queries.push(word);
  }
  if (queries.length === 0) throw new Error('no query of the bench has results in the demo inventory');

  const page = await browser.newPage();
  const origin = new URL(demo.url).origin;
  await page.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
  await page.goto(demo.url);
  await page.waitForFunction(() => customElements.get('dk-domain-search') !== undefined);

  const times: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const query = queries[i % queries.length]!;
    // A fresh element in a fresh box; the page records the last `input` event and the moment results are in.
    await page.evaluate(async () => {
      document.getElementById('dk-bench')?.remove();
      const box = Object.assign(document.createElement('div'), { id: 'dk-bench' });
      const search = Object.assign(document.createElement('dk-domain-search'), { api: '/dk' });
      box.append(search);
      document.body.append(box);
      await search.updateComplete;
      const marks = { input: 0, results: 0 };
      (window as unknown as { dkMarks: typeof marks }).dkMarks = marks;
      search.shadowRoot!.addEventListener('input', () => (marks.input = performance.now()), true);
      new MutationObserver(() => {
        if (search.dataset.state === 'results' && !marks.results && search.shadowRoot!.querySelector('[part="option"]')) marks.results = performance.now();
      }).observe(search, { attributes: true, attributeFilter: ['data-state'] });
      search.shadowRoot!.querySelector('input')!.focus();
    });
    await page.keyboard.type(query, { delay: KEY_DELAY });
    await page.waitForTimeout(1500); console.log(await page.evaluate(() => { const s = document.querySelector("#dk-bench dk-domain-search") as HTMLElement; return [s.dataset.state, s.shadowRoot!.querySelector("input")!.value, document.activeElement?.localName, JSON.stringify((window as any).dkMarks), s.shadowRoot!.innerHTML.length]; }));
    await page.waitForFunction(() => (window as unknown as { dkMarks: { results: number } }).dkMarks.results > 0, undefined, { timeout: 10_000 });
    const { input, results } = await page.evaluate(() => (window as unknown as { dkMarks: { input: number; results: number } }).dkMarks);
    if (i >= WARMUP) times.push(results - input);
  }

  times.sort((a, b) => a - b);
  const at = (p: number): number => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
  const ms = (value: number): string => `${value.toFixed(1)} ms`.padStart(9);
  console.log(`keystroke-to-results (headless Chromium, demo stack on 127.0.0.1, warm BFF cache, ${times.length} samples, ${queries.length} queries)`);
  console.log(`  p50                 ${ms(at(50))}`);
  console.log(`  p95                 ${ms(at(95))}`);
  console.log(`  max                 ${ms(times[times.length - 1]!)}`);
  console.log(`  debounce            ${ms(DEBOUNCE)}`);
  console.log(`  p95 beyond debounce ${ms(at(95) - DEBOUNCE)}  (p50 ${ms(at(50) - DEBOUNCE).trim()})`);
} finally {
  await browser.close();
  await demo.close();
  await rm(dataDir, { recursive: true, force: true });
}
