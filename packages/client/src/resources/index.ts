/**
 * The resource groups of {@link PartnerClient} beyond discovery and checkout sessions (Partner API spec 4.1): thin typed
 * wrappers that hand an endpoint description and its input to the {@link RequestSender}, and cursor lists that
 * come back as async iterables.
 */
import type {
  Order,
  Quote,
  Refund,
  MarketplaceEvent,
  WebhookRegistration,
  CreateOrderRequest,
  ListOrdersParams,
  ListEventsParams,
  QuoteRequest,
  RefundRequest,
  WebhookRegistrationRequest,
  settlementSchema,
  transactionSchema,
  transactionListSchema,
  payoutSchema,
  analyticsSchema,
  brokerageCaseSchema,
  clicksReportSchema,
  commissionEntrySchema,
  commissionListSchema,
  referralSaleSchema,
  brokerageEligibilitySchema,
  createBrokerageCaseRequestSchema,
  linkSchema,
  createLinkRequestSchema,
  dateWindowParamsSchema,
  listTransactionsParamsSchema,
} from '@domainkit/protocol';
import type { z } from 'zod';
import { listPages, type ListOptions } from '../list.ts';
import type { PageIterator } from '../pagination.ts';
import type { CallOptions, RequestSender } from '../request-sender.ts';
import {
  brokerageEligibilityEndpoint,
  createBrokerageCaseEndpoint,
  listBrokerageCasesEndpoint,
  retrieveBrokerageCaseEndpoint,
  type listBrokerageCasesParamsSchema,
} from './brokerage.ts';
import { listEventsEndpoint, registerWebhookEndpoint } from './events.ts';
import {
  createOrderEndpoint,
  createQuoteEndpoint,
  createRefundEndpoint,
  listOrdersEndpoint,
  retrieveOrderEndpoint,
} from './mor.ts';
import {
  analyticsEndpoint,
  clicksEndpoint,
  createLinkEndpoint,
  listCommissionsEndpoint,
  listLinksEndpoint,
  listReferralPayoutsEndpoint,
  listSalesEndpoint,
  type dateWindowSchema,
} from './referral.ts';
import { listPayoutsEndpoint, listSettlementsEndpoint, listTransactionsEndpoint } from './reporting.ts';

/** `GET /me/clicks`: click totals in a window, per link (protocol's `clicksReportSchema`). */
export type ClicksReport = z.infer<typeof clicksReportSchema>;
/** A sale attributed to a referral link (`GET /me/sales`). */
export type ReferralSale = z.infer<typeof referralSaleSchema>;
/** A commission ledger line (`GET /me/commissions`), with the running `balance_cents`. */
export type CommissionEntry = z.infer<typeof commissionEntrySchema>;
/** A page of `GET /me/commissions`, with the ledger's `totals`. */
export type CommissionList = z.infer<typeof commissionListSchema>;
/** `GET /analytics`: the referral funnel, GMV and commission over a window. */
export type Analytics = z.infer<typeof analyticsSchema>;
/** A settlement statement (Partner API spec 2.7). */
export type Settlement = z.infer<typeof settlementSchema>;
/** A sale of the transaction history (Partner API spec 2.7). */
export type Transaction = z.infer<typeof transactionSchema>;
/** A page of `GET /transactions`, with its `totals`. */
export type TransactionList = z.infer<typeof transactionListSchema>;
/** A payout (Partner API spec 2.7). */
export type Payout = z.infer<typeof payoutSchema>;
/** A brokerage case (Partner API spec 2.6). */
export type BrokerageCase = z.infer<typeof brokerageCaseSchema>;
/** Answer of `GET /brokerage/eligibility`. */
export type BrokerageEligibility = z.infer<typeof brokerageEligibilitySchema>;
/** Body of `POST /brokerage`. */
export type CreateBrokerageCaseRequest = z.input<typeof createBrokerageCaseRequestSchema>;
/** A tracked referral link. */
export type Link = z.infer<typeof linkSchema>;
/** Body of `POST /links`. */
export type CreateLinkRequest = z.input<typeof createLinkRequestSchema>;
/** `from`, `to` (ISO 8601), `cursor`, `limit` (1–100). */
export type DateWindowParams = z.input<typeof dateWindowParamsSchema>;
/** `from`, `to`. */
export type DateWindow = z.input<typeof dateWindowSchema>;
/** Filters of `GET /transactions`. */
export type ListTransactionsParams = z.input<typeof listTransactionsParamsSchema>;
/** Paging of `GET /brokerage`. */
export type ListBrokerageCasesParams = z.input<typeof listBrokerageCasesParamsSchema>;

