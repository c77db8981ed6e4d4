/**
 * Discovery resources of the Partner API (Partner API spec 4.1 "Discovery", scope `search`). The spec shows only the
 * `available` flag; the other field names are domainkit's choices (docs/spec-decisions.md). Response schemas keep
 * unknown fields, so a client parses newer answers.
 */
import { z } from 'zod';
import { SEARCH_MAX_RESULTS } from '../limits.ts';
import { centsSchema, currencySchema, domainNameSchema, timestampSchema } from './common.ts';

/** A listed domain as search returns it: `price_cents` is the buy-now price in minor units. */
export const domainSchema = z.looseObject({
  domain: z.string(),
  tld: z.string(),
  available: z.boolean(),
  price_cents: centsSchema,
  currency: currencySchema,
});
export type Domain = z.infer<typeof domainSchema>;

/** `GET /domains/{name}`: one domain with its metadata. */
export const domainDetailSchema = domainSchema.extend({
  status: z.string(),
  words: z.array(z.string()),
  listed_at: timestampSchema,
});
export type DomainDetail = z.infer<typeof domainDetailSchema>;

/** `GET /domains/search?q=`: at most 5 domains, ranked; `next_cursor` is always null (no bulk export). */
export const domainSearchResponseSchema = z.looseObject({
  domains: z.array(domainSchema).max(SEARCH_MAX_RESULTS),
  next_cursor: z.string().nullable().optional(),
});
export type DomainSearchResponse = z.infer<typeof domainSearchResponseSchema>;

/** `GET /availability?domain=`: 200 with `available: false` and null price for an unlisted domain. */
export const availabilitySchema = z.looseObject({
  domain: z.string(),
  available: z.boolean(),
  price_cents: centsSchema.nullable(),
  currency: currencySchema.nullable(),
});
export type Availability = z.infer<typeof availabilitySchema>;

/** `GET /pricing?domain=`: buy-now and floor price; 404 `not_found` when unlisted. */
export const pricingSchema = z.looseObject({
  domain: z.string(),
  price_cents: centsSchema,
  floor_price_cents: centsSchema,
  currency: currencySchema,
});
export type Pricing = z.infer<typeof pricingSchema>;

/** The search query: required, trimmed, 1–100 characters. */
export const searchQuerySchema = z
  .string({ error: 'q is required' })
  .trim()
  .min(1, 'q is required: a word or a domain to search for')
  .max(100, 'q must be at most 100 characters');

/** Query of `GET /domains/search`. */
export const domainSearchParamsSchema = z.strictObject({ q: searchQuerySchema });

/** Query of `GET /availability` and `GET /pricing`. */
export const domainParamsSchema = z.strictObject({ domain: domainNameSchema });

/** Path of `GET /domains/{name}`. */
export const domainPathParamsSchema = z.strictObject({
  name: domainNameSchema.describe('The domain name, e.g. `coffeehouse.com`.'),
});
