/**
 * Checks recorded Partner API answers against the Partner API's OpenAPI 3.1 document (`@domainkit/protocol`'s
 * `buildPartnerApiDocument`): each answer's path and method must be a documented operation, its status one of that
 * operation's documented answers, and its JSON body valid against the schema documented for that status.
 */
import { buildPartnerApiDocument } from '@domainkit/protocol';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { RecordedAnswer } from './helpers.ts';

const document = buildPartnerApiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(document, 'partner-api');

/** JSON Pointer escaping of one segment. */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The documented path template of a request path under `/api/partner`, e.g. `/v1/orders/{publicId}`. */
function templateOf(path: string): string | undefined {
  const relative = path.replace(/^\/api\/partner/, '');
  for (const template of Object.keys(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(relative)) return template;
  }
  return undefined;
}

/**
 * Checks every answer against the document; returns how many were checked.
 * @throws {Error} listing every answer the document does not describe. Answers to paths the Partner API does
 * not have (a test probing a 404) are skipped.
 */
export function expectAnswersMatchPartnerApiDocument(answers: readonly RecordedAnswer[]): number {
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
    if (!response.content) continue;
    const ref = `partner-api#/paths/${pointer(template)}/${answer.method.toLowerCase()}/responses/${answer.status}/content/application~1json/schema`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    if (!validate(answer.json)) {
      problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(answer.json).slice(0, 300)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`Partner API answers the OpenAPI document does not describe:\n${problems.join('\n')}`);
  }
  return checked;
}
