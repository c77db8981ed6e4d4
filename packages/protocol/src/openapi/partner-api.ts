/**
 * The Partner API as an OpenAPI 3.1 document, generated from the operation table (`PARTNER_API_OPERATIONS`) and its
 * zod schemas (zod's JSON Schema output, draft 2020-12, the dialect of OpenAPI 3.1): every operation of Partner API spec 4.1 with its query, body and answer, the HMAC
 * request signing of Partner API spec 5.1 (the four signing headers as security schemes, the canonical string in prose), every
 * error code of Partner API spec 7 with its status, the rate-limit headers (Partner API spec 8) and the webhook events of Partner API spec 6 under
 * `webhooks` with their signature header (Partner API spec 5.3).
 *
 * The sandbox serves it at `GET /api/partner/openapi.json`; the package ships it as
 * `@domainkit/protocol/partner-api.openapi.json`.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode, errorBodySchema } from '../errors.ts';
import { DEFAULT_HEADER_PREFIX, headerNames } from '../headers.ts';
import { RATE_CLASSES, RATE_LIMITS, type RateClass, TIMESTAMP_TOLERANCE_SECONDS } from '../limits.ts';
import { EVENT_TYPES, marketplaceEventSchema } from '../schemas/events.ts';
import { PARTNER_API_OPERATIONS, type PartnerOperation, type PartnerOperationTag } from '../operations.ts';

type Json = Record<string, unknown>;

/** An operation of the table with its `operationId`. */
type Operation = PartnerOperation & { readonly operationId: string };

const TAGS: Readonly<Record<PartnerOperationTag, string>> = {
  Discovery: 'Search and inspect listed domains (Partner API spec 4.1 "Discovery").',
  Checkout: 'Hosted checkout sessions: the marketplace takes the payment (Partner API spec 2.3).',
  'Merchant of Record': 'Quotes, orders and refunds when the partner takes the payment (Partner API spec 2.1, 2.2).',
  Events: 'Webhook registration and the event history (Partner API spec 2.4, 2.5, 6).',
  Reporting: 'Settlements, transactions and payouts (Partner API spec 2.7).',
  Brokerage: 'Brokerage cases for domains not listed for sale (Partner API spec 2.6).',
  Referral: 'Tracked referral links and their reporting (Partner API spec 2.7).',
};

/** JSON Schema 2020-12 of a zod schema, for the request (`input`) or the answer (`output`) side. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as Json;
  return rest;
}

/** The query parameters of a zod object schema. */
function queryParameters(schema: z.ZodObject): Json[] {
  const json = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** The `application/json` content of a schema. */
const content = (schema: Json) => ({ 'application/json': { schema } });

/** The error codes a signed request may meet on any operation (Partner API spec 5.1, 7, 8). */
const COMMON_ERRORS: readonly ErrorCode[] = [
  'missing_credentials',
  'missing_signature_headers',
  'invalid_timestamp',
  'invalid_signature',
  'replay_detected',
  'forbidden',
  'rate_limited',
  'internal_error',
];

/**
 * The headers an answer of `status` may carry: `X-Request-Id` on every answer; the rate-limit headers once the
 * request passed authentication (not on 401); `Retry-After` with 429; `Idempotent-Replayed` on the answers of an
 * operation that takes an `Idempotency-Key` (a replay repeats the stored answer, error or not).
 */
function answerHeaders(status: number, op: Operation): Json {
  return {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    ...(status === 401 ? {} : RATE_HEADERS),
    ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
    ...(op.idempotencyKey ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } : {}),
  };
}

/** The error answer for one status, listing which codes it carries there. */
function errorResponse(status: number, codes: readonly ErrorCode[], op: Operation): Json {
  const lines = codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].when}`).join('\n');
  return {
    description: `Error (HTTP ${status}):\n\n${lines}`,
    headers: answerHeaders(status, op),
    content: content({
      allOf: [
        { $ref: '#/components/schemas/ErrorBody' },
        { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: [...codes] } } } } },
      ],
    }),
  };
}

/** Rate-limit headers on every answer that passed authentication (Partner API spec 8; names as the sandbox sends them). */
const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

function rateDescription(rateClass: RateClass): string {
  if (rateClass === 'read' || rateClass === 'manage') {
    return `Rate class \`${rateClass}\`: Partner API spec 8 does not show its limit; the sandbox allows ${RATE_CLASSES[rateClass].limit} requests per minute per credential.`;
  }
  return `Rate class \`${rateClass}\`: ${RATE_LIMITS[rateClass].limit} requests per minute per credential (Partner API spec 8).`;
}

