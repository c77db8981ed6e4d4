/**
 * The Public API's routes (Public API spec 4.2), unsigned, under `/api`:
 *
 * | call | answer |
 * |---|---|
 * | `GET /api` | 200 index with a valid token; 401 `WWW-Authenticate: Bearer resource_metadata="…"` without |
 * | `POST /api/domain/search` `{q}` | availability with alternate-TLD siblings; prices masked unless `pricing:read` |
 * | `POST /api/tools/whois` `{domain}` | WHOIS/RDAP record (synthetic, deterministic) |
 * | `GET /api/pricing/tld?tld=&op=` | USD price of register, renew, transfer or restore |
 * | `GET /api/tlds/{tld}/metadata` | term range, organisation and nameserver rules |
 * | `GET /api/market/listings?tld=&limit=&cursor=|offset=` | aftermarket listings, newest first |
 * | `GET /api/batch`, `POST /api/batch` | catalogue; up to 20 operations |
 * | `GET /api/domains` | the signed-in user's domains (`domains:manage`) |
 * | `POST /api/domains/bulk/{op}` | up to 1,000 owned domains (`domains:manage`) |
 *
 * Every route reads the optional Bearer token first: an unknown, expired or revoked one answers 401 `invalid_token`
 * (never a silent fallback to anonymous). Every request spends from the caller's rate budget. Responses are built
 * with the zod schemas of `@domainkit/protocol` (`schemas/public/`, the OpenAPI document's source); errors are
 * `{"error": {"code", "message", "request_id"}}`.
 */
import { BATCH_MAX_OPERATIONS, BULK_MAX_DOMAINS } from '@domainkit/protocol';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import { ApiError, apiError, parseOrThrow } from '../http/api-error.ts';
import { jsonErrorHandler } from '../http/errors.ts';
import { oauthUrls } from '../oauth/metadata.ts';
import type { AccessGrant } from '../oauth/tokens.ts';
import { bearerChallenge, requireScope, resolveAccess } from './access.ts';
import { batchCatalogue, runBatch } from './batch.ts';
import { hasMalformedEscape, MAX_DECLARED_BODY_BYTES, refuseBodyOverLimit, withTextPolicy } from '../http/hardening.ts';
import { checkBulkParams, listOwnedDomains, runBulk } from './bulk.ts';
import type { PublicContext } from '../public-context.ts';
import { listListings } from './listings.ts';
import { ipSubject, type RateBucket } from '../limits/public.ts';
import {
  BULK_OPS,
  publicApiIndexSchema,
  publicBatchCatalogueSchema,
  publicBatchRequestSchema,
  publicBatchResponseSchema,
  publicBulkRequestSchema,
  publicBulkResponseSchema,
  publicDomainSearchRequestSchema,
  publicDomainSearchResponseSchema,
  publicListingsPageSchema,
  publicListingsQuerySchema,
  publicOwnedDomainsPageSchema,
  publicOwnedDomainsQuerySchema,
  publicTldMetadataSchema,
  publicTldPriceQuerySchema,
  publicTldPriceSchema,
  publicWhoisRecordSchema,
  publicWhoisRequestSchema,
  type BulkOp,
} from '@domainkit/protocol';
import { searchDomain, type Viewer } from './search.ts';
import { tldMetadata, tldPrice } from './tld-info.ts';
import { whoisLookup } from './whois.ts';

/** The caller of a request, resolved once by the router's first middleware. */
interface Caller {
  readonly access: AccessGrant | undefined;
  readonly viewer: Viewer;
  readonly base: string;
}

const callers = new WeakMap<Response, Caller>();

function callerOf(res: Response): Caller {
  const caller = callers.get(res);
  if (caller === undefined) throw new Error('the caller was not resolved');
  return caller;
}

/** Sends a body through its schema (the OpenAPI document's source), so the answer always matches the document. */
function sendParsed<S extends z.ZodType>(res: Response, schema: S, body: z.input<S>, status = 200): void {
  res.status(status).json(schema.parse(body));
}

