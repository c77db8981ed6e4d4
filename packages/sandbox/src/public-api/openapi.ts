/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of the Public API and its OAuth endpoints (Partner API spec 9.3: the contract
 * of the unversioned Public API), generated from the zod schemas the handlers parse and answer with
 * (`@domainkit/protocol`'s `schemas/public/`, rendered by zod's JSON Schema generator as JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 */
import { BATCH_MAX_OPERATIONS, BULK_MAX_DOMAINS } from '@domainkit/protocol';
import { z } from 'zod';
import { oauthUrls } from '../oauth/metadata.ts';
import { OAUTH_SCOPES, SCOPE_DESCRIPTIONS } from '../oauth/scopes.ts';
import { PUBLIC_RATE_LIMITS } from '../limits/public.ts';
import {
  BULK_OPS,
  publicListingsQuerySchema,
  publicOwnedDomainsQuerySchema,
  publicRequestSchemas,
  publicResponseSchemas,
  publicSchemaDescriptions,
  publicTldPriceQuerySchema,
  type PublicSchemaMeta,
} from '@domainkit/protocol';
import { TLD_NAMES } from '../inventory/tlds.ts';

type Json = Record<string, unknown>;

const REF = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** Renders a registry's schemas as OpenAPI components (without `$schema` and `$id`). */
function components(registry: z.core.$ZodRegistry<PublicSchemaMeta>, io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    out[id] = rest;
  }
  // Descriptions live in the registries' metadata.
  for (const [id, schema] of Object.entries(out)) {
    const description = publicSchemaDescriptions.get(id);
    if (schema.description === undefined && description !== undefined) schema.description = description;
  }
  return out;
}

/** Query parameters of a zod object schema (input side). */
function queryParameters(schema: z.ZodObject): Json[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as {
    properties: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(description !== undefined ? { description } : {}),
      schema: rest,
    };
  });
}

function jsonContent(id: string): Json {
  return { 'application/json': { schema: REF(id) } };
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds until the rate-limit window ends.', schema: { type: 'integer', minimum: 1 } },
};
const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description:
      'RFC 6750 / RFC 9728 challenge: `Bearer resource_metadata="…/.well-known/oauth-protected-resource"`, with `error="invalid_token"` for an expired or revoked token.',
    schema: { type: 'string' },
  },
};

function errors(...statuses: number[]): Json {
  const text: Record<number, string> = {
    400: 'Bad input: the message says what to fix.',
    401: 'No access token where one is required, or an unknown, expired or revoked token (`invalid_token`).',
    403: 'The access token lacks the scope (`insufficient_scope`).',
    404: 'Not found.',
    413: 'The request declared a body over the size limit (any path).',
    429: 'Rate limited: retry after `Retry-After` seconds.',
  };
  const out: Json = {};
  for (const status of statuses) {
    out[status] = {
      description: text[status],
      content: jsonContent('Error'),
      ...(status === 429
        ? { headers: RETRY_AFTER }
        : status === 401 || status === 403
          ? { headers: WWW_AUTHENTICATE }
          : {}),
    };
  }
  return out;
}

function oauthErrors(...statuses: number[]): Json {
  const out: Json = {};
  for (const status of statuses)
    out[status] = {
      description: 'An OAuth error (RFC 6749 5.2 / RFC 7591 3.2.2).',
      content: jsonContent('OAuthError'),
      ...(status === 429 ? { headers: RETRY_AFTER } : {}),
    };
  return out;
}

const OPTIONAL_SIGN_IN = [{}, { oauth2: ['pricing:read'] }];
/** Operations open to anyone, with no token (stated explicitly, as OpenAPI linters expect). */
const NO_SIGN_IN: Json[] = [];

/**
 * Builds the document for a base URL.
 * @param base - the service's base URL (no trailing slash): the `servers` entry and the OAuth URLs.
 */
