/**
 * The siblings feature's option (`siblings`: `GET /siblings?q=`, the visitor's word under other TLDs through the
 * marketplace's Public API) and its default: on whenever the BFF has a `marketplace` credential.
 */
import { z } from 'zod';

/** The `createBff` options of the siblings feature, as checked at creation. */
export const siblingsOptionsShape = {
  siblings: z.boolean({ error: 'must be true or false (false turns GET /siblings off)' }).optional(),
};

/** What the siblings feature reads of the options. */
interface SiblingsInput {
  readonly siblings?: unknown;
  readonly marketplace?: unknown;
  readonly client?: unknown;
}

/** Why `siblings` cannot be on with these options, or `undefined`: the Public API is called at `marketplace.baseUrl`. */
export function siblingsProblem(value: SiblingsInput): string | undefined {
  if (value.siblings === true && value.marketplace === undefined && value.client !== undefined)
    return '`siblings` needs `marketplace` (the Public API is called at `marketplace.baseUrl`): with a ready `client`, leave `siblings` out';
  return undefined;
}

/** Whether `GET /siblings` is served: default on with `marketplace`, off with a ready `client` or `siblings: false`. */
export function resolveSiblings(value: SiblingsInput): boolean {
  return value.siblings !== false && value.marketplace !== undefined;
}