/** Options of a write: an abort signal and, for orders, the Idempotency-Key of this logical write. */
export type WriteOptions = CallOptions;

/** The resource groups. Every method may raise the errors of `RequestSender.send`. */
export interface PartnerResources {
  readonly quotes: {
    /**
     * `POST /quotes` (scope `buy`): locks the buy-now price for 10 minutes (Partner API spec 2.2).
     * @throws {MarketplaceError} `not_found` (404) unlisted, `conflict` (409) sold or reserved.
     */
    create(input: QuoteRequest, options?: WriteOptions): Promise<Quote>;
  };
  readonly orders: {
    /**
     * `POST /orders` (scope `buy`): records a sale the partner collected (`EXTERNALLY_PAID`). An Idempotency-Key
     * is always sent: `options.idempotencyKey`, or one generated for this call and reused across its retries.
     * Pass your own key (stored before charging the buyer) to finish the same order after a crash.
     * @throws {MarketplaceError} `quote_expired` / `price_mismatch` (422), `conflict` (409: key reused with
     *   another body).
     */
    create(input: CreateOrderRequest, options?: WriteOptions): Promise<Order>;
    /** `GET /orders/{public_id}`: one order with its timeline. @throws {MarketplaceError} `not_found` (404). */
    retrieve(publicId: string, options?: ListOptions): Promise<Order>;
    /** `GET /orders`: every order matching the filters, page by page as iterated. */
    list(params?: ListOrdersParams, options?: ListOptions): PageIterator<Order>;
  };
  readonly refunds: {
    /** `POST /refunds` (scope `buy`): only before `TRANSFER_COMPLETED`. @throws {MarketplaceError} `conflict` (409) after it. */
    create(input: RefundRequest, options?: WriteOptions): Promise<Refund>;
  };
  readonly settlements: {
    /** `GET /settlements` (scope `buy`). */
    list(params?: DateWindowParams, options?: ListOptions): PageIterator<Settlement>;
  };
  readonly transactions: {
    /** `GET /transactions` (scope `report`); the page's `totals` are on `pages()`'s `raw`. */
    list(params?: ListTransactionsParams, options?: ListOptions): PageIterator<Transaction, TransactionList>;
  };
  readonly payouts: {
    /** `GET /payouts` (scope `report`). */
    list(params?: DateWindowParams, options?: ListOptions): PageIterator<Payout>;
  };
  readonly brokerage: {
    /** `GET /brokerage/eligibility?domain=` (scope `broker`). */
    eligibility(domain: string, options?: ListOptions): Promise<BrokerageEligibility>;
    /** `POST /brokerage` (scope `broker`): `budget` in cents; answers `progress_url` for the buyer. */
    create(input: CreateBrokerageCaseRequest, options?: WriteOptions): Promise<BrokerageCase>;
    /** `GET /brokerage/{case_id}` (scope `broker`). */
    retrieve(caseId: string, options?: ListOptions): Promise<BrokerageCase>;
    /** `GET /brokerage` (scope `report`). */
    list(params?: ListBrokerageCasesParams, options?: ListOptions): PageIterator<BrokerageCase>;
  };
  readonly links: {
    /** `POST /links` (scope `refer`). */
    create(input: CreateLinkRequest, options?: WriteOptions): Promise<Link>;
    /** `GET /links` (scope `refer`). */
    list(params?: { cursor?: string; limit?: number }, options?: ListOptions): PageIterator<Link>;
  };
  readonly me: {
    /** `GET /me/clicks` (scope `report`). */
    clicks(params?: DateWindow, options?: ListOptions): Promise<ClicksReport>;
    /** `GET /me/sales` (scope `report`). */
    sales(params?: DateWindowParams, options?: ListOptions): PageIterator<ReferralSale>;
    /** `GET /me/commissions` (scope `report`); the running balance is on `pages()`'s `raw`. */
    commissions(params?: DateWindowParams, options?: ListOptions): PageIterator<CommissionEntry, CommissionList>;
    /** `GET /me/payouts` (scope `report`). */
    payouts(params?: DateWindowParams, options?: ListOptions): PageIterator<Payout>;
  };
  readonly analytics: {
    /** `GET /analytics` (scope `report`). */
    retrieve(params?: DateWindow, options?: ListOptions): Promise<Analytics>;
  };
  readonly events: {
    /**
     * `GET /events` (scope `webhook`): every event after `after_id` (exclusive; from the first event without it),
     * oldest first, until caught up (`next_cursor: null`). Use the last id you stored to catch up after downtime.
     */
    list(params?: ListEventsParams, options?: ListOptions): PageIterator<MarketplaceEvent>;
  };
  readonly webhooks: {
    /**
     * `PUT /api/partner/webhooks` (scope `webhook`): registers or updates the delivery URL and the signing
     * secret; the answer never echoes the secret.
     */
    register(input: WebhookRegistrationRequest, options?: ListOptions): Promise<WebhookRegistration>;
  };
}

