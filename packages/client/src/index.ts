/**
 * @domainkit/client: the typed Partner API client (Partner API spec 4.1, 5.1, 5.3, 7), on undici on Node and on the platform fetch on workerd, Bun and Deno: every endpoint, each attempt
 * signed afresh, retries with back-off, one Idempotency-Key per logical order, cursor lists as async iterables,
 * responses parsed with the protocol's zod schemas, and webhook verification for any framework.
 */
export { PartnerClient, CLIENT_VERSION, type PartnerClientOptions } from './partner-client.ts';
export {
  RequestSender,
  bearerAuth,
  hmacAuth,
  lastResponseOf,
  type AuthRequest,
  type AuthorizedRequest,
  type RequestAuth,
  type RequestSenderOptions,
  type CallOptions,
  type LastResponse,
  type AttemptReport,
  type Sleep,
} from './request-sender.ts';
export {
  MarketplaceError,
  MarketplaceConnectionError,
  MarketplaceResponseError,
  MarketplaceValidationError,
  CLIENT_ERROR_CODES,
  BEARER_ERROR_CODES,
  isMarketplaceErrorCode,
  type BearerErrorCode,
  errorFromResponse,
  parseRetryAfter,
  type MarketplaceErrorFields,
  type MarketplaceErrorCode,
  type ClientErrorCode,
  type ErrorResponse,
} from './errors.ts';
export {
  RETRY_RULES,
  IDEMPOTENT_METHODS,
  backoffDelayMs,
  retryRuleFor,
  type RetryRule,
  type AttemptOutcome,
  type BackoffOptions,
} from './retry.ts';
export {
  PARTNER_API_PREFIX,
  defineEndpoint,
  endpointLabel,
  type Endpoint,
  type HttpMethod,
  type RateClass,
} from './endpoint.ts';
export type { UpstreamBudget, BudgetRequest, RateLimitedNotice } from './budget.ts';
export { PageIterator, type Page, type PageFetcher } from './pagination.ts';
export type { ListOptions } from './list.ts';
export {
  constructEvent,
  createWebhookVerifier,
  WebhookPayloadError,
  WebhookSignatureError,
  type WebhookVerifier,
  type WebhookHeaders,
  type SignatureHeaderValue,
} from './webhooks.ts';
export {
  searchDomainsEndpoint,
  getDomainEndpoint,
  getAvailabilityEndpoint,
  getPricingEndpoint,
} from './resources/discovery.ts';
export { createCheckoutSessionEndpoint } from './resources/checkout.ts';
export {
  createQuoteEndpoint,
  createOrderEndpoint,
  retrieveOrderEndpoint,
  listOrdersEndpoint,
  createRefundEndpoint,
} from './resources/mor.ts';
export { listEventsEndpoint, registerWebhookEndpoint } from './resources/events.ts';
export { listSettlementsEndpoint, listTransactionsEndpoint, listPayoutsEndpoint } from './resources/reporting.ts';
export {
  brokerageEligibilityEndpoint,
  createBrokerageCaseEndpoint,
  retrieveBrokerageCaseEndpoint,
  listBrokerageCasesEndpoint,
  listBrokerageCasesParamsSchema,
} from './resources/brokerage.ts';
export {
  createLinkEndpoint,
  listLinksEndpoint,
  clicksEndpoint,
  listSalesEndpoint,
  listCommissionsEndpoint,
  listReferralPayoutsEndpoint,
  analyticsEndpoint,
  reportRecordSchema,
  type ReportRecord,
} from './resources/referral.ts';
export type {
  PartnerResources,
  WriteOptions,
  Settlement,
  Transaction,
  TransactionList,
  ClicksReport,
  ReferralSale,
  CommissionEntry,
  CommissionList,
  Analytics,
  Payout,
  BrokerageCase,
  BrokerageEligibility,
  CreateBrokerageCaseRequest,
  Link,
  CreateLinkRequest,
  DateWindowParams,
  DateWindow,
  ListTransactionsParams,
  ListBrokerageCasesParams,
} from './resources/index.ts';
/** The undici transport type accepted by the `dispatcher` option. */
export type { Dispatcher } from 'undici';
export type {
  Availability,
  CheckoutSession,
  CheckoutSessionRequest,
  Domain,
  DomainDetail,
  DomainSearchResponse,
  Pricing,
  Quote,
  QuoteRequest,
  Order,
  OrderStatus,
  CreateOrderRequest,
  ListOrdersParams,
  Refund,
  RefundRequest,
  MarketplaceEvent,
  EventType,
  ListEventsParams,
  WebhookRegistration,
  WebhookRegistrationRequest,
} from '@domainkit/protocol';
// Public API (Public API spec 4.2) and its OAuth 2.1 sign-in (Public API spec 5.2).
export {
  PublicClient,
  type PublicClientOptions,
  type PublicCallOptions,
  type AccessTokenSource,
  type BatchOperation,
  type BulkOperation,
} from './public/public-client.ts';
export type {
  TldOperation,
  PublicDomainSearchResponseLenient,
  PublicDomainResultLenient,
  PublicMarketPriceLenient,
  PublicWhoisRecordLenient,
  PublicTldPriceLenient,
  PublicTldMetadataLenient,
  PublicListingLenient,
  PublicListingsPageLenient,
  PublicBatchResultLenient,
  PublicBatchCatalogueLenient,
  PublicOwnedDomainLenient,
  PublicBulkResponseLenient,
  PublicApiIndexLenient,
} from '@domainkit/protocol';
export {
  PublicSignIn,
  SignInSession,
  SignInError,
  type TokenSet,
  type RegisteredClient,
  type PendingAuthorization,
  type DiscoverOptions,
} from './oauth/sign-in.ts';
