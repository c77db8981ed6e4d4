/**
 * Discovery endpoints of the Partner API (Partner API spec 4.1 "Discovery", scope `search`; 60 requests per minute per
 * credential, Partner API spec 8). Descriptions only: the RequestSender signs, sends, retries and parses.
 */
import {
  availabilitySchema,
  domainDetailSchema,
  domainNameSchema,
  domainParamsSchema,
  domainSearchParamsSchema,
  domainSearchResponseSchema,
  pricingSchema,
} from '@domainkit/protocol';
import { z } from 'zod';
import { PARTNER_API_PREFIX, defineEndpoint } from '../endpoint.ts';

/** `GET /domains/search?q=`: up to 5 ranked domains; `q` required, 1–100 characters. */
export const searchDomainsEndpoint = defineEndpoint({
  name: 'searchDomains',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/domains/search`,
  input: domainSearchParamsSchema,
  response: domainSearchResponseSchema,
  rateClass: 'search',
});

/** `GET /domains/{name}`: one listed domain with price, availability and metadata; 404 `not_found` when unlisted. */
export const getDomainEndpoint = defineEndpoint({
  name: 'getDomain',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/domains/{name}`,
  input: z.strictObject({ name: domainNameSchema }),
  response: domainDetailSchema,
  rateClass: 'search',
});

/** `GET /availability?domain=`: 200 with `available: false` (not 404) for an unlisted domain. */
export const getAvailabilityEndpoint = defineEndpoint({
  name: 'getAvailability',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/availability`,
  input: domainParamsSchema,
  response: availabilitySchema,
  rateClass: 'search',
});

/** `GET /pricing?domain=`: buy-now and floor price in minor units; 404 `not_found` when unlisted. */
export const getPricingEndpoint = defineEndpoint({
  name: 'getPricing',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/pricing`,
  input: domainParamsSchema,
  response: pricingSchema,
  rateClass: 'search',
});
