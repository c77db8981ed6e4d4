/**
 * Error bodies of the Public API (Public API spec 4.2; the body shape is the project's, docs/spec-decisions.md).
 */
import { z } from 'zod';
import { publicResponse } from './registry.ts';

/** The error body of the Public API: `{error: {code, message, request_id}}`. */
export const publicErrorBodySchema = publicResponse(
  z.object({
    error: z.object({
      code: z
        .string()
        .describe(
          'Stable code: validation_error, unauthorized, invalid_token, insufficient_scope, not_found, rate_limited, internal_error.',
        ),
      message: z.string().describe('What went wrong and how to fix it.'),
      request_id: z.string(),
    }),
  }),
  'Error',
  'An error answer.',
);

/** The error of one failed batch operation or bulk item. */
export const publicItemErrorSchema = publicResponse(
  z.object({ code: z.string(), message: z.string() }),
  'ItemError',
  'Why one operation or item failed.',
);

/** {@link publicItemErrorSchema} as a client reads it: unknown fields kept. */
export const publicItemErrorLenientSchema = z.looseObject({ code: z.string(), message: z.string() });
