import { describe, expect, it } from 'vitest';
import { checkWidgetAnswer } from './wire-check.ts';

const BFF = 'http://127.0.0.1:1/bff';
const QUOTE = {
  quote_id: 'q_1',
  domain: 'coffeehouse.com',
  price_cents: 250000,
  currency: 'USD',
  expires_at: '2030-01-01T12:10:00Z',
};

describe('the wire check of BFF answers', () => {
  it("accepts an answer that is exactly protocol's schema", () => {
    expect(() => checkWidgetAnswer('POST', `${BFF}/quotes`, 201, QUOTE)).not.toThrow();
    expect(() =>
      checkWidgetAnswer('POST', `${BFF}/quotes`, 409, { error: { code: 'conflict', message: 'sold' } }),
    ).not.toThrow();
  });

  it('refuses a missing or mistyped field, and a field protocol does not declare', () => {
    const { expires_at: _dropped, ...missing } = QUOTE;
    expect(() => checkWidgetAnswer('POST', `${BFF}/quotes`, 201, missing)).toThrow(/does not declare/);
    expect(() => checkWidgetAnswer('POST', `${BFF}/quotes`, 201, { ...QUOTE, price_cents: '2500' })).toThrow(
      /does not declare/,
    );
    expect(() => checkWidgetAnswer('POST', `${BFF}/quotes`, 201, { ...QUOTE, secret: 'x' })).toThrow(
      /fields protocol's widget API does not declare/,
    );
    expect(() => checkWidgetAnswer('GET', `${BFF}/orders/o_1`, 404, { code: 'not_found' })).toThrow();
  });

  it("leaves other routes and the marketplace's own paths alone", () => {
    expect(() => checkWidgetAnswer('GET', `${BFF}/healthz`, 200, { ok: true })).not.toThrow();
    expect(() => checkWidgetAnswer('GET', 'http://127.0.0.1:1/api/partner/v1/domains/a.com', 200, {})).not.toThrow();
  });
});
