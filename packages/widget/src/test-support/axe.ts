/**
 * axe-core in the test page: {@link expectNoAxeViolations} runs every WCAG 2.0/2.1/2.2 A and AA rule and the
 * best practices against an element (shadow roots included) and fails listing each violation.
 */
import 'axe-core/axe.js';
import type { AxeResults } from 'axe-core';

declare global {
  interface Window {
    axe: typeof import('axe-core');
  }
}

/** Rules about a whole page (landmarks, a main heading), which a component on a test page cannot satisfy. */
const PAGE_RULES = ['region', 'landmark-one-main', 'page-has-heading-one', 'bypass', 'html-has-lang', 'document-title'];

/** Runs axe-core on `element` and throws an error listing the violations, if any. */
export async function expectNoAxeViolations(element: Element, what = element.localName): Promise<void> {
  const results: AxeResults = await window.axe.run(element, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    rules: Object.fromEntries(PAGE_RULES.map((id) => [id, { enabled: false }])),
    resultTypes: ['violations'],
  });
  if (results.violations.length > 0) {
    const lines = results.violations.flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id} (${v.impact}): ${n.failureSummary?.replace(/\s+/g, ' ')} at ${JSON.stringify(n.target)}`,
      ),
    );
    throw new Error(`axe-core found ${results.violations.length} violation(s) in ${what}:\n${lines.join('\n')}`);
  }
}
