/**
 * The zod schemas of the Public API (spec 4.2, 2.8) and its OAuth endpoints (spec 5.2): the handlers parse requests
 * and build responses with them, and `GET /openapi.json` is generated from the same schemas (see `openapi.ts`), so
 * the document and the behaviour cannot drift. Field names the spec does not show are the sandbox's choices
 * (docs/spec-decisions.md).
 *
 * Request schemas are registered in {@link requestSchemas} (rendered with their input side), response schemas in
 * {@link responseSchemas} (output side); each with the component name it has in the OpenAPI document.
 */
import { BATCH_MAX_OPERATIONS, BULK_MAX_DOMAINS, domainNameSchema } from '@domainkit/protocol';
import { z } from 'zod';
import { TLD_OPERATIONS } from './tlds.ts';

/** Metadata of a registered schema: its OpenAPI component name and description. */
export interface SchemaMeta {
  readonly id: string;
  readonly description?: string;
}

/** Request bodies and query objects, by component name. */
export const requestSchemas = z.registry<SchemaMeta>();
/** Response bodies, by component name. */
export const responseSchemas = z.registry<SchemaMeta>();

/** The description of each registered schema, by component name. */
export const schemaDescriptions = new Map<string, string>();

function request<S extends z.ZodType>(schema: S, id: string, description: string): S {
  requestSchemas.add(schema as z.ZodType, { id, description });
  schemaDescriptions.set(id, description);
  return schema;
}

function response<S extends z.ZodType>(schema: S, id: string, description: string): S {
  responseSchemas.add(schema as z.ZodType, { id, description });
  schemaDescriptions.set(id, description);
  return schema;
}

const isoTime = z.iso.datetime({ offset: false });
const cents = z.number().int().nonnegative();

/** A label (`coffee`) or a second-level domain (`coffee.io`), as domain search takes it. */
export const QUERY_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z][a-z0-9-]{0,23})?$/;

// ---------------------------------------------------------------------------------------------------- requests

/** `POST /api/domain/search` body (spec 4.2). */
export const domainSearchRequestSchema = request(
  z.object({
    q: z
      .string({ error: 'q is required: a domain such as "coffee.io" or a label such as "coffee"' })
      .trim()
      .toLowerCase()
      .min(1, 'q must not be blank: send a domain such as "coffee.io" or a label such as "coffee"')
      .max(253, 'q must be at most 253 characters')
      .regex(
        QUERY_RE,
        'q must be a label such as "coffee" or a domain such as "coffee.io" (letters, digits and inner hyphens; one dot before the TLD)',
      )
      .describe('A label (`coffee`) or a domain (`coffee.io`). Case-insensitive.'),
  }),
  'DomainSearchRequest',
  'A domain or a label to check, with its alternate-TLD siblings.',
);

/** `POST /api/tools/whois` body (spec 4.2; the field name is the sandbox's choice, as in batch `whois_lookup`). */
export const whoisRequestSchema = request(
  z.object({ domain: domainNameSchema.describe('The domain to look up, such as `coffee.io`.') }),
  'WhoisRequest',
  'The domain to look up.',
);

const tldOperationSchema = z.enum(TLD_OPERATIONS, { error: `op must be one of ${TLD_OPERATIONS.join(', ')}` });

const tldParam = z
  .string({ error: 'tld is required, such as "com" (without the dot)' })
  .trim()
  .toLowerCase()
  .regex(/^\.?[a-z][a-z0-9-]{0,23}$/, 'tld must be a TLD such as "com" or ".com"')
  .describe('A TLD such as `com` (a leading dot is accepted).');

/** `GET /api/pricing/tld` query (spec 4.2; the operation selector is named `op`, as in batch `tld_registration_price`). */
export const tldPriceQuerySchema = request(
  z.object({
    tld: tldParam,
    op: tldOperationSchema
      .default('register')
      .describe('The operation to price: `register` (default), `renew`, `transfer` or `restore`.'),
  }),
  'TldPriceQuery',
  'The TLD and the operation to price.',
);

/** Page size bounds of `GET /api/market/listings` and `GET /api/domains`. */
export const LISTINGS_PAGE = { default: 50, max: 200 } as const;
/** The largest `offset` accepted: deeper pages are reached with the cursor. */
export const MAX_OFFSET = 100_000;

