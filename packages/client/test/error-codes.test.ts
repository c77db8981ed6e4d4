/**
 * `MarketplaceError.code` is a closed union of the known codes (Partner API spec 7, RFC 6750 3.1 Bearer codes and
 * the client's own), so a misspelt code in a comparison fails `pnpm typecheck` (which covers this file); a code
 * newer than the package arrives as `unknown_code` with the raw value kept in `rawCode`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { MarketplaceError, type MarketplaceErrorCode, errorFromResponse } from '../src/index.ts';

const answer = (status: number, body: unknown) => ({ status, headers: {}, bodyText: JSON.stringify(body) });

describe('MarketplaceError.code', () => {
  it('is one of the known codes, typed as a closed union', () => {
    const error = new MarketplaceError({ status: 422, code: 'quote_expired', message: 'The quote expired.' });
    expectTypeOf(error.code).toEqualTypeOf<MarketplaceErrorCode>();
    expectTypeOf<'quote_expired'>().toExtend<MarketplaceErrorCode>();
    expectTypeOf<'connection_error'>().toExtend<MarketplaceErrorCode>();
    expectTypeOf<'invalid_token'>().toExtend<MarketplaceErrorCode>();
    expectTypeOf<'future_code'>().not.toExtend<MarketplaceErrorCode>();
    // @ts-expect-error a misspelt code in a comparison fails type-checking (fails here if the type loosens)
    expect(error.code === 'quote_expird').toBe(false);
    expect(error.code === 'quote_expired').toBe(true);
  });

  it('turns a code newer than the package into unknown_code and keeps the raw code', () => {
    const error = errorFromResponse(answer(409, { error: { code: 'future_code', message: 'x' } }), 'GET /x', 0);
    expect(error).toMatchObject({ status: 409, code: 'unknown_code', rawCode: 'future_code', message: 'x' });
    expect(error.toJSON()).toMatchObject({ code: 'unknown_code', rawCode: 'future_code' });
  });

  it('keeps a known code as both code and rawCode, and has no rawCode without an error body', () => {
    expect(errorFromResponse(answer(404, { code: 'not_found', message: 'gone' }), 'GET /x', 0)).toMatchObject({
      code: 'not_found',
      rawCode: 'not_found',
    });
    const bare = errorFromResponse({ status: 418, headers: {}, bodyText: '' }, 'GET /x', 0);
    expect(bare).toMatchObject({ code: 'http_error', rawCode: undefined });
  });
});
