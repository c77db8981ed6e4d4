/**
 * The Partner API's operations (Partner API spec 4.1, 5.1 "Scopes", 8): the one table of its endpoints. Each entry
 * holds what every side of the wire needs: method and path, the scope and rate class, the call's input, the answer's
 * status and schema, the error codes beyond the common ones, and whether it takes an `Idempotency-Key`.
 *
 * `@domainkit/client` builds its endpoints from it and protocol's OpenAPI document is generated from it, so an
 * endpoint is added here once.
 */
import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import type { RateClass } from './limits.ts';
import { checkoutSessionRequestSchema, checkoutSessionSchema } from './schemas/checkout.ts';
import {
  availabilitySchema,
  domainDetailSchema,
  domainParamsSchema,
  domainPathParamsSchema,
  domainSearchParamsSchema,
  domainSearchResponseSchema,
  pricingSchema,
} from './schemas/discovery.ts';
import {
  eventListSchema,
  listEventsParamsSchema,
  webhookRegistrationRequestSchema,
  webhookRegistrationSchema,
} from './schemas/events.ts';
import { pageParamsSchema } from './schemas/lists.ts';
import {
  createOrderRequestSchema,
  listOrdersParamsSchema,
  orderListSchema,
  orderParamsSchema,
  orderSchema,
  quoteRequestSchema,
  quoteSchema,
  refundRequestSchema,
  refundSchema,
} from './schemas/orders.ts';
import {
  analyticsSchema,
  brokerageCaseListParamsSchema,
  brokerageCaseListSchema,
  brokerageCaseParamsSchema,
  brokerageCaseSchema,
  brokerageEligibilitySchema,
  clicksReportSchema,
  commissionListSchema,
  createBrokerageCaseRequestSchema,
  createLinkRequestSchema,
  dateRangeParamsSchema,
  dateWindowParamsSchema,
  linkListSchema,
  linkSchema,
  listTransactionsParamsSchema,
  payoutListSchema,
  referralSaleListSchema,
  settlementListSchema,
  transactionListSchema,
} from './schemas/reporting.ts';

/** A credential scope of the Partner API (Partner API spec 5.1 "Scopes"); a request without it answers 403 `forbidden`. */
export type PartnerScope = 'search' | 'embed' | 'buy' | 'broker' | 'refer' | 'report' | 'webhook';

/** The groups of the Partner API's operations, as the OpenAPI document tags them. */
export type PartnerOperationTag =
  | 'Discovery'
  | 'Checkout'
  | 'Merchant of Record'
  | 'Events'
  | 'Reporting'
  | 'Brokerage'
  | 'Referral';

/**
 * One operation of the Partner API.
 * @typeParam TInput - the call's input: the fields named by a `{placeholder}` in `path` fill the path; the others
 *   are the query of a GET or the JSON body of a POST or PUT.
 * @typeParam TAnswer - the answer of `status`; object schemas keep unknown fields.
 */
export interface PartnerOperation<TInput extends z.ZodType = z.ZodType, TAnswer extends z.ZodType = z.ZodType> {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Path under `{base_url}/api/partner`, such as `/v1/domains/{name}` (the webhook registration has no `/v1`). */
  readonly path: string;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly tag: PartnerOperationTag;
  /** The scope the credential must hold. */
  readonly scope: PartnerScope;
  /** The rate-limit class the request is counted in (Partner API spec 8, `RATE_CLASSES`). */
  readonly rateClass: RateClass;
  /** The call's input, path parameters included. */
  readonly input: TInput;
  /** The status of a successful answer: 201 when the call created something. */
  readonly status: 200 | 201;
  readonly answer: TAnswer;
  /** Error codes the operation may answer beyond the ones every signed request may meet (Partner API spec 7). */
  readonly errors: readonly ErrorCode[];
  /**
   * Whether the operation takes an `Idempotency-Key`: `required` (every call carries one; a replay answers the
   * stored answer with `Idempotent-Replayed: true`), `optional` (honoured when sent), or absent (not taken).
   */
  readonly idempotencyKey?: 'required' | 'optional';
}

/** Declares an operation, keeping its schemas' types. */
function operation<TInput extends z.ZodType, TAnswer extends z.ZodType>(
  entry: PartnerOperation<TInput, TAnswer>,
): PartnerOperation<TInput, TAnswer> {
  return Object.freeze(entry);
}