/** `GET /api/market/listings` query (spec 4.2; cursor and offset names are the sandbox's choice). */
export const listingsQuerySchema = request(
  z.object({
    tld: tldParam.optional().describe('Only listings under this TLD.'),
    limit: z.coerce
      .number({ error: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(LISTINGS_PAGE.max, `limit must be at most ${LISTINGS_PAGE.max}`)
      .default(LISTINGS_PAGE.default)
      .describe(`Listings per page, 1–${LISTINGS_PAGE.max} (default ${LISTINGS_PAGE.default}).`),
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
      .max(MAX_OFFSET, `offset must be at most ${MAX_OFFSET}: page deeper with the cursor`)
      .optional()
      .describe('Skip this many listings (offset paging). Cannot be combined with `cursor`.'),
  }),
  'ListingsQuery',
  'Filter and paging of aftermarket listings: follow `page.next_cursor`, or page by `offset`.',
);

/** `GET /api/domains` query. */
export const ownedDomainsQuerySchema = request(
  z.object({
    limit: listingsQuerySchema.shape.limit,
    cursor: z.string().min(1).max(200).optional().describe('`next_cursor` of the previous page.'),
  }),
  'OwnedDomainsQuery',
  'Paging of the signed-in user\u2019s domains.',
);

/** The operation names of `POST /api/batch` (spec 4.2). */
export const BATCH_OPS = ['search_domain', 'tld_registration_price', 'whois_lookup'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

/** One operation of a batch. `op` and `params` are checked per operation, so one bad operation fails alone. */
export const batchOperationSchema = z.object({
  id: z
    .string({ error: 'each operation needs an id: a string of your choice that ties the result to it' })
    .min(1, 'id must not be empty')
    .max(100, 'id must be at most 100 characters')
    .describe('Your identifier for the operation; the result carries it back.'),
  op: z
    .string({ error: `op must be one of ${BATCH_OPS.join(', ')}` })
    .describe(`The operation: ${BATCH_OPS.join(', ')} (see GET /api/batch).`),
  params: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The operation\u2019s parameters (see GET /api/batch).'),
});

/** `POST /api/batch` body (spec 4.2, 8: at most 20 operations). */
export const batchRequestSchema = request(
  z.object({
    operations: z
      .array(batchOperationSchema)
      .min(1, 'operations must hold at least one operation')
      .max(
        BATCH_MAX_OPERATIONS,
        `a batch holds at most ${BATCH_MAX_OPERATIONS} operations: split it into batches of ${BATCH_MAX_OPERATIONS}`,
      ),
  }),
  'BatchRequest',
  `Up to ${BATCH_MAX_OPERATIONS} read operations, each with a caller-chosen id.`,
);

/** Params of batch op `search_domain`. */
export const searchDomainParamsSchema = domainSearchRequestSchema;
/** Params of batch op `tld_registration_price`: `tld` and `op` (spec 4.2). */
export const tldPriceParamsSchema = z.object({ tld: tldParam, op: tldOperationSchema.default('register') });
/** Params of batch op `whois_lookup`: `domain` (spec 4.2). */
export const whoisParamsSchema = whoisRequestSchema;

/** Bulk operations on owned domains (spec 4.2 leaves `{op}` open: the sandbox's choice). */
export const BULK_OPS = [
  'lock',
  'unlock',
  'renew',
  'set_nameservers',
  'enable_auto_renew',
  'disable_auto_renew',
] as const;
export type BulkOp = (typeof BULK_OPS)[number];

const hostnameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,23}$/,
    'each nameserver must be a host name such as "ns1.example.net"',
  );

/** `POST /api/domains/bulk/{op}` body (spec 4.2, 8: at most 1,000 owned domains). */
export const bulkRequestSchema = request(
  z.object({
    domains: z
      .array(
        z
          .string({ error: 'each entry of domains must be a string' })
          .max(253, 'each domain must be at most 253 characters'),
        {
          error: 'domains is required: an array of the domain names to act on',
        },
      )
      .min(1, 'domains must hold at least one domain')
      .max(
        BULK_MAX_DOMAINS,
        `a bulk request holds at most ${BULK_MAX_DOMAINS.toLocaleString('en-US')} domains: split the list`,
      )
      .describe(`Up to ${BULK_MAX_DOMAINS} domains you own, each at most once.`),
    years: z
      .number()
      .int('years must be a whole number')
      .min(1, 'years must be at least 1')
      .max(10, 'years must be at most 10')
      .optional()
      .describe('`renew` only: years to add (default 1).'),
    nameservers: z
      .array(hostnameSchema)
      .min(2, 'set at least 2 nameservers')
      .max(13, 'set at most 13 nameservers')
      .optional()
      .describe('`set_nameservers` only: 2–13 host names.'),
  }),
  'BulkRequest',
  'The owned domains to act on, and the operation\u2019s parameters.',
);

// --------------------------------------------------------------------------------------------------- responses

/** The error body of the Public API (the project's shape, docs/spec-decisions.md). */
export const errorBodySchema = response(
  z.object({
    error: z.object({
      code: z
        .string()
        .describe(
          'Stable code: validation_error, unauthorized, invalid_token, insufficient_scope, not_found, rate_limited, internal_error.',
        ),
      message: z.string().describe('What went wrong and how to fix it.'),
      request_id: z.string(),
    }),
  }),
  'Error',
  'An error answer.',
);

/** A marketplace (aftermarket) price: masked (`price_cents: null`, `price_masked: true`) for anonymous callers. */
export const marketPriceSchema = response(
  z.object({
    price_cents: cents.nullable().describe('Buy-now price in USD cents; null when masked.'),
    currency: z.literal('USD'),
    price_masked: z.boolean().describe('True when the price is hidden: sign in (scope pricing:read) to see it.'),
  }),
  'MarketPrice',
  'A marketplace buy-now price, masked for anonymous callers (spec 5.2).',
);

/** A registry price of a TLD operation (never masked: registration prices are public). */
export const registrationPriceSchema = response(
  z.object({
    price_cents: cents.describe('USD cents for the period.'),
    currency: z.literal('USD'),
    period_years: z.number().int().describe('Years the registration covers.'),
  }),
  'RegistrationPrice',
  'The price to register the domain at its registry, for its minimum term.',
);

/** One domain of a search answer. */
export const domainResultSchema = response(
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
    registration: registrationPriceSchema.nullable().describe('Set when `status` is `available`.'),
    listing: marketPriceSchema.nullable().describe('Set when `status` is `for_sale`.'),
  }),
  'DomainResult',
  'Availability and price of one domain.',
);

