import { describe, expect, it } from 'vitest';
import { signCheckoutReturn, verifyCheckoutReturn, type CheckoutReturn } from '../src/index.ts';

const SECRET = 'sk_test_0123456789abcdef0123456789abcdef';
const NOW = 1_900_000_000;
const SALE: CheckoutReturn = {
  checkout_session_id: 'cs_1',
  status: 'paid',
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
  ts: NOW,
};

describe('signed checkout return', () => {
  it('verifies what the marketplace signed, with the same secret', async () => {
    expect(await verifyCheckoutReturn(SECRET, await signCheckoutReturn(SECRET, SALE), NOW + 60)).toEqual(SALE);
  });

  it.each([
    ['an edited price', (q: URLSearchParams) => q.set('price_cents', '1')],
    ['an edited domain', (q: URLSearchParams) => q.set('domain', 'other.com')],
    ['a missing signature', (q: URLSearchParams) => q.delete('sig')],
    ['a made-up signature', (q: URLSearchParams) => q.set('sig', 'a'.repeat(64))],
    ['a cancelled status', (q: URLSearchParams) => q.set('status', 'canceled')],
  ])('refuses %s', async (_name, edit) => {
    const query = await signCheckoutReturn(SECRET, SALE);
    edit(query);
    expect(await verifyCheckoutReturn(SECRET, query, NOW)).toBeUndefined();
  });

  it('refuses another secret, and a result older than a day', async () => {
    const query = await signCheckoutReturn(SECRET, SALE);
    expect(await verifyCheckoutReturn('sk_test_another_secret_000000000000', query, NOW)).toBeUndefined();
    expect(await verifyCheckoutReturn(SECRET, query, NOW + 86_401)).toBeUndefined();
  });
});
