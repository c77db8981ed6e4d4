/**
 * Turns zod issues into one readable line naming each offending field (`domains[0].price_cents`).
 */
import type { z } from 'zod';

/** `domains[0].price_cents` for the path `['domains', 0, 'price_cents']`; `(root)` for the empty path. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** One line per issue, `field: message`, joined by `; `. Never includes the offending value. */
export function formatIssues(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `${issue.keys.map((k) => `\`${formatIssuePath([...issue.path, k])}\``).join(', ')}: unknown field${issue.keys.length > 1 ? 's' : ''}`;
    }
    return `\`${formatIssuePath(issue.path)}\`: ${issue.message}`;
  });
  const more = error.issues.length - limit;
  return lines.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