/** `POST /api/domain/search` answer. */
export const domainSearchResponseSchema = response(
  z.object({
    query: z.string().describe('The query as understood (trimmed, lowercased).'),
    label: z.string().describe('The second-level label searched for.'),
    domain: domainResultSchema.nullable().describe('The exact domain asked for; null when the query was a bare label.'),
    siblings: z
      .array(domainResultSchema)
      .describe('The same label under the other TLDs the service knows, most popular first.'),
    prices_masked: z.boolean().describe('True when marketplace prices are masked (anonymous caller).'),
  }),
  'DomainSearchResponse',
  'Availability of a domain with its alternate-TLD siblings.',
);

const rdapEntitySchema = z.object({
  name: z.string().nullable(),
  organization: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2.'),
});

/** `POST /api/tools/whois` answer: WHOIS/RDAP-shaped (RFC 9083 terms), synthetic and deterministic. */
export const whoisRecordSchema = response(
  z.object({
    domain: z.string(),
    registered: z.boolean(),
    status: z
      .array(z.string())
      .describe('RDAP status values (RFC 9083 10.2.2), such as `active`, `client transfer prohibited`.'),
    registrar: z.object({ name: z.string(), iana_id: z.number().int(), url: z.string() }).nullable(),
    registrant: rdapEntitySchema.nullable(),
    dates: z
      .object({ registered: isoTime.nullable(), updated: isoTime.nullable(), expires: isoTime.nullable() })
      .describe('RDAP events `registration`, `last changed`, `expiration`.'),
    nameservers: z.array(z.string()),
    dnssec: z.boolean(),
    source: z.literal('sandbox').describe('The record is synthetic: made by the sandbox, deterministic per domain.'),
  }),
  'WhoisRecord',
  'WHOIS/RDAP details of a domain: registrar, registrant, dates, nameservers.',
);

/** `GET /api/pricing/tld` answer. */
export const tldPriceSchema = response(
  z.object({
    tld: z.string(),
    op: tldOperationSchema,
    price_cents: cents.describe('USD cents for the operation (for its minimum term when the operation adds years).'),
    currency: z.literal('USD'),
    period_years: z.number().int().nullable().describe('Years the operation adds; null for `restore`.'),
  }),
  'TldPrice',
  'The current USD price of one operation on a TLD.',
);

