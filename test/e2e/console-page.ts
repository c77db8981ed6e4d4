/**
 * Reading the partner console (`@domainkit/console`) in the end-to-end browser: the text a person reads in an element
 * (shadow roots included), opening a tab of `<dk-console>` and waiting until its view has settled, and the Partner API
 * requests of the sandbox's own request log, to count what the marketplace was asked.
 */
import { Writable } from 'node:stream';
import type { Locator, Page } from 'playwright-core';

/** The text a person reads in `locator`'s element, shadow roots included (styles left out), spaces collapsed. */
export function deepText(locator: Locator): Promise<string> {
  return locator.first().evaluate((element) => {
    const walk = (node: Node): string => {
      let text = node instanceof Element && node.shadowRoot ? walk(node.shadowRoot) : '';
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) text += child.textContent ?? '';
        else if (child.nodeName !== 'STYLE') text += walk(child);
      }
      return text;
    };
    return walk(element).replace(/\s+/g, ' ');
  });
}

/** The tabs of `<dk-console>` in order, each with its view's tag and English tab label. */
export const CONSOLE_VIEWS = [
  { tab: 'overview', label: 'Overview' },
  { tab: 'orders', label: 'Orders' },
  { tab: 'settlements', label: 'Settlements' },
  { tab: 'commissions', label: 'Commissions' },
  { tab: 'brokerage', label: 'Brokerage' },
  { tab: 'links', label: 'Links' },
  { tab: 'events', label: 'Events' },
] as const;

/** One of the console's tab names. */
export type ConsoleTabName = (typeof CONSOLE_VIEWS)[number]['tab'];

/**
 * The view of `tab` once it has settled (`data-state` complete, error or signed out).
 * @returns the view's locator (`dk-console-<tab>`).
 */
export async function settledView(page: Page, tab: ConsoleTabName, timeout = 15_000): Promise<Locator> {
  const view = page.locator(`dk-console-${tab}`);
  await page
    .locator(['complete', 'error', 'signed-out'].map((state) => `dk-console-${tab}[data-state="${state}"]`).join(', '))
    .waitFor({ timeout });
  return view;
}

/** Clicks the tab of `tab` in `<dk-console>` (by its position, so any language works) and waits for its view. */
export async function openTab(page: Page, tab: ConsoleTabName): Promise<Locator> {
  const index = CONSOLE_VIEWS.findIndex((v) => v.tab === tab);
  await page.locator('dk-console').getByRole('tab').nth(index).click();
  return settledView(page, tab);
}

/** A request the sandbox logged (`msg: "request"`), from the demo's JSON log lines. */
export interface SandboxRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** When the line arrived, ms since the epoch. */
  readonly at: number;
}

/**
 * The Partner API endpoints of the `reporting` rate class, 30 a minute per credential (Partner API spec 8; the sandbox
 * counts `GET /settlements`, `/transactions`, `/payouts`, `/brokerage`, `/me/*` and `/analytics` in it).
 */
export const REPORTING_PATH = /^\/api\/partner\/v1\/(settlements|transactions|payouts|brokerage|me\/[a-z]+|analytics)$/;

/**
 * A stream for the demo's `logStream` that keeps every JSON log line, and the sandbox's request lines apart.
 * @returns the stream, the raw lines (every service) and the sandbox's requests.
 */
export function demoLog(): { stream: Writable; lines: string[]; requests: SandboxRequest[] } {
  const lines: string[] = [];
  const requests: SandboxRequest[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        lines.push(line);
        const entry = JSON.parse(line) as {
          service?: string;
          msg?: string;
          method?: string;
          path?: string;
          status?: number;
        };
        if (entry.service === 'sandbox' && (entry.msg === 'request' || entry.msg === 'request failed'))
          requests.push({
            method: entry.method ?? '',
            path: entry.path ?? '',
            status: entry.status ?? 0,
            at: Date.now(),
          });
      }
      done();
    },
  });
  return { stream, lines, requests };
}
