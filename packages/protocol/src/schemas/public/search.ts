/**
 * Domain search of the Public API (Public API spec 4.2 `POST /api/domain/search`): a domain or a label, answered with its
 * availability and its alternate-TLD siblings; marketplace prices masked for anonymous callers (Public API spec 5.2). The spec
 * does not show these bodies: field names are the sandbox's choices (docs/spec-decisions.md).
 */
import { z } from 'zod';
import { publicCentsSchema, publicRequest, publicResponse } from './registry.ts';

/** A label (`coffee`) or a second-level domain (`coffee.io`), as domain search takes it. */
export const PUBLIC_SEARCH_QUERY_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z][a-z0-9-]{0,23})?$/;

/** `POST /api/domain/search` body (Public API spec 4.2). */
export const publicDomainSearchRequestSchema = publicRequest(
  z.object({
    q: z
      .string({ error: 'q is required: a domain such as "coffee.io" or a label such as "coffee"' })
      .trim()
      .toLowerCase()
      .min(1, 'q must not be blank: send a domain such as "coffee.io" or a label such as "coffee"')
      .max(253, 'q must be at most 253 characters')
      .regex(
        PUBLIC_SEARCH_QUERY_RE,
        'q must be a label such as "coffee" or a domain such as "coffee.io" (letters, digits and inner hyphens; one dot before the TLD)',
      )
      .describe('A label (`coffee`) or a domain (`coffee.io`). Case-insensitive.'),
  }),
  'DomainSearchRequest',
  'A domain or a label to check, with its alternate-TLD siblings.',
);

/** A marketplace (aftermarket) price: masked (`price_cents: null`, `price_masked: true`) for anonymous callers. */
export const publicMarketPriceSchema = publicResponse(
  z.object({
    price_cents: publicCentsSchema.nullable().describe('Buy-now price in USD cents; null when masked.'),
    currency: z.literal('USD'),
    price_masked: z.boolean().describe('True when the price is hidden: sign in (scope pricing:read) to see it.'),
  }),
  'MarketPrice',
  'A marketplace buy-now price, masked for anonymous callers (Public API spec 5.2).',
);

/** A registry price of a TLD operation (never masked: registration prices are public). */
export const publicRegistrationPriceSchema = publicResponse(
  z.object({
    price_cents: publicCentsSchema.describe('USD cents for the period.'),
    currency: z.literal('USD'),
    period_years: z.number().int().describe('Years the registration covers.'),
  }),
  'RegistrationPrice',
  'The price to register the domain at its registry, for its minimum term.',
);

/** One domain of a search answer. */
export const publicDomainResultSchema = publicResponse(
  z.object({
    domain: z.string(),
    tld: z.string(),
    status: z
      .enum(['available', 'for_sale', 'registered'])
      .describe(
        '`available`: can be registered now; `for_sale`: registered and listed on the marketplace (buy now); `registered`: taken.',
      ),
    available: z
      .boolean()
      .describe('True when the domain can be had now: registered (`available`) or bought (`for_sale`).'),
    registration: publicRegistrationPriceSchema.nullable().describe('Set when `status` is `available`.'),
    listing: publicMarketPriceSchema.nullable().describe('Set when `status` is `for_sale`.'),
  }),
  'DomainResult',
  'Availability and price of one domain.',
);

/** `POST /api/domain/search` answer. */
export const publicDomainSearchResponseSchema = publicResponse(
  z.object({
    query: z.string().describe('The query as understood (trimmed, lowercased).'),
    label: z.string().describe('The second-level label searched for.'),
    domain: publicDomainResultSchema
      .nullable()
      .describe('The exact domain asked for; null when the query was a bare label.'),
    siblings: z
      .array(publicDomainResultSchema)
      .describe('The same label under the other TLDs the service knows, most popular first.'),
    prices_masked: z.boolean().describe('True when marketplace prices are masked (anonymous caller).'),
  }),
  'DomainSearchResponse',
  'Availability of a domain with its alternate-TLD siblings.',
);

export type PublicDomainSearchResponse = z.infer<typeof publicDomainSearchResponseSchema>;

export type PublicDomainResult = z.infer<typeof publicDomainResultSchema>;

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** A marketplace buy-now price: `price_cents` is null when masked (anonymous caller, Public API spec 5.2). */
export const publicMarketPriceLenientSchema = z.looseObject({
  price_cents: z.number().int().nullable(),
  currency: z.string(),
  price_masked: z.boolean(),
});

/** A registry price for the minimum term. */
export const publicRegistrationPriceLenientSchema = z.looseObject({
  price_cents: z.number().int(),
  currency: z.string(),
  period_years: z.number().int().nullable().optional(),
});

/** One domain of a search answer. */
export const publicDomainResultLenientSchema = z.looseObject({
  domain: z.string(),
  tld: z.string(),
  /** `available`, `for_sale` or `registered` (kept open: the real service may add states). */
  status: z.string(),
  available: z.boolean(),
  registration: publicRegistrationPriceLenientSchema.nullable().optional(),
  listing: publicMarketPriceLenientSchema.nullable().optional(),
});

/** `POST /api/domain/search`. */
export const publicDomainSearchResponseLenientSchema = z.looseObject({
  query: z.string(),
  label: z.string(),
  domain: publicDomainResultLenientSchema.nullable(),
  siblings: z.array(publicDomainResultLenientSchema),
  prices_masked: z.boolean(),
});

export type PublicMarketPriceLenient = z.infer<typeof publicMarketPriceLenientSchema>;

export type PublicDomainResultLenient = z.infer<typeof publicDomainResultLenientSchema>;

export type PublicDomainSearchResponseLenient = z.infer<typeof publicDomainSearchResponseLenientSchema>;