/** Builds the resource groups on one sender. */
export function createResources(sender: RequestSender): PartnerResources {
  const freeze = Object.freeze;
  return freeze({
    quotes: freeze({ create: (input, options) => sender.send(createQuoteEndpoint, input, options) }),
    orders: freeze({
      create: (input, options) => sender.send(createOrderEndpoint, input, options),
      retrieve: (publicId, options) => sender.send(retrieveOrderEndpoint, { public_id: publicId }, options),
      list: (params = {}, options) => listPages(sender, listOrdersEndpoint, 'orders', 'cursor', params, options),
    }),
    refunds: freeze({ create: (input, options) => sender.send(createRefundEndpoint, input, options) }),
    settlements: freeze({
      list: (params = {}, options) =>
        listPages(sender, listSettlementsEndpoint, 'settlements', 'cursor', params, options),
    }),
    transactions: freeze({
      list: (params = {}, options) =>
        listPages(sender, listTransactionsEndpoint, 'transactions', 'cursor', params, options),
    }),
    payouts: freeze({
      list: (params = {}, options) => listPages(sender, listPayoutsEndpoint, 'payouts', 'cursor', params, options),
    }),
    brokerage: freeze({
      eligibility: (domain, options) => sender.send(brokerageEligibilityEndpoint, { domain }, options),
      create: (input, options) => sender.send(createBrokerageCaseEndpoint, input, options),
      retrieve: (caseId, options) => sender.send(retrieveBrokerageCaseEndpoint, { case_id: caseId }, options),
      list: (params = {}, options) => listPages(sender, listBrokerageCasesEndpoint, 'cases', 'cursor', params, options),
    }),
    links: freeze({
      create: (input, options) => sender.send(createLinkEndpoint, input, options),
      list: (params = {}, options) => listPages(sender, listLinksEndpoint, 'links', 'cursor', params, options),
    }),
    me: freeze({
      clicks: (params = {}, options) => sender.send(clicksEndpoint, params, options),
      sales: (params = {}, options) => listPages(sender, listSalesEndpoint, 'sales', 'cursor', params, options),
      commissions: (params = {}, options) =>
        listPages(sender, listCommissionsEndpoint, 'commissions', 'cursor', params, options),
      payouts: (params = {}, options) =>
        listPages(sender, listReferralPayoutsEndpoint, 'payouts', 'cursor', params, options),
    }),
    analytics: freeze({ retrieve: (params = {}, options) => sender.send(analyticsEndpoint, params, options) }),
    events: freeze({
      list: (params = {}, options) => listPages(sender, listEventsEndpoint, 'events', 'after_id', params, options),
    }),
    webhooks: freeze({ register: (input, options) => sender.send(registerWebhookEndpoint, input, options) }),
  } satisfies PartnerResources);
}
