/**
 * The widget ↔ BFF API (DESIGN "The widget ↔ BFF API"): what `<dk-domain-search>` and `<dk-buy-button>` send to
 * the partner's BFF and what they get back. The widget imports these as types only.
 */
import { z } from 'zod';
import { centsSchema, currencySchema, domainNameSchema, timestampSchema } from './common.ts';
import { searchQuerySchema } from './discovery.ts';

/** One search result as the widget shows it. */
export const widgetDomainSchema = z.object({
  domain: z.string(),
  available: z.boolean(),
  price_cents: centsSchema.nullable(),
  currency: currencySchema.nullable(),
});
export type WidgetDomain = z.infer<typeof widgetDomainSchema>;

/** `GET /search?q=` input: the query is required and at most 100 characters. */
export const widgetSearchQuerySchema = z.strictObject({ q: searchQuerySchema });

/** `GET /search?q=` answer. */
export const widgetSearchResponseSchema = z.object({
  query: z.string(),
  results: z.array(widgetDomainSchema),
});
export type WidgetSearchResponse = z.infer<typeof widgetSearchResponseSchema>;

/** `POST /checkout` body: only the domain; prices and URLs come from the server side. */
export const widgetCheckoutRequestSchema = z.strictObject({ domain: domainNameSchema });
export type WidgetCheckoutRequest = z.input<typeof widgetCheckoutRequestSchema>;

/** `POST /checkout` answer. */
export const widgetCheckoutResponseSchema = z.object({
  checkout_url: z.string(),
  expires_at: timestampSchema,
});
export type WidgetCheckoutResponse = z.infer<typeof widgetCheckoutResponseSchema>;

/** Error answer of the BFF: `busy` (503) carries `retry_after` in seconds. */
export const widgetErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    retry_after: z.number().int().nonnegative().optional(),
  }),
});
export type WidgetError = z.infer<typeof widgetErrorSchema>;
