/**
 * Checks recorded Partner API answers against the Partner API's OpenAPI 3.1 document (`@domainkit/protocol`'s
 * `buildPartnerApiDocument`): each answer's path and method must be a documented operation, its status one of that
 * operation's documented answers, its JSON body valid against the schema documented for that status, and every
 * header of the API it carries declared for that answer.
 *
 * The check is closed: every object schema that lists its properties is read with `additionalProperties: false`
 * (those protocol's zod schemas leave open, so clients tolerate fields added later, included), so a field the
 * document does not declare fails the check; a generated client would otherwise type it `unknown`.
 */
import { buildPartnerApiDocument } from '@domainkit/protocol';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** One answer to check: the request's method and path, the status, the parsed JSON body and (when recorded) headers. */
export interface CheckedAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly json: unknown;
  /** Response headers by lowercase name; when absent, headers are not checked. */
  readonly headers?: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;

interface ResponseObject {
  readonly content?: unknown;
  readonly headers?: Readonly<Record<string, unknown>>;
}

/**
 * Headers of HTTP itself (RFC 9110, 9111, 9112), of CORS and of browser security policy: not part of the API, so
 * the document does not declare them. Every other header an answer carries must be declared.
 */
const HTTP_HEADERS = new Set([
  'accept-ranges',
  'age',
  'allow',
  'cache-control',
  'connection',
  'content-encoding',
  'content-language',
  'content-length',
  'content-security-policy',
  'content-type',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'date',
  'etag',
  'expires',
  'keep-alive',
  'last-modified',
  'location',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'transfer-encoding',
  'vary',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** True for a header the check leaves alone ({@link HTTP_HEADERS}, `Access-Control-*`). */
function isHttpHeader(name: string): boolean {
  return HTTP_HEADERS.has(name) || name.startsWith('access-control-');
}

/**
 * A copy of a JSON Schema in which every object schema listing `properties` and leaving further properties open
 * (`additionalProperties` absent, `true` or `{}`) is closed. The second and later members of an `allOf` (narrowing
 * members, such as the error codes of one status) are left as they are: they list only what they narrow.
 */
export function closeSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item) => closeSchema(item)) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'allOf' && Array.isArray(value))
      out[key] = value.map((member, i) => (i === 0 ? closeSchema(member) : member));
    else out[key] = closeSchema(value);
  }
  const open =
    out.additionalProperties === undefined ||
    out.additionalProperties === true ||
    (typeof out.additionalProperties === 'object' &&
      out.additionalProperties !== null &&
      Object.keys(out.additionalProperties).length === 0);
  if (typeof out.properties === 'object' && out.properties !== null && open) out.additionalProperties = false;
  return out as T;
}

/** The document's operations and components with every schema closed ({@link closeSchema}). */
function closedDocument(): {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
} & Json {
  const document = buildPartnerApiDocument() as Json;
  return {
    ...document,
    paths: closeSchema(document.paths),
    components: { ...(document.components as Json), schemas: closeSchema((document.components as Json).schemas) },
  } as never;
}

const document = closedDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'partner-api');

/** JSON Pointer escaping of one segment. */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The documented path template of a request path under `/api/partner`, e.g. `/v1/orders/{public_id}`. */
function templateOf(path: string): string | undefined {
  const relative = path.replace(/^\/api\/partner/, '');
  for (const template of Object.keys(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(relative)) return template;
  }
  return undefined;
}

/** The problems of one answer's headers: each one the API sends must be declared for that answer. */
function headerProblems(where: string, response: ResponseObject, headers: Readonly<Record<string, string>>): string[] {
  const declared = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
  return Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => !isHttpHeader(name) && !declared.has(name))
    .map((name) => `${where}: header ${name} is not declared for this answer`);
}

/**
 * Checks every answer against the document; returns how many were checked.
 * @throws {Error} listing every answer the document does not describe (an undeclared status, body field or header).
 * Answers to paths the Partner API does not have (a test probing a 404) are skipped.
 */
export function expectAnswersMatchPartnerApiDocument(answers: readonly CheckedAnswer[]): number {
  const problems: string[] = [];
  let checked = 0;
  for (const answer of answers) {
    const template = templateOf(answer.path);
    const operation = template ? document.paths[template]?.[answer.method.toLowerCase()] : undefined;
    if (!template || !operation) continue;
    checked++;
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    const response = operation.responses[String(answer.status)];
    if (!response) {
      problems.push(`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
      continue;
    }
    if (answer.headers !== undefined) problems.push(...headerProblems(where, response, answer.headers));
    if (!response.content) continue;
    const ref = `partner-api#/paths/${pointer(template)}/${answer.method.toLowerCase()}/responses/${answer.status}/content/application~1json/schema`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    if (!validate(answer.json)) {
      const errors = (validate.errors ?? []).map((e) =>
        e.keyword === 'additionalProperties'
          ? `${e.instancePath || 'the body'} has the undeclared field ${(e.params as { additionalProperty: string }).additionalProperty}`
          : `${e.instancePath || 'the body'} ${e.message}`,
      );
      problems.push(`${where}: ${[...new Set(errors)].join('; ')} in ${JSON.stringify(answer.json).slice(0, 300)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `Partner API answers the OpenAPI document does not describe:\n${[...new Set(problems)].join('\n')}`,
    );
  }
  return checked;
}
