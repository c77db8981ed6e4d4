/**
 * Finding: `GET /checkout/return` was outside protocol's widget ↔ BFF contract, so the wire check let any answer of
 * it through: a field added, dropped or retyped by the BFF would reach the widget's `verifyCheckoutReturn`
 * unnoticed. Now protocol declares its query and answer (`widgetCheckoutReturnQuerySchema`,
 * `widgetCheckoutReturnResponseSchema`), the widget's `CheckoutResult` is pinned to it at the type level
 * (widget `test-node/wire-types.test-d.ts`), and every answer of the route a test receives is checked.
 */
import { signCheckoutReturn, widgetCheckoutReturnQuerySchema } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import { SECRET, call, useStubAndBff } from './helpers.ts';
import { checkWidgetAnswer } from './wire-check.ts';

const BFF = 'http://127.0.0.1:1/bff';
const SALE = {
  checkout_session_id: 'cs_contract0001',
  status: 'paid',
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
} as const;

async function signedQuery(): Promise<URLSearchParams> {
  return signCheckoutReturn(SECRET, { ...SALE, ts: Math.floor(Date.now() / 1000) });
}

describe('GET /checkout/return in the widget contract', () => {
  it("refuses an answer with a field protocol does not declare, a missing field, or a status other than 'paid'", () => {
    const url = `${BFF}/checkout/return?checkout_session_id=cs_1`;
    expect(() => checkWidgetAnswer('GET', url, 200, SALE)).not.toThrow();
    expect(() => checkWidgetAnswer('GET', url, 200, { ...SALE, ts: 1 })).toThrow(
      /fields protocol's widget API does not declare/,
    );
    const { currency: _dropped, ...missing } = SALE;
    expect(() => checkWidgetAnswer('GET', url, 200, missing)).toThrow(/does not declare/);
    expect(() => checkWidgetAnswer('GET', url, 200, { ...SALE, status: 'canceled' })).toThrow(/does not declare/);
    expect(() => checkWidgetAnswer('GET', url, 400, { error: 'nope' })).toThrow(/does not declare/);
  });

  it("reads the lander's signed result from a return URL that carries the shop's own parameters too", async () => {
    const query = await signedQuery();
    query.set('from', 'search');
    const parsed = widgetCheckoutReturnQuerySchema.safeParse(Object.fromEntries(query));
    expect(parsed.success).toBe(true);
    expect(widgetCheckoutReturnQuerySchema.safeParse({ ...Object.fromEntries(query), sig: 'zz' }).success).toBe(false);
  });

  describe('a BFF answering it', () => {
    const suite = useStubAndBff();

    it('answers a verified return, and a forged one, exactly as the contract declares (the wire check in call())', async () => {
      const query = await signedQuery();
      query.set('from', 'search');
      const good = await call(`${suite.bff.url}/checkout/return?${query}`);
      expect({ status: good.status, json: good.json }).toEqual({ status: 200, json: SALE });

      query.set('price_cents', '1');
      const forged = await call(`${suite.bff.url}/checkout/return?${query}`);
      expect({ status: forged.status, code: forged.json.error.code }).toEqual({
        status: 400,
        code: 'validation_error',
      });
    });
  });
});
