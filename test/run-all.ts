#!/usr/bin/env node
/**
 * `pnpm test`: builds the widget, type-checks every package, runs every Node suite (vitest) and the widget's
 * browser suite (@web/test-runner in headless Chromium), then prints one closing line:
 * `tests: N passed, N failed, N skipped`. Exits non-zero when anything failed.
 *
 * Chromium comes from the system (Debian's `chromium` package, or CHROME_PATH); when it is missing and we run as
 * root, it is installed with apt-get. No tool downloads a browser of its own.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

function run(
  command: string,
  args: string[],
  options: { capture?: boolean } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    console.log(`\n$ ${[command, ...args].join(' ')}`);
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', options.capture ? 'pipe' : 'inherit', options.capture ? 'pipe' : 'inherit'],
      env: process.env,
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        (stream === child.stderr ? process.stderr : process.stdout).write(chunk);
      });
    }
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
    child.on('error', (error) => resolve({ code: 127, output: String(error) }));
  });
}

async function ensureChromium(): Promise<void> {
  if (existsSync(chromePath)) return;
  if (process.env.CHROME_PATH || process.getuid?.() !== 0) {
    throw new Error(
      `Chromium not found at ${chromePath}: install it (Debian: apt-get install chromium) or set CHROME_PATH.`,
    );
  }
  console.log("Chromium is missing: installing Debian's chromium package.");
  const update = await run('apt-get', ['update']);
  const install =
    update.code === 0 ? await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']) : update;
  if (install.code !== 0 || !existsSync(chromePath)) throw new Error('apt-get could not install chromium.');
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];

await ensureChromium();

// The widget's npm build comes first: its types (dist/) are what the examples type-check against.
const build = await run('pnpm', ['--filter', '@domainkit/widget', 'build']);
if (build.code !== 0) failures.push('widget build');
// The console's bundle, which the demo serves at /console/.
const consoleBuild = await run('pnpm', ['--filter', '@domainkit/console', 'build']);
if (consoleBuild.code !== 0) failures.push('console build');

const typecheck = await run('pnpm', ['-r', '--if-present', 'typecheck']);
if (typecheck.code !== 0) failures.push('typecheck');
const spa = await run('pnpm', ['--filter', '@domainkit/example-spa', 'build']);
if (spa.code !== 0) failures.push('SPA example build');

const scratch = await mkdtemp(join(tmpdir(), 'domainkit-test-'));
const vitestJson = join(scratch, 'vitest.json');
const vitest = await run('pnpm', [
  'exec',
  'vitest',
  'run',
  '--config',
  'test/vitest.all.config.ts',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
try {
  const report = JSON.parse(await readFile(vitestJson, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numFailedTestSuites: number;
  };
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) totals.failed += report.numFailedTestSuites;
} catch {
  failures.push('vitest (no report)');
}
if (vitest.code !== 0) failures.push('vitest');
await rm(scratch, { recursive: true, force: true });

const wtr = await run('pnpm', ['--filter', '@domainkit/widget', 'test'], { capture: true });
// @web/test-runner closes with "Chromium: |████| N/N test files | P passed, F failed" (skipped when any); take the last.
function lastCount(word: string): number {
  const all = [...wtr.output.matchAll(new RegExp(`(\\d+) ${word}`, 'g'))];
  return all.length > 0 ? Number(all[all.length - 1]![1]) : 0;
}
const widget = { passed: lastCount('passed'), failed: lastCount('failed'), skipped: lastCount('skipped') };
totals.passed += widget.passed;
totals.failed += widget.failed;
totals.skipped += widget.skipped;
if (wtr.code !== 0) failures.push('widget browser tests');
if (wtr.code === 0 && widget.passed === 0) failures.push('widget browser tests (no test ran)');

console.log(`\nwidget (browser): ${widget.passed} passed, ${widget.failed} failed, ${widget.skipped} skipped`);
if (failures.length > 0) console.log(`failed steps: ${failures.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length > 0 ? 1 : 0);
