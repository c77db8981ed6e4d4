/**
 * Cursor lists (docs/architecture.md "Lists"): `{<plural resource>: [...], next_cursor: string | null}`, paged with `cursor`
 * and `limit` (Partner API spec 4.1 shows neither name for `GET /orders`: docs/spec-decisions.md). `GET /events` keeps the
 * spec's own `after_id` and `limit`.
 */
import { z } from 'zod';
import { policyText } from './input-policy.ts';

/** Default page size of every cursor list. */
export const DEFAULT_PAGE_LIMIT = 50;
/** Largest page size any list accepts; a larger `limit` is a 400 `validation_error`. */
export const MAX_PAGE_LIMIT = 100;

/** The `limit` query parameter: an integer 1–100 given as a string; default 50. */
export const pageLimitSchema = z.coerce
  .number({ error: 'limit must be an integer from 1 to 100' })
  .int('limit must be an integer from 1 to 100')
  .min(1, 'limit must be an integer from 1 to 100')
  .max(MAX_PAGE_LIMIT, `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`)
  .default(DEFAULT_PAGE_LIMIT);

/** The `cursor` query parameter: an opaque string from a previous page's `next_cursor`. */
export const cursorSchema = policyText(z.string().min(1).max(200));

/** The query of a list endpoint with cursor paging only (`GET /links`, `GET /brokerage` without a filter). */
export const pageParamsSchema = z.strictObject({ cursor: cursorSchema.optional(), limit: pageLimitSchema });

/**
 * A list answer holding `key` items; `next_cursor` is null on the last page. Unknown fields are kept.
 * @param key - the plural resource name, such as `orders`.
 */
export function listSchema<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.looseObject({ [key]: z.array(item), next_cursor: z.string().nullable().optional() } as {
    [P in K]: z.ZodArray<T>;
  } & {
    next_cursor: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  });
}
