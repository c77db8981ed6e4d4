/**
 * Aftermarket listings of the Public API (Public API spec 4.2 `GET /api/market/listings`): cursor or offset paging, prices
 * masked for anonymous callers (Public API spec 5.2). Paging names are the sandbox's choices (docs/spec-decisions.md).
 */
import { z } from 'zod';
import { publicCentsSchema, publicIsoTimeSchema, publicRequest, publicResponse } from './registry.ts';
import { publicTldParamSchema } from './tlds.ts';

/** Page size bounds of `GET /api/market/listings` and `GET /api/domains`. */
export const PUBLIC_LISTINGS_PAGE = { default: 50, max: 200 } as const;

/** The largest `offset` accepted: deeper pages are reached with the cursor. */
export const PUBLIC_LISTINGS_MAX_OFFSET = 100_000;

/** `GET /api/market/listings` query (Public API spec 4.2; cursor and offset names are the sandbox's choice). */
export const publicListingsQuerySchema = publicRequest(
  z.object({
    tld: publicTldParamSchema.optional().describe('Only listings under this TLD.'),
    limit: z.coerce
      .number({ error: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(PUBLIC_LISTINGS_PAGE.max, `limit must be at most ${PUBLIC_LISTINGS_PAGE.max}`)
      .default(PUBLIC_LISTINGS_PAGE.default)
      .describe(`Listings per page, 1–${PUBLIC_LISTINGS_PAGE.max} (default ${PUBLIC_LISTINGS_PAGE.default}).`),
    cursor: z
      .string()
      .min(1, 'cursor must not be blank')
      .max(200, 'cursor is too long: pass page.next_cursor exactly as received')
      .optional()
      .describe(
        'Continue after the previous page: `page.next_cursor` of the previous answer. Stable under concurrent inserts.',
      ),
    offset: z.coerce
      .number({ error: 'offset must be a whole number' })
      .int('offset must be a whole number')
      .min(0, 'offset must be 0 or more')
      .max(
        PUBLIC_LISTINGS_MAX_OFFSET,
        `offset must be at most ${PUBLIC_LISTINGS_MAX_OFFSET}: page deeper with the cursor`,
      )
      .optional()
      .describe('Skip this many listings (offset paging). Cannot be combined with `cursor`.'),
  }),
  'ListingsQuery',
  'Filter and paging of aftermarket listings: follow `page.next_cursor`, or page by `offset`.',
);

/** One aftermarket listing. */
export const publicListingSchema = publicResponse(
  z.object({
    domain: z.string(),
    tld: z.string(),
    listed_at: publicIsoTimeSchema,
    price_cents: publicCentsSchema.nullable().describe('Buy-now price in USD cents; null when masked.'),
    currency: z.literal('USD'),
    price_masked: z.boolean(),
  }),
  'Listing',
  'A domain listed for sale on the marketplace.',
);

/** `GET /api/market/listings` answer. */
export const publicListingsPageSchema = publicResponse(
  z.object({
    listings: z.array(publicListingSchema),
    page: z.object({
      limit: z.number().int(),
      next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
      offset: z.number().int().nullable().describe('The offset of this page when paging by offset, else null.'),
      total: z.number().int().describe('Listings matching the filter right now.'),
    }),
  }),
  'ListingsPage',
  'One page of aftermarket listings, newest first.',
);

export type PublicListing = z.infer<typeof publicListingSchema>;

export type PublicListingsPage = z.infer<typeof publicListingsPageSchema>;

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** One aftermarket listing. */
export const publicListingLenientSchema = z.looseObject({
  domain: z.string(),
  tld: z.string().optional(),
  listed_at: z.string().optional(),
  price_cents: z.number().int().nullable().optional(),
  currency: z.string().optional(),
  price_masked: z.boolean().optional(),
});

/** `GET /api/market/listings`. */
export const publicListingsPageLenientSchema = z.looseObject({
  listings: z.array(publicListingLenientSchema),
  page: z.looseObject({
    next_cursor: z.string().nullable().optional(),
    limit: z.number().int().optional(),
    offset: z.number().int().nullable().optional(),
    total: z.number().int().optional(),
  }),
});

export type PublicListingLenient = z.infer<typeof publicListingLenientSchema>;

export type PublicListingsPageLenient = z.infer<typeof publicListingsPageLenientSchema>;