/** `GET /api/tlds/{tld}/metadata` answer. */
export const tldMetadataSchema = response(
  z.object({
    tld: z.string(),
    type: z.enum(['gTLD', 'ccTLD']),
    registry: z.string(),
    term: z
      .object({ min_years: z.number().int(), max_years: z.number().int() })
      .describe('Registration term range, in years.'),
    organization: z.object({
      allowed: z.boolean().describe('An organisation may be the registrant.'),
      local_presence_required: z.boolean(),
      presence_region: z.string().nullable(),
      notes: z.string(),
    }),
    nameservers: z.object({
      min: z.number().int(),
      max: z.number().int(),
      dnssec: z.boolean(),
      predelegation_check: z
        .boolean()
        .describe('The registry checks that the nameservers answer for the zone before delegating it.'),
    }),
    https_required: z.boolean().describe('On the HSTS preload list.'),
    idn: z.boolean().describe('Internationalised labels accepted.'),
    operations: z.array(tldOperationSchema),
  }),
  'TldMetadata',
  'Term range, organisation rules and nameserver rules of a TLD.',
);

/** One aftermarket listing. */
export const listingSchema = response(
  z.object({
    domain: z.string(),
    tld: z.string(),
    listed_at: isoTime,
    price_cents: cents.nullable().describe('Buy-now price in USD cents; null when masked.'),
    currency: z.literal('USD'),
    price_masked: z.boolean(),
  }),
  'Listing',
  'A domain listed for sale on the marketplace.',
);

