/**
 * Response schemas of the Public API (spec 4.2, 2.8), as the client reads them. The spec does not show these
 * bodies: the shapes follow the sandbox's choices (docs/spec-decisions.md), and every object keeps
 * unknown fields (`looseObject`) so a richer answer from the real service still parses.
 */
import { z } from 'zod';

/** A marketplace buy-now price: `price_cents` is null when masked (anonymous caller, spec 5.2). */
export const marketPriceSchema = z.looseObject({
  price_cents: z.number().int().nullable(),
  currency: z.string(),
  price_masked: z.boolean(),
});

/** A registry price for the minimum term. */
export const registrationPriceSchema = z.looseObject({
  price_cents: z.number().int(),
  currency: z.string(),
  period_years: z.number().int().nullable().optional(),
});

/** One domain of a search answer. */
export const domainResultSchema = z.looseObject({
  domain: z.string(),
  tld: z.string(),
  /** `available`, `for_sale` or `registered` (kept open: the real service may add states). */
  status: z.string(),
  available: z.boolean(),
  registration: registrationPriceSchema.nullable().optional(),
  listing: marketPriceSchema.nullable().optional(),
});

/** `POST /api/domain/search`. */
export const domainSearchResultSchema = z.looseObject({
  query: z.string(),
  label: z.string(),
  domain: domainResultSchema.nullable(),
  siblings: z.array(domainResultSchema),
  prices_masked: z.boolean(),
});

/** `POST /api/tools/whois` (RDAP terms). */
export const whoisRecordSchema = z.looseObject({
  domain: z.string(),
  registered: z.boolean(),
  status: z.array(z.string()),
  registrar: z
    .looseObject({
      name: z.string(),
      iana_id: z.number().int().nullable().optional(),
      url: z.string().nullable().optional(),
    })
    .nullable(),
  registrant: z
    .looseObject({ name: z.string().nullable(), organization: z.string().nullable(), country: z.string().nullable() })
    .nullable(),
  dates: z.looseObject({
    registered: z.string().nullable(),
    updated: z.string().nullable(),
    expires: z.string().nullable(),
  }),
  nameservers: z.array(z.string()),
  dnssec: z.boolean().optional(),
});

/** The operations `GET /api/pricing/tld` prices. */
export const TLD_OPERATIONS = ['register', 'renew', 'transfer', 'restore'] as const;
export type TldOperation = (typeof TLD_OPERATIONS)[number];

/** `GET /api/pricing/tld`. */
export const tldPriceSchema = z.looseObject({
  tld: z.string(),
  op: z.string(),
  price_cents: z.number().int(),
  currency: z.string(),
  period_years: z.number().int().nullable().optional(),
});

/** `GET /api/tlds/{tld}/metadata`. */
export const tldMetadataSchema = z.looseObject({
  tld: z.string(),
  type: z.string().optional(),
  registry: z.string().optional(),
  term: z.looseObject({ min_years: z.number().int(), max_years: z.number().int() }),
  organization: z.looseObject({ allowed: z.boolean().optional(), local_presence_required: z.boolean().optional() }),
  nameservers: z.looseObject({ min: z.number().int().optional(), max: z.number().int().optional() }),
});

/** One aftermarket listing. */
export const listingSchema = z.looseObject({
  domain: z.string(),
  tld: z.string().optional(),
  listed_at: z.string().optional(),
  price_cents: z.number().int().nullable().optional(),
  currency: z.string().optional(),
  price_masked: z.boolean().optional(),
});

/** `GET /api/market/listings`. */
export const listingsPageSchema = z.looseObject({
  listings: z.array(listingSchema),
  page: z.looseObject({
    next_cursor: z.string().nullable().optional(),
    limit: z.number().int().optional(),
    offset: z.number().int().nullable().optional(),
    total: z.number().int().optional(),
  }),
});

/** The error of one batch operation or bulk item. */
export const itemErrorSchema = z.looseObject({ code: z.string(), message: z.string() });

/** One result of `POST /api/batch`. */
export const batchResultSchema = z.looseObject({
  id: z.string(),
  op: z.string().optional(),
  ok: z.boolean(),
  status: z.number().int().optional(),
  result: z.unknown().optional(),
  error: itemErrorSchema.optional(),
});

/** `POST /api/batch`. */
export const batchResponseSchema = z.looseObject({ results: z.array(batchResultSchema) });

/** `GET /api/batch`. */
export const batchCatalogueSchema = z.looseObject({
  max_operations: z.number().int().optional(),
  operations: z.array(
    z.looseObject({
      op: z.string(),
      description: z.string().optional(),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

/** A domain owned by the signed-in user. */
export const ownedDomainSchema = z.looseObject({
  domain: z.string(),
  tld: z.string().optional(),
  locked: z.boolean().optional(),
  auto_renew: z.boolean().optional(),
  nameservers: z.array(z.string()).optional(),
  registered_at: z.string().optional(),
  expires_at: z.string().optional(),
});

/** `GET /api/domains`. */
export const ownedDomainsPageSchema = z.looseObject({
  domains: z.array(ownedDomainSchema),
  next_cursor: z.string().nullable().optional(),
});

/** `POST /api/domains/bulk/{op}`. */
export const bulkResponseSchema = z.looseObject({
  op: z.string(),
  results: z.array(
    z.looseObject({
      domain: z.string(),
      ok: z.boolean(),
      registration: ownedDomainSchema.optional(),
      charged_cents: z.number().int().optional(),
      error: itemErrorSchema.optional(),
    }),
  ),
  summary: z
    .looseObject({ requested: z.number().int(), succeeded: z.number().int(), failed: z.number().int() })
    .optional(),
});

/** `GET /api` with a token. */
export const apiIndexSchema = z.looseObject({
  resource: z.string().optional(),
  token: z
    .looseObject({ subject: z.string(), client_id: z.string(), scope: z.string(), expires_at: z.string() })
    .optional(),
});

export type MarketPrice = z.infer<typeof marketPriceSchema>;
export type DomainResult = z.infer<typeof domainResultSchema>;
export type DomainSearchResult = z.infer<typeof domainSearchResultSchema>;
export type WhoisRecord = z.infer<typeof whoisRecordSchema>;
export type TldPrice = z.infer<typeof tldPriceSchema>;
export type TldMetadata = z.infer<typeof tldMetadataSchema>;
export type Listing = z.infer<typeof listingSchema>;
export type ListingsPage = z.infer<typeof listingsPageSchema>;
export type BatchResult = z.infer<typeof batchResultSchema>;
export type BatchCatalogue = z.infer<typeof batchCatalogueSchema>;
export type OwnedDomain = z.infer<typeof ownedDomainSchema>;
export type BulkResult = z.infer<typeof bulkResponseSchema>;
export type ApiIndex = z.infer<typeof apiIndexSchema>;
