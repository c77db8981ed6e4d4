/**
 * What a refused purchase means, shared by both buying flows (loaded with them): the marketplace answers `conflict`
 * both for a domain sold and for one another buyer's price lock holds (Partner API spec 2.2; docs/spec-decisions.md,
 * "What reserves means"). Asking the domain's availability tells them apart, so a reserved domain is never called
 * sold.
 */
import { DkApiError, getDomain, toApiError } from '../api.ts';

/**
 * `error` as the visitor should hear it: a `conflict` for a domain still listed as available becomes
 * `domain_reserved` (409); anything else (and a `conflict` whose check fails) is returned as it was.
 */
export async function readRefusal(api: string, domain: string, error: unknown, signal?: AbortSignal): Promise<unknown> {
  if (toApiError(error).code !== 'conflict') return error;
  try {
    const now = await getDomain(api, domain, { signal });
    return now.available
      ? new DkApiError('domain_reserved', `${domain} is reserved by another buyer's price lock.`, { status: 409 })
      : error;
  } catch {
    return error;
  }
}
