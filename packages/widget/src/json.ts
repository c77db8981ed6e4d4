/** Checks of values read from JSON answers, shared by `api.ts` and `api-errors.ts` (which loads apart from it). */

/** A JSON object. */
export type Json = Record<string, unknown>;

/** Whether `value` is a JSON object (not `null`, not an array). */
export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `value` is an amount in minor units: a safe integer ≥ 0. */
export const isCents = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
