/**
 * The registries of the Public API's schemas (Public API spec 4.2, 5.2): every request schema is registered in
 * {@link publicRequestSchemas} (rendered with its input side), every response schema in
 * {@link publicResponseSchemas} (output side), each under the component name it has in the sandbox's
 * `GET /openapi.json`, so the document is generated from the same schemas the handlers use.
 */
import { z } from 'zod';

/** Metadata of a registered schema: its OpenAPI component name and description. */
export interface PublicSchemaMeta {
  readonly id: string;
  readonly description?: string;
}

/** Public API request bodies and query objects, by component name. */
export const publicRequestSchemas = z.registry<PublicSchemaMeta>();
/** Public API response bodies, by component name. */
export const publicResponseSchemas = z.registry<PublicSchemaMeta>();

/** The description of each registered Public API schema, by component name. */
export const publicSchemaDescriptions = new Map<string, string>();

/** Registers `schema` as the request component `id`; answers `schema`. */
export function publicRequest<S extends z.ZodType>(schema: S, id: string, description: string): S {
  publicRequestSchemas.add(schema as z.ZodType, { id, description });
  publicSchemaDescriptions.set(id, description);
  return schema;
}

/** Registers `schema` as the response component `id`; answers `schema`. */
export function publicResponse<S extends z.ZodType>(schema: S, id: string, description: string): S {
  publicResponseSchemas.add(schema as z.ZodType, { id, description });
  publicSchemaDescriptions.set(id, description);
  return schema;
}

/** An ISO 8601 UTC timestamp as the Public API writes it (`Z`, no offset). */
export const publicIsoTimeSchema = z.iso.datetime({ offset: false });
/** A non-negative whole number of USD cents. */
export const publicCentsSchema = z.number().int().nonnegative();
