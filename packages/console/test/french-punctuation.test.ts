// @vitest-environment node
/**
 * The console's French reads as French is set: `:`, `;`, `?`, `!` and `»` stay on the line of the word before them
 * (a no-break space), so a narrow cell never starts a line with them (« Pas de remboursement » then « : le domaine… »).
 */
import { describe, expect, it } from 'vitest';
import { fr } from '../src/locales/fr.ts';

describe('the console in French', () => {
  it('puts a no-break space before : ; ? ! and inside « »', () => {
    const loose = Object.entries(fr).filter(([, value]) => {
      const shown: unknown =
        typeof value === 'function' ? (value as (...a: unknown[]) => unknown)('exemple.com', 'x', 'y') : value;
      return typeof shown === 'string' && /[^\s] [:;?!»]|« /.test(shown);
    });
    expect(loose.map(([key]) => key)).toEqual([]);
  });
});