/** `GET /api/market/listings` answer. */
export const listingsPageSchema = response(
  z.object({
    listings: z.array(listingSchema),
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

/** The error of one failed batch operation or bulk item. */
export const itemErrorSchema = response(
  z.object({ code: z.string(), message: z.string() }),
  'ItemError',
  'Why one operation or item failed.',
);

/** One result of a batch. */
export const batchResultSchema = response(
  z.object({
    id: z.string(),
    op: z.string(),
    ok: z.boolean(),
    status: z.number().int().describe('The HTTP status the operation would have answered alone.'),
    result: z
      .union([domainSearchResponseSchema, tldPriceSchema, whoisRecordSchema])
      .optional()
      .describe('Set when ok.'),
    error: itemErrorSchema.optional().describe('Set when not ok.'),
  }),
  'BatchResult',
  'The outcome of one batch operation, tied to it by id.',
);

/** `POST /api/batch` answer. */
export const batchResponseSchema = response(
  z.object({ results: z.array(batchResultSchema) }),
  'BatchResponse',
  'One result per operation, in request order.',
);

/** `GET /api/batch` answer. */
export const batchCatalogueSchema = response(
  z.object({
    max_operations: z.number().int(),
    operations: z.array(
      z.object({
        op: z.enum(BATCH_OPS),
        description: z.string(),
        params: z.record(z.string(), z.unknown()).describe('JSON Schema of the operation\u2019s params.'),
      }),
    ),
  }),
  'BatchCatalogue',
  'The operations POST /api/batch accepts, with their params.',
);

/** A domain owned by the signed-in user. */
export const ownedDomainSchema = response(
  z.object({
    domain: z.string(),
    tld: z.string(),
    locked: z.boolean(),
    auto_renew: z.boolean(),
    nameservers: z.array(z.string()),
    registered_at: isoTime,
    expires_at: isoTime,
  }),
  'OwnedDomain',
  'A registration the signed-in user owns.',
);

/** `GET /api/domains` answer. */
export const ownedDomainsPageSchema = response(
  z.object({ domains: z.array(ownedDomainSchema), next_cursor: z.string().nullable() }),
  'OwnedDomainsPage',
  'The signed-in user\u2019s domains, by name.',
);

/** `POST /api/domains/bulk/{op}` answer. */
export const bulkResponseSchema = response(
  z.object({
    op: z.enum(BULK_OPS),
    results: z.array(
      z.object({
        domain: z.string(),
        ok: z.boolean(),
        registration: ownedDomainSchema.optional().describe('The registration after the operation, when ok.'),
        charged_cents: cents.optional().describe('`renew`: what the renewal cost, in USD cents.'),
        error: itemErrorSchema
          .optional()
          .describe('Why this domain was refused: not_owned, invalid_domain, term_exceeded.'),
      }),
    ),
    summary: z.object({ requested: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }),
  }),
  'BulkResponse',
  'One result per requested domain, in request order.',
);

/** `GET /api` answer for a valid token. */
export const apiIndexSchema = response(
  z.object({
    resource: z.string(),
    openapi_url: z.string(),
    auth_url: z.string(),
    token: z.object({ subject: z.string(), client_id: z.string(), scope: z.string(), expires_at: isoTime }),
  }),
  'ApiIndex',
  'The Public API index, with what the access token grants.',
);

// ------------------------------------------------------------------------------------------------------- OAuth

/** An OAuth error body (RFC 6749 5.2, RFC 7591 3.2.2): the OAuth endpoints answer this shape, as OAuth clients expect. */
export const oauthErrorSchema = response(
  z.object({ error: z.string(), error_description: z.string().optional() }),
  'OAuthError',
  'An OAuth 2.1 / RFC 7591 error.',
);

/** RFC 7591 client registration request (public clients only). */
export const clientRegistrationRequestSchema = request(
  z.object({
    redirect_uris: z
      .array(z.string())
      .min(1)
      .max(10)
      .describe(
        'Exact redirect URIs: https, http on a loopback address (any port), or a private-use scheme (RFC 8252).',
      ),
    client_name: z.string().max(100).optional(),
    client_uri: z.string().max(500).optional(),
    token_endpoint_auth_method: z.literal('none').optional().describe('Only `none`: public clients (spec 5.2).'),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
    response_types: z.array(z.literal('code')).optional(),
    scope: z.string().optional(),
    software_id: z.string().max(200).optional(),
    software_version: z.string().max(100).optional(),
  }),
  'ClientRegistrationRequest',
  'RFC 7591 client metadata. Unknown fields are ignored.',
);

/** RFC 7591 client information response. */
export const clientInformationSchema = response(
  z.object({
    client_id: z.string(),
    client_id_issued_at: z.number().int(),
    client_name: z.string().optional(),
    client_uri: z.string().optional(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    scope: z.string(),
    software_id: z.string().optional(),
    software_version: z.string().optional(),
  }),
  'ClientInformation',
  'The registered client (no secret: public client).',
);

/** Token endpoint request (form fields, RFC 6749 4.1.3 and 6). */
export const tokenRequestSchema = request(
  z.object({
    grant_type: z.enum(['authorization_code', 'refresh_token']),
    client_id: z.string(),
    code: z.string().optional().describe('authorization_code grant.'),
    code_verifier: z.string().optional().describe('authorization_code grant: the PKCE verifier (RFC 7636).'),
    redirect_uri: z
      .string()
      .optional()
      .describe('authorization_code grant: if sent, must equal the one of the authorization request.'),
    refresh_token: z.string().optional().describe('refresh_token grant.'),
    scope: z.string().optional().describe('refresh_token grant: a narrower scope (never wider).'),
    resource: z.string().optional().describe('RFC 8707 resource indicator.'),
  }),
  'TokenRequest',
  'application/x-www-form-urlencoded token request.',
);

/** Revocation request (form fields, RFC 7009 2.1). */
export const revocationRequestSchema = request(
  z.object({
    token: z
      .string()
      .describe('The access or refresh token to revoke. A refresh token revokes every token of its sign-in.'),
    token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
    client_id: z.string(),
  }),
  'RevocationRequest',
  'application/x-www-form-urlencoded revocation request.',
);

/** Token endpoint answer (RFC 6749 5.1). */
export const tokenResponseSchema = response(
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string(),
    scope: z.string(),
  }),
  'TokenResponse',
  'An access token (30 minutes) and a new refresh token (30 days, single use).',
);

/** RFC 8414 authorization server metadata. */
export const authorizationServerMetadataSchema = response(
  z.object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
    service_documentation: z.string(),
  }),
  'AuthorizationServerMetadata',
  'RFC 8414 metadata.',
);

/** RFC 9728 protected resource metadata. */
export const protectedResourceMetadataSchema = response(
  z.object({
    resource: z.string(),
    authorization_servers: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
    resource_documentation: z.string(),
  }),
  'ProtectedResourceMetadata',
  'RFC 9728 metadata.',
);

export type DomainSearchResponse = z.infer<typeof domainSearchResponseSchema>;
export type DomainResult = z.infer<typeof domainResultSchema>;
export type WhoisRecord = z.infer<typeof whoisRecordSchema>;
export type TldPrice = z.infer<typeof tldPriceSchema>;
export type TldMetadata = z.infer<typeof tldMetadataSchema>;
export type Listing = z.infer<typeof listingSchema>;
export type ListingsPage = z.infer<typeof listingsPageSchema>;
export type BatchResult = z.infer<typeof batchResultSchema>;
export type OwnedDomain = z.infer<typeof ownedDomainSchema>;
export type BulkResponse = z.infer<typeof bulkResponseSchema>;