/** Every operation of the Partner API (Partner API spec 4.1), by `operationId`, in the spec's order. */
export const PARTNER_API_OPERATIONS = Object.freeze({
  searchDomains: operation({
    method: 'GET',
    path: '/v1/domains/search',
    summary: 'Search listed domains',
    tag: 'Discovery',
    scope: 'search',
    rateClass: 'search',
    input: domainSearchParamsSchema,
    status: 200,
    answer: domainSearchResponseSchema,
    errors: ['validation_error'],
  }),
  getDomain: operation({
    method: 'GET',
    path: '/v1/domains/{name}',
    summary: 'Get one listed domain',
    tag: 'Discovery',
    scope: 'search',
    rateClass: 'search',
    input: domainPathParamsSchema,
    status: 200,
    answer: domainDetailSchema,
    errors: ['validation_error', 'not_found'],
  }),
  getAvailability: operation({
    method: 'GET',
    path: '/v1/availability',
    summary: 'Check whether a domain can be bought',
    tag: 'Discovery',
    scope: 'search',
    rateClass: 'search',
    input: domainParamsSchema,
    status: 200,
    answer: availabilitySchema,
    errors: ['validation_error', 'not_found'],
  }),
  getPricing: operation({
    method: 'GET',
    path: '/v1/pricing',
    summary: 'Get the buy-now and floor price of a domain',
    tag: 'Discovery',
    scope: 'search',
    rateClass: 'search',
    input: domainParamsSchema,
    status: 200,
    answer: pricingSchema,
    errors: ['validation_error', 'not_found'],
  }),
  createCheckoutSession: operation({
    method: 'POST',
    path: '/v1/checkout-session',
    summary: 'Create a hosted checkout session',
    tag: 'Checkout',
    scope: 'embed',
    rateClass: 'write',
    input: checkoutSessionRequestSchema,
    status: 201,
    answer: checkoutSessionSchema,
    errors: ['validation_error', 'not_found', 'conflict'],
  }),
  createQuote: operation({
    method: 'POST',
    path: '/v1/quotes',
    summary: 'Lock a price for 10 minutes (Merchant of Record)',
    tag: 'Merchant of Record',
    scope: 'buy',
    rateClass: 'write',
    input: quoteRequestSchema,
    status: 201,
    answer: quoteSchema,
    errors: ['validation_error', 'not_found', 'conflict'],
  }),
  createOrder: operation({
    method: 'POST',
    path: '/v1/orders',
    summary: 'Record an order the partner was paid for (Merchant of Record)',
    tag: 'Merchant of Record',
    scope: 'buy',
    rateClass: 'write',
    input: createOrderRequestSchema,
    status: 201,
    answer: orderSchema,
    errors: ['validation_error', 'missing_idempotency_key', 'not_found', 'conflict', 'price_mismatch', 'quote_expired'],
    idempotencyKey: 'required',
  }),
  listOrders: operation({
    method: 'GET',
    path: '/v1/orders',
    summary: 'List orders',
    tag: 'Merchant of Record',
    scope: 'buy',
    rateClass: 'read',
    input: listOrdersParamsSchema,
    status: 200,
    answer: orderListSchema,
    errors: ['validation_error'],
  }),
  getOrder: operation({
    method: 'GET',
    path: '/v1/orders/{public_id}',
    summary: 'Get one order with its timeline',
    tag: 'Merchant of Record',
    scope: 'buy',
    rateClass: 'read',
    input: orderParamsSchema,
    status: 200,
    answer: orderSchema,
    errors: ['validation_error', 'not_found'],
  }),
  createRefund: operation({
    method: 'POST',
    path: '/v1/refunds',
    summary: 'Refund an order',
    tag: 'Merchant of Record',
    scope: 'buy',
    rateClass: 'write',
    input: refundRequestSchema,
    status: 201,
    answer: refundSchema,
    errors: ['validation_error', 'not_found', 'conflict'],
    idempotencyKey: 'optional',
  }),
  registerWebhook: operation({
    method: 'PUT',
    path: '/webhooks',
    summary: 'Register the webhook URL and secret',
    tag: 'Events',
    scope: 'webhook',
    rateClass: 'manage',
    input: webhookRegistrationRequestSchema,
    status: 200,
    answer: webhookRegistrationSchema,
    errors: ['validation_error'],
  }),
  listEvents: operation({
    method: 'GET',
    path: '/v1/events',
    summary: 'List events after a cursor (catch-up)',
    tag: 'Events',
    scope: 'webhook',
    rateClass: 'read',
    input: listEventsParamsSchema,
    status: 200,
    answer: eventListSchema,
    errors: ['validation_error'],
  }),
  listSettlements: operation({
    method: 'GET',
    path: '/v1/settlements',
    summary: 'List settlements',
    tag: 'Reporting',
    scope: 'buy',
    rateClass: 'reporting',
    input: dateWindowParamsSchema,
    status: 200,
    answer: settlementListSchema,
    errors: ['validation_error'],
  }),
  listTransactions: operation({
    method: 'GET',
    path: '/v1/transactions',
    summary: 'List transactions',
    tag: 'Reporting',
    scope: 'report',
    rateClass: 'reporting',
    input: listTransactionsParamsSchema,
    status: 200,
    answer: transactionListSchema,
    errors: ['validation_error'],
  }),
  listPayouts: operation({
    method: 'GET',
    path: '/v1/payouts',
    summary: 'List payouts to the partner',
    tag: 'Reporting',
    scope: 'report',
    rateClass: 'reporting',
    input: dateWindowParamsSchema,
    status: 200,
    answer: payoutListSchema,
    errors: ['validation_error'],
  }),
  getBrokerageEligibility: operation({
    method: 'GET',
    path: '/v1/brokerage/eligibility',
    summary: 'Whether a domain can be brokered',
    tag: 'Brokerage',
    scope: 'broker',
    rateClass: 'read',
    input: domainParamsSchema,
    status: 200,
    answer: brokerageEligibilitySchema,
    errors: ['validation_error'],
  }),
  createBrokerageCase: operation({
    method: 'POST',
    path: '/v1/brokerage',
    summary: 'Open a brokerage case',
    tag: 'Brokerage',
    scope: 'broker',
    rateClass: 'manage',
    input: createBrokerageCaseRequestSchema,
    status: 201,
    answer: brokerageCaseSchema,
    errors: ['validation_error', 'conflict'],
  }),
  getBrokerageCase: operation({
    method: 'GET',
    path: '/v1/brokerage/{case_id}',
    summary: 'Get one brokerage case',
    tag: 'Brokerage',
    scope: 'broker',
    rateClass: 'read',
    input: brokerageCaseParamsSchema,
    status: 200,
    answer: brokerageCaseSchema,
    errors: ['validation_error', 'not_found'],
  }),
  listBrokerageCases: operation({
    method: 'GET',
    path: '/v1/brokerage',
    summary: 'List brokerage cases',
    tag: 'Brokerage',
    scope: 'report',
    rateClass: 'reporting',
    input: brokerageCaseListParamsSchema,
    status: 200,
    answer: brokerageCaseListSchema,
    errors: ['validation_error'],
  }),
  createLink: operation({
    method: 'POST',
    path: '/v1/links',
    summary: 'Create a tracked referral link',
    tag: 'Referral',
    scope: 'refer',
    rateClass: 'manage',
    input: createLinkRequestSchema,
    status: 201,
    answer: linkSchema,
    errors: ['validation_error'],
  }),
  listLinks: operation({
    method: 'GET',
    path: '/v1/links',
    summary: 'List referral links',
    tag: 'Referral',
    scope: 'refer',
    rateClass: 'read',
    input: pageParamsSchema,
    status: 200,
    answer: linkListSchema,
    errors: ['validation_error'],
  }),
  getClicks: operation({
    method: 'GET',
    path: '/v1/me/clicks',
    summary: 'Clicks on referral links',
    tag: 'Referral',
    scope: 'report',
    rateClass: 'reporting',
    input: dateRangeParamsSchema,
    status: 200,
    answer: clicksReportSchema,
    errors: ['validation_error'],
  }),
  listReferralSales: operation({
    method: 'GET',
    path: '/v1/me/sales',
    summary: 'Sales through referral links',
    tag: 'Referral',
    scope: 'report',
    rateClass: 'reporting',
    input: dateWindowParamsSchema,
    status: 200,
    answer: referralSaleListSchema,
    errors: ['validation_error'],
  }),
  listCommissions: operation({
    method: 'GET',
    path: '/v1/me/commissions',
    summary: 'Referral commissions',
    tag: 'Referral',
    scope: 'report',
    rateClass: 'reporting',
    input: dateWindowParamsSchema,
    status: 200,
    answer: commissionListSchema,
    errors: ['validation_error'],
  }),
  listReferralPayouts: operation({
    method: 'GET',
    path: '/v1/me/payouts',
    summary: 'Payouts of referral commissions',
    tag: 'Referral',
    scope: 'report',
    rateClass: 'reporting',
    input: dateWindowParamsSchema,
    status: 200,
    answer: payoutListSchema,
    errors: ['validation_error'],
  }),
  getAnalytics: operation({
    method: 'GET',
    path: '/v1/analytics',
    summary: 'Referral analytics: clicks, sales, GMV, commission',
    tag: 'Referral',
    scope: 'report',
    rateClass: 'reporting',
    input: dateRangeParamsSchema,
    status: 200,
    answer: analyticsSchema,
    errors: ['validation_error'],
  }),
});

/** The `operationId` of a Partner API operation (`searchDomains`, `createOrder`, …). */
export type PartnerOperationId = keyof typeof PARTNER_API_OPERATIONS;
