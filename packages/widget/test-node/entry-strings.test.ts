/**
 * The MoR order flow's words (`purchase/order-strings.ts`: the quote, the money of a failed order, the placed-order
 * view) load with the order flow's own file and never weigh on the script-tag entry, `domainkit.min.js`, which must
 * stay within its 12 KB gzip budget. Bundles the entry as the build does and looks for each string in it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleScriptTag } from '../build-options.ts';
import { orderStrings } from '../src/purchase/order-strings.ts';

const root = join(import.meta.dirname, '..');

/** The literal text of a string or of a string function (its arguments replaced by markers and cut out). */
function fragments(value: string | ((...args: string[]) => string)): string[] {
  const text = typeof value === 'string' ? value : value('\ue000', '\ue001');
  return text.split(/[\ue000\ue001]/).filter((fragment) => fragment.trim().length >= 8);
}

describe('the script-tag entry', () => {
  it('carries none of the order flow strings; the order flow file carries them', async () => {
    const entry = Buffer.from((await bundleScriptTag(root, { entry: join(root, 'src', 'script-tag.ts') })).code);
    const order = Buffer.from(
      (await bundleScriptTag(root, { entry: join(root, 'src', 'purchase', 'order-flow.ts') })).code,
    );
    const checked = Object.entries(orderStrings).flatMap(([key, value]) =>
      fragments(value as string | ((...args: string[]) => string)).map((fragment) => [key, fragment] as const),
    );
    expect(checked.length).toBeGreaterThan(15);
    for (const [key, fragment] of checked) {
      expect(entry.includes(fragment), `${key}: "${fragment}" in domainkit.min.js`).toBe(false);
      expect(order.includes(fragment), `${key}: "${fragment}" in domainkit-order.min.js`).toBe(true);
    }
  });
});
