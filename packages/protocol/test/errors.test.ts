import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ErrorCode,
  ProtocolError,
  RATE_LIMITS,
  errorBodySchema,
  isErrorCode,
  readErrorBody,
} from '../src/index.ts';

describe('error codes (Partner API spec 7)', () => {
  it('has one named constant for each code of the table, and no other', () => {
    expect(Object.values(ErrorCode).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(ErrorCode.ReplayDetected).toBe('replay_detected');
  });

  it('gives every code of Partner API spec 7 its status', () => {
    expect(Object.fromEntries(Object.entries(ERROR_CODES).map(([c, v]) => [c, v.status]))).toEqual({
      validation_error: 400,
      missing_idempotency_key: 400,
      missing_credentials: 401,
      missing_signature_headers: 401,
      invalid_timestamp: 401,
      invalid_signature: 401,
      replay_detected: 401,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      price_mismatch: 422,
      quote_expired: 422,
      rate_limited: 429,
      internal_error: 500,
    });
    expect(new ProtocolError('replay_detected', 'again').status).toBe(401);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('reads nested and flat error bodies', () => {
    expect(readErrorBody({ error: { code: 'not_found', message: 'No such domain', request_id: 'req_1' } })).toEqual({
      code: 'not_found',
      message: 'No such domain',
      requestId: 'req_1',
    });
    expect(readErrorBody({ code: 'rate_limited', message: 'Slow down' })).toEqual({
      code: 'rate_limited',
      message: 'Slow down',
    });
    expect(readErrorBody({ error: 'boom' })).toBeUndefined();
    expect(readErrorBody('nope')).toBeUndefined();
    expect(errorBodySchema.safeParse({ error: { code: 'x', message: 'y', extra: 1 } }).success).toBe(true);
  });

  it('holds the section 8 budgets', () => {
    expect(RATE_LIMITS.search.limit).toBe(60);
    expect(RATE_LIMITS.write.limit).toBe(20);
    expect(RATE_LIMITS.reporting.limit).toBe(30);
  });
});
