/**
 * Batch reads of the Public API (Public API spec 4.2 `GET`/`POST /api/batch`, Partner API spec 8: at most 20 operations).
 */
import { z } from 'zod';
import { BATCH_MAX_OPERATIONS } from '../../limits.ts';
import { publicItemErrorLenientSchema, publicItemErrorSchema } from './errors.ts';
import { publicRequest, publicResponse } from './registry.ts';
import { publicDomainSearchRequestSchema, publicDomainSearchResponseSchema } from './search.ts';
import { publicTldPriceSchema } from './tlds.ts';
import { publicWhoisRecordSchema, publicWhoisRequestSchema } from './whois.ts';

/** The operation names of `POST /api/batch` (Public API spec 4.2). */
export const BATCH_OPS = ['search_domain', 'tld_registration_price', 'whois_lookup'] as const;

export type BatchOp = (typeof BATCH_OPS)[number];

/** One operation of a batch. `op` and `params` are checked per operation, so one bad operation fails alone. */
export const publicBatchOperationSchema = z.object({
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

/** `POST /api/batch` body (Public API spec 4.2, 8: at most 20 operations). */
export const publicBatchRequestSchema = publicRequest(
  z.object({
    operations: z
      .array(publicBatchOperationSchema)
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
export const publicSearchDomainParamsSchema = publicDomainSearchRequestSchema;

/** Params of batch op `whois_lookup`: `domain` (Public API spec 4.2). */
export const publicWhoisParamsSchema = publicWhoisRequestSchema;

/** One result of a batch. */
export const publicBatchResultSchema = publicResponse(
  z.object({
    id: z.string(),
    op: z.string(),
    ok: z.boolean(),
    status: z.number().int().describe('The HTTP status the operation would have answered alone.'),
    result: z
      .union([publicDomainSearchResponseSchema, publicTldPriceSchema, publicWhoisRecordSchema])
      .optional()
      .describe('Set when ok.'),
    error: publicItemErrorSchema.optional().describe('Set when not ok.'),
  }),
  'BatchResult',
  'The outcome of one batch operation, tied to it by id.',
);

/** `POST /api/batch` answer. */
export const publicBatchResponseSchema = publicResponse(
  z.object({ results: z.array(publicBatchResultSchema) }),
  'BatchResponse',
  'One result per operation, in request order.',
);

/** `GET /api/batch` answer. */
export const publicBatchCatalogueSchema = publicResponse(
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

export type PublicBatchResult = z.infer<typeof publicBatchResultSchema>;

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** One result of `POST /api/batch`. */
export const publicBatchResultLenientSchema = z.looseObject({
  id: z.string(),
  op: z.string().optional(),
  ok: z.boolean(),
  status: z.number().int().optional(),
  result: z.unknown().optional(),
  error: publicItemErrorLenientSchema.optional(),
});

/** `POST /api/batch`. */
export const publicBatchResponseLenientSchema = z.looseObject({ results: z.array(publicBatchResultLenientSchema) });

/** `GET /api/batch`. */
export const publicBatchCatalogueLenientSchema = z.looseObject({
  max_operations: z.number().int().optional(),
  operations: z.array(
    z.looseObject({
      op: z.string(),
      description: z.string().optional(),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

export type PublicBatchResultLenient = z.infer<typeof publicBatchResultLenientSchema>;

export type PublicBatchCatalogueLenient = z.infer<typeof publicBatchCatalogueLenientSchema>;