export function buildOpenApiDocument(base: string): Json {
  const u = oauthUrls(base);
  const limits = PUBLIC_RATE_LIMITS;
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Marketplace Public API (sandbox)',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      summary:
        'Unsigned reads: domain search with alternate-TLD siblings, WHOIS/RDAP, TLD pricing and rules, aftermarket listings, batching; signed-in bulk operations.',
      description: [
        'No account or key is needed, except for bulk operations. Signing in (OAuth 2.1 authorization code with PKCE S256, public clients, see /auth.md) unmasks marketplace prices.',
        `Rate limits: anonymous callers ${limits.anonymous.limit} requests per minute per IP (a batch costs one per operation), signed-in callers ${limits.signedIn.limit} per minute per user, bulk operations ${limits.bulk.limit} per minute per user; 429 with Retry-After beyond.`,
        'Errors of the Public API answer `{"error": {"code", "message", "request_id"}}`; the OAuth endpoints answer RFC 6749 `{"error", "error_description"}`.',
      ].join('\n\n'),
    },
    servers: [{ url: base }],
    externalDocs: { description: 'Agent sign-in guide', url: u.documentation },
    tags: [
      { name: 'Domains', description: 'Search, WHOIS, listings.' },
      { name: 'TLDs', description: 'Pricing and registration rules.' },
      { name: 'Batch', description: `Up to ${BATCH_MAX_OPERATIONS} reads in one request.` },
      { name: 'Owned domains', description: 'Signed-in bulk operations.' },
      { name: 'OAuth', description: 'OAuth 2.1 sign-in (Public API spec 5.2).' },
    ],
    paths: {
      '/api': {
        get: {
          tags: ['OAuth'],
          operationId: 'getApiIndex',
          summary: 'The API index; without a token, the 401 challenge that points at the protected resource metadata.',
          security: [{ oauth2: [] }],
          responses: {
            200: { description: 'The index and what the token grants.', content: jsonContent('ApiIndex') },
            ...errors(400, 401, 429),
          },
        },
      },
      '/api/domain/search': {
        post: {
          tags: ['Domains'],
          operationId: 'searchDomain',
          summary:
            'Availability of a domain or label, with alternate-TLD siblings. Marketplace prices masked unless signed in (pricing:read).',
          security: OPTIONAL_SIGN_IN,
          requestBody: { required: true, content: jsonContent('DomainSearchRequest') },
          responses: {
            200: { description: 'The domain and its siblings.', content: jsonContent('DomainSearchResponse') },
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/api/tools/whois': {
        post: {
          tags: ['Domains'],
          operationId: 'whoisLookup',
          summary: 'WHOIS/RDAP details of a domain (synthetic in the sandbox, deterministic).',
          security: OPTIONAL_SIGN_IN,
          requestBody: { required: true, content: jsonContent('WhoisRequest') },
          responses: {
            200: {
              description: 'The record; `registered: false` for an unregistered domain.',
              content: jsonContent('WhoisRecord'),
            },
            ...errors(400, 401, 429),
          },
        },
      },
      '/api/pricing/tld': {
        get: {
          tags: ['TLDs'],
          operationId: 'getTldPrice',
          summary: 'The current USD price to register, renew, transfer or restore under a TLD.',
          security: OPTIONAL_SIGN_IN,
          parameters: queryParameters(publicTldPriceQuerySchema),
          responses: {
            200: { description: 'The price.', content: jsonContent('TldPrice') },
            ...errors(400, 401, 404, 429),
          },
        },
      },
      '/api/tlds/{tld}/metadata': {
        get: {
          tags: ['TLDs'],
          operationId: 'getTldMetadata',
          summary: 'Term range, organisation rules and nameserver rules of a TLD.',
          security: OPTIONAL_SIGN_IN,
          parameters: [
            {
              name: 'tld',
              in: 'path',
              required: true,
              description: `A TLD without the dot. Known: ${TLD_NAMES.join(', ')}.`,
              schema: { type: 'string', pattern: '^\\.?[A-Za-z][A-Za-z0-9-]{0,23}$' },
            },
          ],
          responses: {
            200: { description: 'The rules.', content: jsonContent('TldMetadata') },
            ...errors(400, 401, 404, 429),
          },
        },
      },
      '/api/market/listings': {
        get: {
          tags: ['Domains'],
          operationId: 'listListings',
          summary:
            'Aftermarket listings, newest first: follow `page.next_cursor` (stable under concurrent inserts) or page by `offset`.',
          security: OPTIONAL_SIGN_IN,
          parameters: queryParameters(publicListingsQuerySchema),
          responses: {
            200: { description: 'One page.', content: jsonContent('ListingsPage') },
            ...errors(400, 401, 429),
          },
        },
      },
      '/api/batch': {
        get: {
          tags: ['Batch'],
          operationId: 'getBatchCatalogue',
          summary: 'The batchable operations and their params.',
          security: NO_SIGN_IN,
          responses: { 200: { description: 'The catalogue.', content: jsonContent('BatchCatalogue') }, ...errors(429) },
        },
        post: {
          tags: ['Batch'],
          operationId: 'runBatch',
          summary: `Run up to ${BATCH_MAX_OPERATIONS} operations; one failing operation does not fail the others.`,
          security: OPTIONAL_SIGN_IN,
          requestBody: { required: true, content: jsonContent('BatchRequest') },
          responses: {
            200: { description: 'One result per operation, tied by id.', content: jsonContent('BatchResponse') },
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/api/domains': {
        get: {
          tags: ['Owned domains'],
          operationId: 'listOwnedDomains',
          summary: 'The signed-in user\u2019s domains.',
          security: [{ oauth2: ['domains:manage'] }],
          parameters: queryParameters(publicOwnedDomainsQuerySchema),
          responses: {
            200: { description: 'One page, by name.', content: jsonContent('OwnedDomainsPage') },
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/api/domains/bulk/{op}': {
        post: {
          tags: ['Owned domains'],
          operationId: 'runBulkOperation',
          summary: `Apply an operation to up to ${BULK_MAX_DOMAINS} of the signed-in user\u2019s domains; each domain gets its own result.`,
          security: [{ oauth2: ['domains:manage'] }],
          parameters: [{ name: 'op', in: 'path', required: true, schema: { type: 'string', enum: [...BULK_OPS] } }],
          requestBody: { required: true, content: jsonContent('BulkRequest') },
          responses: {
            200: { description: 'Per-domain results.', content: jsonContent('BulkResponse') },
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/api/oauth/register': {
        post: {
          tags: ['OAuth'],
          operationId: 'registerClient',
          security: NO_SIGN_IN,
          summary: 'Dynamic client registration (RFC 7591), public clients only, no approval.',
          requestBody: { required: true, content: jsonContent('ClientRegistrationRequest') },
          responses: {
            201: { description: 'The client (no secret).', content: jsonContent('ClientInformation') },
            ...oauthErrors(400, 429),
          },
        },
      },
      '/api/oauth/token': {
        post: {
          tags: ['OAuth'],
          operationId: 'token',
          security: NO_SIGN_IN,
          summary: 'Exchange an authorization code (with its PKCE verifier), or rotate a refresh token.',
          requestBody: {
            required: true,
            content: { 'application/x-www-form-urlencoded': { schema: REF('TokenRequest') } },
          },
          responses: {
            200: { description: 'Tokens. `Cache-Control: no-store`.', content: jsonContent('TokenResponse') },
            ...oauthErrors(400, 401, 429),
          },
        },
      },
      '/api/oauth/revoke': {
        post: {
          tags: ['OAuth'],
          operationId: 'revoke',
          security: NO_SIGN_IN,
          summary: 'Revoke a token (RFC 7009).',
          requestBody: {
            required: true,
            content: { 'application/x-www-form-urlencoded': { schema: REF('RevocationRequest') } },
          },
          responses: { 200: { description: 'Revoked (also answered for unknown tokens).' }, ...oauthErrors(400, 429) },
        },
      },
      '/.well-known/oauth-authorization-server': {
        get: {
          tags: ['OAuth'],
          operationId: 'getAuthorizationServerMetadata',
          summary: 'OAuth 2.1 authorization server metadata (RFC 8414).',
          security: NO_SIGN_IN,
          responses: {
            200: { description: 'RFC 8414 metadata.', content: jsonContent('AuthorizationServerMetadata') },
            ...errors(413),
          },
        },
      },
      '/.well-known/oauth-protected-resource': {
        get: {
          tags: ['OAuth'],
          operationId: 'getProtectedResourceMetadata',
          summary: 'Protected resource metadata of the Public API (RFC 9728).',
          security: NO_SIGN_IN,
          responses: {
            200: { description: 'RFC 9728 metadata.', content: jsonContent('ProtectedResourceMetadata') },
            ...errors(413),
          },
        },
      },
    },
    components: {
      // Query schemas become parameters (queryParameters), not components.
      schemas: {
        ...components(publicResponseSchemas, 'output'),
        ...Object.fromEntries(
          Object.entries(components(publicRequestSchemas, 'input')).filter(([id]) => !id.endsWith('Query')),
        ),
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'OAuth 2.1 authorization code with PKCE (S256), public clients registered dynamically (Public API spec 5.2).',
          flows: {
            authorizationCode: {
              authorizationUrl: u.authorizationEndpoint,
              tokenUrl: u.tokenEndpoint,
              refreshUrl: u.tokenEndpoint,
              scopes: Object.fromEntries(OAUTH_SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]])),
            },
          },
        },
      },
    },
  };
}
