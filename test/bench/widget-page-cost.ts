/**
 * Widget page cost, part of `pnpm bench` (by itself: `node test/bench/widget-page-cost.ts`): what the widget costs the
 * page that hosts it, measured on the demo's script-tag page (sandbox marketplace + BFF + `examples/script-tag` with
 * the widget's `dist/`), with the widget and with its scripts blocked, in the same run:
 *
 * - Lighthouse 12 (npm `lighthouse`, its default mobile run with simulated throttling), {@link RUNS} navigations
 *   each way, alternated; the widget is blocked with `--blocked-url-patterns` on the files it is served from. Read:
 *   Cumulative Layout Shift and Total Blocking Time.
 * - Typing: Chromium at 4× CPU slowdown (DevTools' `Emulation.setCPUThrottlingRate`), each run in a browser of its own,
 *   a 12-letter query typed key by key into the search box, then the results left to open (with the siblings list).
 *   Read with the Event Timing API in the page: the longest interaction (the longest `event` entry of any
 *   `interactionId`; entries under 16 ms are not reported, so "< 16" is the floor), and the layout shifts meanwhile:
 *   those CLS counts (not within 500 ms of a keystroke), and all of them. Without the widget the same keys are pressed
 *   on the page.
 *
 * Bounds (issue 23): CLS added 0.000 and CLS while typing 0.000 on every run; on the medians of the runs, TBT added
 * ≤ {@link TBT_BOUND} ms and the longest typing interaction ≤ {@link INP_BOUND} ms. Over any, the run exits non-zero.
 * Measure on an idle machine: a busy one lengthens every task, and results late by more than 500 ms after the last
 * keystroke count as a shift. Chromium is the system's: CHROME_PATH, default /usr/bin/chromium. Build the widget
 * first (`pnpm --filter @domainkit/widget build`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemo } from '@domainkit/example-demo';
import { chromium, type Page } from 'playwright-core';

/** Navigations (and typing runs) each way. */
const RUNS = Number(process.env.DK_BENCH_RUNS ?? 3);
/** TBT the widget may add, milliseconds (median against median). */
const TBT_BOUND = 10;
/** The longest typing interaction at 4× slowdown, milliseconds (web.dev's INP "good" is 200; ours is tighter). */
const INP_BOUND = 50;
/** The query typed: 12 letters (two words of the demo inventory), key by key. */
const QUERY = 'coffee studio';
/** Milliseconds between two keystrokes: a steady typist. */
const KEY_DELAY = 120;
/** Where the demo serves the widget's files: what "without the widget" blocks. */
const WIDGET_FILES = '*/widget/*';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 20) throw new Error('DK_BENCH_RUNS must be an integer from 1 to 20.');
if (!existsSync(fileURLToPath(import.meta.resolve('@domainkit/widget/domainkit.min.js')))) {
  throw new Error("the widget's dist/domainkit.min.js is missing: run `pnpm --filter @domainkit/widget build` first.");
}

/** One Lighthouse navigation: CLS (unitless) and TBT (ms). */
interface Navigation {
  readonly cls: number;
  readonly tbt: number;
}

