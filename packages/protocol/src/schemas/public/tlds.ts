/**
 * TLD pricing and metadata of the Public API (Public API spec 4.2 `GET /api/pricing/tld`, `GET /api/tlds/{tld}/metadata`).
 */
import { z } from 'zod';
import { publicCentsSchema, publicRequest, publicResponse } from './registry.ts';

/** The operations `GET /api/pricing/tld` prices (Public API spec 4.2). */
export const TLD_OPERATIONS = ['register', 'renew', 'transfer', 'restore'] as const;
export type TldOperation = (typeof TLD_OPERATIONS)[number];

const tldOperationSchema = z.enum(TLD_OPERATIONS, { error: `op must be one of ${TLD_OPERATIONS.join(', ')}` });

export const publicTldParamSchema = z
  .string({ error: 'tld is required, such as "com" (without the dot)' })
  .trim()
  .toLowerCase()
  .regex(/^\.?[a-z][a-z0-9-]{0,23}$/, 'tld must be a TLD such as "com" or ".com"')
  .describe('A TLD such as `com` (a leading dot is accepted).');

/** `GET /api/pricing/tld` query (Public API spec 4.2; the operation selector is named `op`, as in batch `tld_registration_price`). */
export const publicTldPriceQuerySchema = publicRequest(
  z.object({
    tld: publicTldParamSchema,
    op: tldOperationSchema
      .default('register')
      .describe('The operation to price: `register` (default), `renew`, `transfer` or `restore`.'),
  }),
  'TldPriceQuery',
  'The TLD and the operation to price.',
);

/** Params of batch op `tld_registration_price`: `tld` and `op` (Public API spec 4.2). */
export const publicTldPriceParamsSchema = z.object({
  tld: publicTldParamSchema,
  op: tldOperationSchema.default('register'),
});

/** `GET /api/pricing/tld` answer. */
export const publicTldPriceSchema = publicResponse(
  z.object({
    tld: z.string(),
    op: tldOperationSchema,
    price_cents: publicCentsSchema.describe(
      'USD cents for the operation (for its minimum term when the operation adds years).',
    ),
    currency: z.literal('USD'),
    period_years: z.number().int().nullable().describe('Years the operation adds; null for `restore`.'),
  }),
  'TldPrice',
  'The current USD price of one operation on a TLD.',
);

/** `GET /api/tlds/{tld}/metadata` answer. */
export const publicTldMetadataSchema = publicResponse(
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

export type PublicTldPrice = z.infer<typeof publicTldPriceSchema>;

export type PublicTldMetadata = z.infer<typeof publicTldMetadataSchema>;

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** `GET /api/pricing/tld`. */
export const publicTldPriceLenientSchema = z.looseObject({
  tld: z.string(),
  op: z.string(),
  price_cents: z.number().int(),
  currency: z.string(),
  period_years: z.number().int().nullable().optional(),
});

/** `GET /api/tlds/{tld}/metadata`. */
export const publicTldMetadataLenientSchema = z.looseObject({
  tld: z.string(),
  type: z.string().optional(),
  registry: z.string().optional(),
  term: z.looseObject({ min_years: z.number().int(), max_years: z.number().int() }),
  organization: z.looseObject({ allowed: z.boolean().optional(), local_presence_required: z.boolean().optional() }),
  nameservers: z.looseObject({ min: z.number().int().optional(), max: z.number().int().optional() }),
});

export type PublicTldPriceLenient = z.infer<typeof publicTldPriceLenientSchema>;

export type PublicTldMetadataLenient = z.infer<typeof publicTldMetadataLenientSchema>;
