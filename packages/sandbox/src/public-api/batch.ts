/**
 * Batching of the Public API's reads (Public API spec 4.2 `POST /api/batch`, `GET /api/batch`): up to 20 operations, each
 * with a caller-chosen `id` that ties its result to it. Operations run one after another; one that fails (bad
 * params, unknown op, unknown TLD) answers its own error while the others succeed.
 */
import { BATCH_MAX_OPERATIONS, ProtocolError } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import { ApiError, describeZodError } from '../http/api-error.ts';
import {
  BATCH_OPS,
  publicSearchDomainParamsSchema,
  publicTldPriceParamsSchema,
  publicWhoisParamsSchema,
  type BatchOp,
  type PublicBatchResult,
  type PublicDomainSearchResponse,
  type PublicTldPrice,
  type PublicWhoisRecord,
} from '@domainkit/protocol';
import { searchDomain, type Viewer } from './search.ts';
import type { PublicExecutor } from '../db/public-tables.ts';
import { tldPrice } from './tld-info.ts';
import { whoisLookup } from './whois.ts';

interface OpDefinition {
  readonly description: string;
  readonly params: z.ZodType;
  run(ctx: BatchContext, params: never): Promise<PublicDomainSearchResponse | PublicTldPrice | PublicWhoisRecord>;
}

/** What operations need. */
export interface BatchContext {
  readonly db: PublicExecutor;
  readonly clock: Clock;
  readonly viewer: Viewer;
  readonly logger: Logger;
}

/** The batchable operations (Public API spec 4.2's table), also the MCP tools. */
export const BATCH_OPERATIONS: Readonly<Record<BatchOp, OpDefinition>> = {
  search_domain: {
    description:
      'Availability of a domain or label with its alternate-TLD siblings (POST /api/domain/search). Marketplace prices are masked unless signed in.',
    params: publicSearchDomainParamsSchema,
    run: (ctx, params: z.output<typeof publicSearchDomainParamsSchema>) => searchDomain(ctx.db, params.q, ctx.viewer),
  },
  tld_registration_price: {
    description: 'The USD price to register, renew, transfer or restore under a TLD (GET /api/pricing/tld).',
    params: publicTldPriceParamsSchema,
    run: async (_ctx, params: z.output<typeof publicTldPriceParamsSchema>) => tldPrice(params.tld, params.op),
  },
  whois_lookup: {
    description: 'WHOIS/RDAP details of a domain: registrar, registrant, dates, nameservers (POST /api/tools/whois).',
    params: publicWhoisParamsSchema,
    run: (ctx, params: z.output<typeof publicWhoisParamsSchema>) => whoisLookup(ctx.db, params.domain, ctx.clock),
  },
};

/** The catalogue of `GET /api/batch`: each operation with the JSON Schema of its params. */
export function batchCatalogue() {
  return {
    max_operations: BATCH_MAX_OPERATIONS,
    operations: BATCH_OPS.map((op) => {
      const { $schema: _ignored, ...params } = z.toJSONSchema(BATCH_OPERATIONS[op].params, {
        io: 'input',
        target: 'draft-2020-12',
      }) as Record<string, unknown>;
      return { op, description: BATCH_OPERATIONS[op].description, params };
    }),
  };
}

function isBatchOp(op: string): op is BatchOp {
  return (BATCH_OPS as readonly string[]).includes(op);
}

/** Runs one operation; never throws. */
async function runOne(
  ctx: BatchContext,
  operation: { id: string; op: string; params?: Record<string, unknown> | undefined },
): Promise<PublicBatchResult> {
  const { id, op } = operation;
  if (!isBatchOp(op)) {
    return {
      id,
      op,
      ok: false,
      status: 400,
      error: {
        code: 'validation_error',
        message: `Unknown op ${JSON.stringify(op.slice(0, 100))}: use one of ${BATCH_OPS.join(', ')} (GET /api/batch lists them).`,
      },
    };
  }
  const definition = BATCH_OPERATIONS[op];
  const params = definition.params.safeParse(operation.params ?? {});
  if (!params.success)
    return {
      id,
      op,
      ok: false,
      status: 400,
      error: { code: 'validation_error', message: `Invalid params: ${describeZodError(params.error)}` },
    };
  try {
    const result = await definition.run(ctx, params.data as never);
    return { id, op, ok: true, status: 200, result };
  } catch (err) {
    if (err instanceof ProtocolError || err instanceof ApiError)
      return { id, op, ok: false, status: err.status, error: { code: err.code, message: err.message } };
    ctx.logger.error({ err, op }, 'batch operation failed');
    return {
      id,
      op,
      ok: false,
      status: 500,
      error: {
        code: 'internal_error',
        message: 'This operation failed on the sandbox; the others were not affected. Retry it.',
      },
    };
  }
}

/**
 * Runs a validated batch.
 * @returns one result per operation, in order.
 */
export async function runBatch(
  ctx: BatchContext,
  operations: ReadonlyArray<{ id: string; op: string; params?: Record<string, unknown> | undefined }>,
): Promise<PublicBatchResult[]> {
  const results: PublicBatchResult[] = [];
  for (const operation of operations) results.push(await runOne(ctx, operation));
  return results;
}