/**
 * The parameters and body of an operation's input: the fields named by a `{placeholder}` of the path are path
 * parameters; the others are the query of a GET, or the JSON body of a POST or PUT.
 */
function inputParts(op: Operation): { parameters: Json[]; body?: Json } {
  const pathNames = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (pathNames.length === 0 && op.method !== 'GET') return { parameters: [], body: jsonSchema(op.input, 'input') };
  if (!(op.input instanceof z.ZodObject)) throw new TypeError(`${op.operationId}: the input must be an object schema`);
  const parameters: Json[] = [];
  const shape = op.input.shape as Record<string, z.ZodType>;
  for (const name of pathNames) {
    const field = shape[name];
    if (field === undefined) throw new TypeError(`${op.operationId}: the input has no field {${name}} of the path`);
    const { description, ...schema } = jsonSchema(field, 'input');
    parameters.push({
      name,
      in: 'path',
      required: true,
      ...(typeof description === 'string' ? { description } : {}),
      schema,
    });
  }
  const rest =
    pathNames.length === 0
      ? op.input
      : op.input.omit(Object.fromEntries(pathNames.map((name) => [name, true])) as never);
  if (op.method === 'GET') return { parameters: [...parameters, ...queryParameters(rest)] };
  return { parameters, body: jsonSchema(rest, 'input') };
}

function operationObject(op: Operation, names: ReturnType<typeof headerNames>): Json {
  const { parameters, body } = inputParts(op);
  if (op.idempotencyKey) {
    parameters.push({
      name: names.idempotencyKey,
      in: 'header',
      required: op.idempotencyKey === 'required',
      description:
        'One key per logical write (a UUID): a retry with the same key and body returns the first answer, with `Idempotent-Replayed: true`; the same key with another body is `conflict`.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const codes = [...op.errors, ...COMMON_ERRORS];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Json = {
    [String(op.status)]: {
      description: op.status === 201 ? 'Created.' : 'OK.',
      headers: answerHeaders(op.status, op),
      content: content({ $ref: `#/components/schemas/${schemaName(op)}` }),
    },
  };
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b))
    responses[String(status)] = errorResponse(status, list, op);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: `Scope \`${op.scope}\`. ${rateDescription(op.rateClass)}`,
    tags: [op.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: content(body) } } : {}),
    responses,
  };
}

/** The component name of an operation's answer: `SearchDomainsResponse`, … */
function schemaName(op: Operation): string {
  return `${op.operationId[0]!.toUpperCase()}${op.operationId.slice(1)}Response`;
}

const SIGNING = `Every request is signed with the credential's secret (Partner API spec 5.1). Send four headers:

- \`{keyId}\`: the public key id (\`pk_…\`);
- \`{timestamp}\`: Unix time in seconds, within ${TIMESTAMP_TOLERANCE_SECONDS} seconds of the server's clock;
- \`{nonce}\`: unique per request (a UUID v4), never reused while tracked;
- \`{signature}\`: \`v1=\` followed by the lowercase hex HMAC-SHA256, keyed with the secret (\`sk_…\`), of the canonical
  string: six lines joined by \`\\n\`: the method in uppercase, the path (e.g. \`/api/partner/v1/domains/search\`), the
  canonical query (pairs sorted by key then value, each key and value percent-encoded as a URI component with
  uppercase hex, joined with \`&\`), the timestamp, the nonce, and the lowercase hex SHA-256 of the raw body (of the
  empty string for a request without one).

Webhook deliveries carry \`{signature}\` too: the bare hex HMAC-SHA256 of the raw body with the webhook secret (Partner API spec 5.3).
Verify it on the raw bytes before parsing, in constant time.`;

/**
 * Builds the Partner API's OpenAPI 3.1 document.
 * @param options.serverUrl - the marketplace's base URL (the document's server is `{serverUrl}/api/partner`);
 *   default `https://marketplace.example`.
 * @param options.headerPrefix - the brand of the signing headers (default `X-Service-`, Partner API spec 5.1).
 */
