/**
 * `MarketplaceError.code` is typed with the known codes (Partner API spec 7 and the client's own, offered by editors) while still
 * accepting a newer code (checked by `pnpm typecheck`, which covers this file).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { MarketplaceError, type MarketplaceErrorCode } from '../src/index.ts';

describe('MarketplaceError.code', () => {
  it('is one of the known codes, or a newer string', () => {
    const error = new MarketplaceError({ status: 422, code: 'quote_expired', message: 'The quote expired.' });
    expectTypeOf(error.code).toEqualTypeOf<MarketplaceErrorCode>();
    expectTypeOf<'quote_expired'>().toExtend<MarketplaceErrorCode>();
    expectTypeOf<'connection_error'>().toExtend<MarketplaceErrorCode>();
    // A newer code than this package knows is still accepted at run time.
    expect(new MarketplaceError({ status: 400, code: 'future_code', message: 'x' }).code).toBe('future_code');
    expect(error.code === 'quote_expired').toBe(true);
  });
});
