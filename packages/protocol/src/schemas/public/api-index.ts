/**
 * The Public API index (Public API spec 4.2 `GET /api` with a valid access token, Public API spec 5.2).
 */
import { z } from 'zod';
import { publicIsoTimeSchema, publicResponse } from './registry.ts';

/** `GET /api` answer for a valid token. */
export const publicApiIndexSchema = publicResponse(
  z.object({
    resource: z.string(),
    openapi_url: z.string(),
    auth_url: z.string(),
    token: z.object({ subject: z.string(), client_id: z.string(), scope: z.string(), expires_at: publicIsoTimeSchema }),
  }),
  'ApiIndex',
  'The Public API index, with what the access token grants.',
);

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** `GET /api` with a token. */
export const publicApiIndexLenientSchema = z.looseObject({
  resource: z.string().optional(),
  token: z
    .looseObject({ subject: z.string(), client_id: z.string(), scope: z.string(), expires_at: z.string() })
    .optional(),
});

export type PublicApiIndexLenient = z.infer<typeof publicApiIndexLenientSchema>;
