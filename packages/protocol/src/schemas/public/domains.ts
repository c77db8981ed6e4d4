/**
 * The signed-in user's domains in the Public API (Public API spec 4.2 `GET /api/domains`, `POST /api/domains/bulk/{op}`,
 * Partner API spec 8: at most 1,000 domains). The bulk operations are the sandbox's choice (docs/spec-decisions.md).
 */
import { z } from 'zod';
import { BULK_MAX_DOMAINS } from '../../limits.ts';
import { publicItemErrorLenientSchema, publicItemErrorSchema } from './errors.ts';
import { publicListingsQuerySchema } from './listings.ts';
import { publicCentsSchema, publicIsoTimeSchema, publicRequest, publicResponse } from './registry.ts';

/** `GET /api/domains` query. */
export const publicOwnedDomainsQuerySchema = publicRequest(
  z.object({
    limit: publicListingsQuerySchema.shape.limit,
    cursor: z.string().min(1).max(200).optional().describe('`next_cursor` of the previous page.'),
  }),
  'OwnedDomainsQuery',
  'Paging of the signed-in user\u2019s domains.',
);

/** Bulk operations on owned domains (Public API spec 4.2 leaves `{op}` open: the sandbox's choice). */
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

/** `POST /api/domains/bulk/{op}` body (Public API spec 4.2, 8: at most 1,000 owned domains). */
export const publicBulkRequestSchema = publicRequest(
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

/** A domain owned by the signed-in user. */
export const publicOwnedDomainSchema = publicResponse(
  z.object({
    domain: z.string(),
    tld: z.string(),
    locked: z.boolean(),
    auto_renew: z.boolean(),
    nameservers: z.array(z.string()),
    registered_at: publicIsoTimeSchema,
    expires_at: publicIsoTimeSchema,
  }),
  'OwnedDomain',
  'A registration the signed-in user owns.',
);

/** `GET /api/domains` answer. */
export const publicOwnedDomainsPageSchema = publicResponse(
  z.object({ domains: z.array(publicOwnedDomainSchema), next_cursor: z.string().nullable() }),
  'OwnedDomainsPage',
  'The signed-in user\u2019s domains, by name.',
);

/** `POST /api/domains/bulk/{op}` answer. */
export const publicBulkResponseSchema = publicResponse(
  z.object({
    op: z.enum(BULK_OPS),
    results: z.array(
      z.object({
        domain: z.string(),
        ok: z.boolean(),
        registration: publicOwnedDomainSchema.optional().describe('The registration after the operation, when ok.'),
        charged_cents: publicCentsSchema.optional().describe('`renew`: what the renewal cost, in USD cents.'),
        error: publicItemErrorSchema
          .optional()
          .describe('Why this domain was refused: not_owned, invalid_domain, term_exceeded.'),
      }),
    ),
    summary: z.object({ requested: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }),
  }),
  'BulkResponse',
  'One result per requested domain, in request order.',
);

export type PublicOwnedDomain = z.infer<typeof publicOwnedDomainSchema>;

export type PublicBulkResponse = z.infer<typeof publicBulkResponseSchema>;

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** A domain owned by the signed-in user. */
export const publicOwnedDomainLenientSchema = z.looseObject({
  domain: z.string(),
  tld: z.string().optional(),
  locked: z.boolean().optional(),
  auto_renew: z.boolean().optional(),
  nameservers: z.array(z.string()).optional(),
  registered_at: z.string().optional(),
  expires_at: z.string().optional(),
});

/** `GET /api/domains`. */
export const publicOwnedDomainsPageLenientSchema = z.looseObject({
  domains: z.array(publicOwnedDomainLenientSchema),
  next_cursor: z.string().nullable().optional(),
});

/** `POST /api/domains/bulk/{op}`. */
export const publicBulkResponseLenientSchema = z.looseObject({
  op: z.string(),
  results: z.array(
    z.looseObject({
      domain: z.string(),
      ok: z.boolean(),
      registration: publicOwnedDomainLenientSchema.optional(),
      charged_cents: z.number().int().optional(),
      error: publicItemErrorLenientSchema.optional(),
    }),
  ),
  summary: z
    .looseObject({ requested: z.number().int(), succeeded: z.number().int(), failed: z.number().int() })
    .optional(),
});

export type PublicOwnedDomainLenient = z.infer<typeof publicOwnedDomainLenientSchema>;

export type PublicBulkResponseLenient = z.infer<typeof publicBulkResponseLenientSchema>;