/** Runs the Lighthouse CLI once on `url`, the widget's files blocked or not. */
function lighthouse(url: string, blocked: boolean): Promise<Navigation> {
  const bin = fileURLToPath(new URL('../node_modules/.bin/lighthouse', import.meta.url));
  const args = [
    url,
    '--quiet',
    '--only-categories=performance',
    '--output=json',
    '--output-path=stdout',
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
    ...(blocked ? [`--blocked-url-patterns=${WIDGET_FILES}`] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env: { ...process.env, CHROME_PATH: CHROME }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited ${code}: ${Buffer.concat(err).toString()}`));
      const report = JSON.parse(Buffer.concat(out).toString()) as {
        runtimeError?: { message: string };
        audits: Record<string, { numericValue?: number }>;
      };
      if (report.runtimeError) return reject(new Error(`lighthouse: ${report.runtimeError.message}`));
      const value = (id: string): number => {
        const v = report.audits[id]?.numericValue;
        if (typeof v !== 'number') throw new Error(`lighthouse gave no ${id}`);
        return v;
      };
      resolve({ cls: value('cumulative-layout-shift'), tbt: value('total-blocking-time') });
    });
  });
}

/** One typing run: the longest interaction (ms; 0 when none reached 16 ms) and the layout shift meanwhile. */
interface Typing {
  readonly longest: number;
  /** Every layout shift, those within 500 ms of a keystroke included. */
  readonly shift: number;
  /** The shifts CLS counts: those not right after a keystroke (`hadRecentInput` false). */
  readonly cls: number;
  /** The search box's state at the end (with the widget): `results` when the results opened. */
  readonly state: string;
}

/** Types {@link QUERY} on the page at 4× CPU slowdown and reads the Event Timing and Layout Instability entries. */
async function typing(page: Page, url: string, withWidget: boolean): Promise<Typing> {
  await page.goto(url, { waitUntil: 'load' });
  if (withWidget) await page.waitForFunction(() => customElements.get('dk-domain-search') !== undefined);
  await page.evaluate(() => {
    const marks = { longest: 0, shift: 0, cls: 0 };
    (window as unknown as { dkCost: typeof marks }).dkCost = marks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number })[])
        if (entry.interactionId) marks.longest = Math.max(marks.longest, entry.duration);
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        marks.shift += entry.value;
        if (!entry.hadRecentInput) marks.cls += entry.value;
      }
    }).observe({ type: 'layout-shift' });
  });
  // The field is found before the slowdown: Playwright's selector engine walks the page (shadow roots too) in the
  // page's main thread, work of the harness that would otherwise land just before the first key, and only in the
  // runs with the widget. Its focus (the element's own handlers) runs slowed down like the typing.
  const field = withWidget ? await page.locator('dk-domain-search input').elementHandle() : null;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    await field?.focus();
    await page.keyboard.type(QUERY, { delay: KEY_DELAY });
    let state = '';
    if (withWidget) {
      await page.waitForFunction(
        () =>
          /^(results|empty|error|busy|offline)$/.test(
            document.querySelector<HTMLElement>('dk-domain-search')?.dataset.state ?? '',
          ),
        undefined,
        { timeout: 20_000 },
      );
      state = await page.evaluate(() => document.querySelector<HTMLElement>('dk-domain-search')?.dataset.state ?? '');
    }
    // The siblings list and any late row come after the results: let them land before reading.
    await page.waitForTimeout(2_000);
    const marks = await page.evaluate(
      () => (window as unknown as { dkCost: { longest: number; shift: number; cls: number } }).dkCost,
    );
    return { ...marks, state };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
}

/**
 * Runs `run` on a page of a browser of its own, closed after (as Lighthouse does for each navigation): the BFF's cache
 * stays warm, nothing else carries over. One browser for every run made each run slower than the one before, with
 * the widget and without it alike (a plain input's longest keystroke went 16, 56, 88, 96, 128, 168 ms over six
 * runs at 4x), so a figure depended on its place in the sequence.
 */
async function inFreshBrowser<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_FLAGS.slice(1) });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    return await run(await context.newPage());
  } finally {
    await browser.close();
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

let exitCode = 0;
const dataDir = await mkdtemp(join(tmpdir(), 'dk-page-cost-'));
const demo = await startDemo({ port: 0, sandboxPort: 0, dataDir, quiet: true });
try {
  const withWidget: Navigation[] = [];
  const without: Navigation[] = [];
  for (let i = 0; i < RUNS; i++) {
    withWidget.push(await lighthouse(demo.url, false));
    without.push(await lighthouse(demo.url, true));
  }

  const typedWith: Typing[] = [];
  const typedWithout: Typing[] = [];
  for (let i = 0; i < RUNS; i++) {
    typedWith.push(await inFreshBrowser((page) => typing(page, demo.url, true)));
    typedWithout.push(
      await inFreshBrowser(async (page) => {
        await page.context().route(`**/widget/**`, (route) => route.abort('blockedbyclient'));
        return typing(page, demo.url, false);
      }),
    );
  }
  const notResults = typedWith.filter((t) => t.state !== 'results');
  if (notResults.length > 0) throw new Error(`typing ended in state ${notResults[0]!.state}, not results`);

  const list = (values: readonly number[], digits: number): string =>
    values.map((v) => v.toFixed(digits).padStart(digits ? 6 : 4)).join(' ');
  const rows: [string, number[], number[], number][] = [
    ['CLS (Lighthouse)', withWidget.map((n) => n.cls), without.map((n) => n.cls), 3],
    ['TBT, ms (Lighthouse)', withWidget.map((n) => n.tbt), without.map((n) => n.tbt), 0],
    ['longest typing interaction, ms (4x CPU)', typedWith.map((t) => t.longest), typedWithout.map((t) => t.longest), 0],
    ['CLS while typing and results open', typedWith.map((t) => t.cls), typedWithout.map((t) => t.cls), 3],
    [
      'every shift meanwhile (input-driven included)',
      typedWith.map((t) => t.shift),
      typedWithout.map((t) => t.shift),
      3,
    ],
  ];
  console.log(
    `widget page cost: the demo's script-tag page, ${RUNS} runs with the widget and ${RUNS} with its scripts blocked`,
  );
  console.log(`  ${''.padEnd(44)}${'with the widget'.padEnd(24)}${'without'.padEnd(24)}added (medians)`);
  for (const [label, a, b, digits] of rows) {
    const added = median(a) - median(b);
    console.log(
      `  ${label.padEnd(44)}${list(a, digits).padEnd(24)}${list(b, digits).padEnd(24)}${added.toFixed(digits)}`,
    );
  }
  console.log('  (typing interactions under 16 ms are not reported by the Event Timing API and read 0)');

  const failures: string[] = [];
  // CLS on every run (a shift is a shift however rare); time figures on the medians (a busy machine spreads them).
  const addedCls = Math.max(...withWidget.map((n) => n.cls)) - Math.max(...without.map((n) => n.cls));
  if (addedCls.toFixed(3) !== '0.000') failures.push(`CLS added ${addedCls.toFixed(3)}, bound 0.000`);
  const addedTbt = median(withWidget.map((n) => n.tbt)) - median(without.map((n) => n.tbt));
  if (addedTbt > TBT_BOUND) failures.push(`TBT added ${addedTbt.toFixed(0)} ms, bound ${TBT_BOUND} ms`);
  const longest = median(typedWith.map((t) => t.longest));
  if (longest > INP_BOUND) failures.push(`longest typing interaction ${longest.toFixed(0)} ms, bound ${INP_BOUND} ms`);
  const typingCls = Math.max(...typedWith.map((t) => t.cls));
  if (typingCls.toFixed(3) !== '0.000') failures.push(`CLS while typing ${typingCls.toFixed(3)}, bound 0.000`);
  const verdict = failures.length ? `EXCEEDED (${failures.join('; ')})` : 'met';
  console.log(
    `  bounds: CLS added 0.000 (loading and typing), TBT added <= ${TBT_BOUND} ms, typing <= ${INP_BOUND} ms: ${verdict}`,
  );
  if (failures.length) exitCode = 1;
} finally {
  await demo.close();
  await rm(dataDir, { recursive: true, force: true });
}
// Explicitly: the stack's shutdown must not decide the bench's outcome.
process.exit(exitCode);
