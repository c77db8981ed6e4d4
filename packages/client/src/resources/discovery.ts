/**
 * Discovery endpoints of the Partner API (Partner API spec 4.1 "Discovery", scope `search`; 60 requests per minute per
 * credential, Partner API spec 8), from protocol's operation table. The RequestSender signs, sends, retries and parses.
 */
import { PARTNER_API_OPERATIONS as OPS } from '@domainkit/protocol';
import { partnerEndpoint } from '../endpoint.ts';

/** `GET /domains/search?q=`: up to 5 ranked domains; `q` required, 1–100 characters. */
export const searchDomainsEndpoint = partnerEndpoint('searchDomains', OPS.searchDomains);

/** `GET /domains/{name}`: one listed domain with price, availability and metadata; 404 `not_found` when unlisted. */
export const getDomainEndpoint = partnerEndpoint('getDomain', OPS.getDomain);

/** `GET /availability?domain=`: 200 with `available: false` (not 404) for an unlisted domain. */
export const getAvailabilityEndpoint = partnerEndpoint('getAvailability', OPS.getAvailability);

/** `GET /pricing?domain=`: buy-now and floor price in minor units; 404 `not_found` when unlisted. */
export const getPricingEndpoint = partnerEndpoint('getPricing', OPS.getPricing);
