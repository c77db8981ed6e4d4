/**
 * axe-core on a whole page in the end-to-end browser: every WCAG 2.0/2.1/2.2 A and AA rule and the best practices
 * (colour contrast included), as the widget's own axe check runs them, page-level rules included.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One violation, as a line of the failure message. */
interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: ReadonlyArray<{ readonly target: unknown; readonly failureSummary?: string }>;
}

/**
 * Runs axe-core on `page` (injected through the DevTools protocol, so a page's Content-Security-Policy does not
 * stop it) and throws an error naming `what` and listing each violation, if any.
 */
export async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<unknown> } }).axe;
    const results = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    })) as { violations: unknown[] };
    return results.violations;
  })) as Violation[];
  if (violations.length > 0) {
    const lines = violations.flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id} (${v.impact}): ${n.failureSummary?.replace(/\s+/g, ' ')} at ${JSON.stringify(n.target)}`,
      ),
    );
    throw new Error(`axe-core found ${violations.length} violation(s) in ${what}:\n${lines.join('\n')}`);
  }
}