/** The JSON body of a POST, or a 400 saying how to send one. */
function jsonBody(req: Request): unknown {
  if (!req.is('application/json'))
    throw apiError(
      'validation_error',
      'Send the request body as JSON, with the header Content-Type: application/json.',
    );
  return req.body;
}

/** Builds the Public API router (mounted at the app root; its routes start with `/api`). */
export function publicApiRouter(ctx: PublicContext): Router {
  const router = express.Router();
  const json = withTextPolicy(
    refuseBodyOverLimit(express.json({ limit: MAX_DECLARED_BODY_BYTES }), MAX_DECLARED_BODY_BYTES),
  );

  /** Resolves the caller (401 for a bad token) and spends `cost` units of its budget. */
  const caller = (options: { bucket?: RateBucket; cost?: (req: Request) => number } = {}) =>
    async function resolveCaller(req: Request, res: Response, next: NextFunction): Promise<void> {
      res.setHeader('Cache-Control', 'no-store');
      const base = ctx.baseUrl(req);
      const access = await resolveAccess(req, { db: ctx.db, clock: ctx.clock, base });
      callers.set(res, { access, base, viewer: { pricesVisible: access?.scopes.includes('pricing:read') ?? false } });
      const bucket: RateBucket = options.bucket ?? (access ? 'signedIn' : 'anonymous');
      const subject = access ? `user:${access.userId}` : ipSubject(req);
      const decision = await ctx.limiter.consume(bucket, subject, options.cost?.(req) ?? 1);
      if (!decision.allowed) {
        throw new ApiError(
          429,
          'rate_limited',
          `Too many requests: at most ${decision.limit} per window for this caller. Retry in ${decision.resetSeconds} seconds.`,
          {
            'Retry-After': String(decision.resetSeconds),
          },
        );
      }
      next();
    };

  router.get('/api', caller(), (_req, res) => {
    const { access, base } = callerOf(res);
    if (access === undefined) {
      // Public API spec 5.2: an unauthenticated call to {base_url}/api answers 401 with the resource metadata challenge.
      throw new ApiError(
        401,
        'unauthorized',
        `This is the Public API: most calls need no token. To sign in, follow ${oauthUrls(base).documentation}.`,
        {
          'WWW-Authenticate': bearerChallenge(base),
        },
      );
    }
    const u = oauthUrls(base);
    sendParsed(res, publicApiIndexSchema, {
      resource: u.resource,
      openapi_url: u.openapi,
      auth_url: u.documentation,
      token: {
        subject: access.userId,
        client_id: access.clientId,
        scope: access.scopes.join(' '),
        expires_at: access.expiresAt.toISOString(),
      },
    });
  });

  router.post('/api/domain/search', json, caller(), async (req, res) => {
    const { q } = parseOrThrow(publicDomainSearchRequestSchema, jsonBody(req), 'search request');
    sendParsed(res, publicDomainSearchResponseSchema, await searchDomain(ctx.db, q, callerOf(res).viewer));
  });

  router.post('/api/tools/whois', json, caller(), async (req, res) => {
    const { domain } = parseOrThrow(publicWhoisRequestSchema, jsonBody(req), 'WHOIS request');
    sendParsed(res, publicWhoisRecordSchema, await whoisLookup(ctx.db, domain, ctx.clock));
  });

  router.get('/api/pricing/tld', caller(), (req, res) => {
    const { tld, op } = parseOrThrow(publicTldPriceQuerySchema, req.query, 'query');
    sendParsed(res, publicTldPriceSchema, tldPrice(tld, op));
  });

  router.get('/api/tlds/:tld/metadata', caller(), (req, res) => {
    const tld = String(req.params.tld).toLowerCase();
    if (!/^\.?[a-z][a-z0-9-]{0,23}$/.test(tld))
      throw apiError(
        'validation_error',
        'The TLD in the path must be a TLD such as "com" (letters, digits and hyphens).',
      );
    sendParsed(res, publicTldMetadataSchema, tldMetadata(tld));
  });

  router.get('/api/market/listings', caller(), async (req, res) => {
    const query = parseOrThrow(publicListingsQuerySchema, req.query, 'query');
    sendParsed(res, publicListingsPageSchema, await listListings(ctx.db, query, callerOf(res).viewer));
  });

  router.get('/api/batch', caller(), (_req, res) => {
    sendParsed(res, publicBatchCatalogueSchema, batchCatalogue() as z.input<typeof publicBatchCatalogueSchema>);
  });

  const batchSize = (req: Request): number => {
    const operations = (req.body as { operations?: unknown } | undefined)?.operations;
    return Array.isArray(operations) ? Math.max(1, Math.min(operations.length, BATCH_MAX_OPERATIONS)) : 1;
  };

  router.post('/api/batch', json, caller({ cost: batchSize }), async (req, res) => {
    const body = jsonBody(req) as { operations?: unknown } | undefined;
    if (Array.isArray(body?.operations) && body.operations.length > BATCH_MAX_OPERATIONS) {
      throw apiError(
        'validation_error',
        `A batch holds at most ${BATCH_MAX_OPERATIONS} operations; this one has ${body.operations.length}. Split it into batches of ${BATCH_MAX_OPERATIONS}.`,
      );
    }
    const { operations } = parseOrThrow(publicBatchRequestSchema, body, 'batch');
    const seen = new Set<string>();
    for (const { id } of operations) {
      if (seen.has(id))
        throw apiError(
          'validation_error',
          `Operation ids must be unique in a batch: ${JSON.stringify(id)} appears more than once.`,
        );
      seen.add(id);
    }
    const results = await runBatch(
      { db: ctx.db, clock: ctx.clock, logger: ctx.logger, viewer: callerOf(res).viewer },
      operations,
    );
    sendParsed(res, publicBatchResponseSchema, { results });
  });

  router.get('/api/domains', caller({ bucket: 'bulk' }), async (req, res) => {
    const { access, base } = callerOf(res);
    const grant = requireScope(access, 'domains:manage', base);
    const { limit, cursor } = parseOrThrow(publicOwnedDomainsQuerySchema, req.query, 'query');
    sendParsed(res, publicOwnedDomainsPageSchema, await listOwnedDomains(ctx.db, grant.userId, limit, cursor));
  });

  // Authentication comes first on bulk operations: without a token, a malformed escape in {op} is a 401, not a 400.
  router.use('/api/domains/bulk', async (req, _res, next) => {
    if (hasMalformedEscape(req.path)) {
      const base = ctx.baseUrl(req);
      requireScope(await resolveAccess(req, { db: ctx.db, clock: ctx.clock, base }), 'domains:manage', base);
    }
    next();
  });
  router.post('/api/domains/bulk/:op', json, caller({ bucket: 'bulk' }), async (req, res) => {
    const { access, base } = callerOf(res);
    const grant = requireScope(access, 'domains:manage', base);
    const op = String(req.params.op);
    if (!(BULK_OPS as readonly string[]).includes(op)) {
      throw apiError(
        'validation_error',
        `Unknown bulk operation ${JSON.stringify(op.slice(0, 50))}: use one of ${BULK_OPS.join(', ')}.`,
      );
    }
    const body = jsonBody(req) as { domains?: unknown } | undefined;
    if (Array.isArray(body?.domains) && body.domains.length > BULK_MAX_DOMAINS) {
      throw apiError(
        'validation_error',
        `A bulk request holds at most ${BULK_MAX_DOMAINS.toLocaleString('en-US')} domains; this one has ${body.domains.length.toLocaleString('en-US')}. Split the list into requests of ${BULK_MAX_DOMAINS.toLocaleString('en-US')}.`,
      );
    }
    const input = { op: op as BulkOp, ...parseOrThrow(publicBulkRequestSchema, body, 'bulk request') };
    checkBulkParams(input);
    const result = await runBulk(ctx.db, grant.userId, input, ctx.clock());
    ctx.logger.info(
      { op, user_id: grant.userId, succeeded: result.summary.succeeded, failed: result.summary.failed },
      'bulk operation',
    );
    sendParsed(res, publicBulkResponseSchema, result);
  });

  router.use('/api', jsonErrorHandler(ctx.logger));
  return router;
}
