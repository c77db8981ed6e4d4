/**
 * The Partner API calls the BFF makes (Partner API spec 4.1), as one type every module that calls upstream
 * depends on.
 */
import type { PartnerClient } from '@domainkit/client';

/**
 * The Partner API calls the BFF makes; a {@link PartnerClient} satisfies it (tests may inject a fake). An injected
 * client keeps its own upstream budget: the BFF's token buckets apply to the client it creates from `marketplace`.
 */
export type MarketplaceApi = Pick<
  PartnerClient,
  | 'searchDomains'
  | 'getDomain'
  | 'createCheckoutSession'
  | 'quotes'
  | 'orders'
  | 'refunds'
  | 'events'
  | 'webhooks'
  | 'brokerage'
>;