export function buildPartnerApiDocument(
  options: { serverUrl?: string; headerPrefix?: string; version?: string } = {},
): Json {
  const names = headerNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX);
  const schemes = {
    keyId: {
      type: 'apiKey',
      in: 'header',
      name: names.keyId,
      description: 'The public key id of the credential (`pk_…`).',
    },
    timestamp: {
      type: 'apiKey',
      in: 'header',
      name: names.timestamp,
      description: 'Unix seconds; see the signing scheme.',
    },
    nonce: {
      type: 'apiKey',
      in: 'header',
      name: names.nonce,
      description: 'Unique per request; see the signing scheme.',
    },
    signature: {
      type: 'apiKey',
      in: 'header',
      name: names.signature,
      description: '`v1=<hex HMAC-SHA256>` of the canonical string; see the signing scheme.',
    },
  };
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = { ErrorBody: jsonSchema(errorBodySchema, 'output') };
  for (const [operationId, entry] of Object.entries(PARTNER_API_OPERATIONS)) {
    const op: Operation = { ...(entry as PartnerOperation), operationId };
    const method = op.method.toLowerCase();
    paths[op.path] = { ...(paths[op.path] ?? {}), [method]: operationObject(op, names) };
    schemas[schemaName(op)] = jsonSchema(op.answer, 'output');
  }
  const errorTable = Object.entries(ERROR_CODES)
    .map(([code, { status, when }]) => `| \`${code}\` | ${status} | ${when} |`)
    .join('\n');
  const webhooks: Record<string, Json> = {};
  for (const [i, type] of EVENT_TYPES.entries()) {
    const name = `${type
      .split(/[._]/)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('')}Event`;
    schemas[name] = jsonSchema(marketplaceEventSchema.options[i]!, 'output');
    webhooks[type] = {
      post: {
        operationId: `on${name}`,
        summary: `The \`${type}\` event`,
        description:
          'Delivered to the registered webhook URL (Partner API spec 6): at least once, possibly out of order; acknowledge with 200 within 5 seconds (only 200 acknowledges: any other answer is retried with back-off), store the event by its `id` before acting on it.',
        tags: ['Events'],
        security: [],
        parameters: [
          {
            name: names.signature,
            in: 'header',
            required: true,
            description: 'Hex HMAC-SHA256 of the raw body with the webhook secret (Partner API spec 5.3).',
            schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          },
          {
            name: names.eventId,
            in: 'header',
            required: true,
            description: 'The event id (`evt_…`), as in the body: the same on every delivery of the event.',
            schema: { type: 'string' },
          },
          {
            name: names.deliveryAttempt,
            in: 'header',
            required: true,
            description: 'Which attempt to deliver this event this is, from 1.',
            schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
          },
        ],
        requestBody: { required: true, content: content({ $ref: `#/components/schemas/${name}` }) },
        responses: {
          '200': { description: 'Received: only 200 acknowledges the delivery (Partner API spec 6).' },
          '400': { description: 'The signature did not match: the marketplace retries with back-off.' },
          '410': { description: 'Gone: the endpoint is disabled until a webhook URL is registered again.' },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner API',
      version: options.version ?? '1',
      summary:
        'The domain marketplace for partners: discovery, checkout, Merchant of Record orders, events, reporting.',
      description: `${SIGNING.replaceAll('{keyId}', names.keyId).replaceAll('{timestamp}', names.timestamp).replaceAll('{nonce}', names.nonce).replaceAll('{signature}', names.signature)}

## Errors (Partner API spec 7)

Every error answers \`{"error": {"code", "message", "request_id"}}\`.

| code | status | when |
| --- | --- | --- |
${errorTable}

## Rate limits (Partner API spec 8)

Per credential and class, in one-minute windows: search ${RATE_LIMITS.search.limit}, write ${RATE_LIMITS.write.limit}, reporting ${RATE_LIMITS.reporting.limit} requests per minute. Answers carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a refused request answers 429 \`rate_limited\` with \`Retry-After\`.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: `${options.serverUrl ?? 'https://marketplace.example'}/api/partner`,
        description: 'The marketplace (or the local sandbox).',
      },
    ],
    security: [{ keyId: [], timestamp: [], nonce: [], signature: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      securitySchemes: schemes,
      schemas,
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
        'X-Request-Id': {
          description:
            "The request's id, as in the error body's `request_id` and the marketplace's logs: the caller's own `X-Request-Id` when it sent a valid one, else one the marketplace made.",
          schema: { type: 'string' },
        },
        'Idempotent-Replayed': {
          description:
            '`true` when the answer is the stored answer of an earlier request with the same `Idempotency-Key`.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    },
  };
}
