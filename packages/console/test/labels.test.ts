/**
 * A status reads as its label whichever case the marketplace writes its code in, and a code the console does not
 * know is shown as it came.
 */
import { describe, expect, it } from 'vitest';
import { codeLabel } from '../src/labels.ts';
import { ar } from '../src/locales/ar.ts';
import { fr } from '../src/locales/fr.ts';
import { en, withDefaults } from '../src/strings.ts';

describe('codeLabel', () => {
  it('reads a payout status in capitals or in lower case as its label', () => {
    expect(codeLabel(en.payoutStatuses, 'paid')).toBe('Paid');
    expect(codeLabel(en.payoutStatuses, 'PAID')).toBe('Paid');
    expect(codeLabel(fr.payoutStatuses, 'In_Transit')).toBe('En cours');
    expect(codeLabel(en.orderStatuses, 'transfer_completed')).toBe(codeLabel(en.orderStatuses, 'TRANSFER_COMPLETED'));
  });

  it('shows an unknown code, or a name of Object.prototype, as it came', () => {
    expect(codeLabel(en.payoutStatuses, 'ON_HOLD')).toBe('ON_HOLD');
    expect(codeLabel(en.deliveryStates, 'constructor')).toBe('constructor');
    expect(codeLabel(undefined, 'paid')).toBe('paid');
  });

  it('labels every delivery state the BFF inbox keeps, in every locale', () => {
    for (const strings of [en, fr, ar])
      for (const state of ['pending', 'done', 'failed'])
        expect(codeLabel(strings.deliveryStates, state)).not.toBe(state);
  });
});

describe('strings given in part', () => {
  it('relabel one status and keep the labels of the others', () => {
    const t = withDefaults({ orderStatuses: { HELD_FOR_REVIEW: 'On hold' }, apply: 'Go' });
    expect(codeLabel(t.orderStatuses, 'HELD_FOR_REVIEW')).toBe('On hold');
    expect(codeLabel(t.orderStatuses, 'TRANSFER_COMPLETED')).toBe(en.orderStatuses.TRANSFER_COMPLETED);
    expect(t.apply).toBe('Go');
    expect(withDefaults(fr).orderStatuses).toEqual(fr.orderStatuses);
  });
});
