/**
 * The demo's API secret (generated when its sandbox first starts) reaches no browser and no log (issue 24, must-show
 * 5; Partner API spec 5.1: "never put in client code and never logged"): not in any built file of the console or
 * the widget, not in anything the demo serves a browser that opens its shop, order and console pages and works every
 * console view (refund, new link, CSV export included), not in any console answer, and in no log line of the BFF or
 * the sandbox. A secret's shape (`sk_test_…`, `sk_live_…`) appears nowhere either, so another credential's secret
 * would be caught too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_VIEWS, demoLog, openTab, settledView } from './console-page.ts';
import { useDemoStack } from './demo-stack.ts';

const root = join(import.meta.dirname, '../..');
/** A Partner API secret's shape (packages/sandbox credentials: `sk_test_` or `sk_live_` and 40 base62 characters). */
const SECRET_SHAPE = /sk_(test|live)_[A-Za-z0-9]{8,}/;

const log = demoLog();
const stack = useDemoStack('domainkit-secret-nowhere-', { demo: { quiet: false, logStream: log.stream } });

/** Every file under `dir` (recursively), as `[path, text]`. @throws when the folder is missing (not built). */
function filesUnder(dir: string, build: string): Array<[string, string]> {
  if (!existsSync(dir)) throw new Error(`${dir} is missing: run \`${build}\` first.`);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [path.slice(root.length + 1), readFileSync(path, 'latin1')];
    });
}

/** The paths among `texts` that hold the secret or a secret's shape. */
function leaks(texts: Array<[string, string]>): string[] {
  const secret = stack.demo.credential.secret;
  return texts.filter(([, text]) => text.includes(secret) || SECRET_SHAPE.test(text)).map(([path]) => path);
}

describe("the demo's API secret", () => {
  it('has the shape this test looks for', () => {
    expect(stack.demo.credential.secret).toMatch(SECRET_SHAPE);
  });

  it('is in no built file of the console or the widget', () => {
    const built = [
      ...filesUnder(join(root, 'packages/console/dist'), 'pnpm --filter @domainkit/console build'),
      ...filesUnder(join(root, 'packages/widget/dist'), 'pnpm --filter @domainkit/widget build'),
    ];
    expect(built.some(([path]) => path.endsWith('console.min.js'))).toBe(true);
    expect(built.some(([path]) => path.endsWith('domainkit.min.js'))).toBe(true);
    expect(leaks(built)).toEqual([]);
  });

  it('reaches no browser: not in the pages, scripts or console answers the demo serves, as a partner works', async () => {
    const page = await stack.browser.newPage();
    // Every answer of the demo's origin, with its body (read as it arrives, before the page moves on).
    const served: Array<Promise<[string, string]>> = [];
    page.on('response', (response) => {
      if (!response.url().startsWith(stack.demo.url) || response.status() >= 300) return;
      served.push(response.body().then((body) => [new URL(response.url()).pathname, body.toString('latin1')]));
    });
    await page.goto(stack.demo.url, { waitUntil: 'networkidle' });
    await page.goto(new URL('order/', stack.demo.url).href, { waitUntil: 'networkidle' });
    await page.goto(stack.demo.consoleUrl);
    await settledView(page, 'overview');
    for (const { tab } of CONSOLE_VIEWS.slice(1)) await openTab(page, tab);
    // The two writes and the CSV export answer too.
    const links = await openTab(page, 'links');
    await links.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => log.lines.some((l) => l.includes('console link created'))).toBe(true);
    const orders = await openTab(page, 'orders');
    await orders.locator('[part="refund"]').first().click();
    await orders.getByRole('dialog').getByRole('button', { name: 'Refund the order' }).click();
    await expect.poll(() => log.lines.some((l) => l.includes('console refund made'))).toBe(true);
    const settlements = await openTab(page, 'settlements');
    const download = page.waitForEvent('download');
    await settlements.locator('[part="export"]').click();
    await download;
    const bodies = await Promise.all(served);
    await page.close();

    const urls = bodies.filter(([, body]) => body.length > 0).map(([path]) => path);
    for (const path of ['/', '/order/', '/console/', '/console/console.min.js', '/dk/console/session'])
      expect(urls).toContain(path);
    for (const { tab } of CONSOLE_VIEWS) expect(urls.some((u) => u.startsWith(`/dk/console/${tab}`))).toBe(true);
    expect(urls).toContain('/dk/console/transactions.csv');
    expect(leaks(bodies)).toEqual([]);
  });

  it('is in no log line of the BFF or the sandbox', () => {
    expect(log.lines.length).toBeGreaterThan(50);
    expect(log.lines.some((l) => l.includes('"service":"bff"'))).toBe(true);
    expect(leaks(log.lines.map((line, i) => [`log line ${i}`, line]))).toEqual([]);
  });
});
