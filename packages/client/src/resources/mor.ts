/**
 * Merchant of Record (Partner API spec 2.1, 2.2, 3, 4.1 "MoR", "Settlement, history, refunds"; scope `buy`): quotes lock a
 * price for 10 minutes, orders record a sale the partner has already been paid for, refunds undo one before
 * `TRANSFER_COMPLETED`. Quotes and orders are write endpoints (20 requests per minute per credential, Partner API spec 8).
 */
import { PARTNER_API_OPERATIONS as OPS } from '@domainkit/protocol';
import { partnerEndpoint } from '../endpoint.ts';

/** `POST /quotes`: the buy-now price locked for 10 minutes under a signed `quote_id` (Partner API spec 2.2). */
export const createQuoteEndpoint = partnerEndpoint('quotes.create', OPS.createQuote);

/**
 * `POST /orders`: records a partner-collected sale (`EXTERNALLY_PAID`). Requires an Idempotency-Key: one per
 * logical order, generated once when the caller gives none and reused across retries, so the order is safe to
 * retry after a network error or a 5xx (Partner API spec 4.1 "Idempotency on POST /orders").
 */
export const createOrderEndpoint = partnerEndpoint('orders.create', OPS.createOrder);

/** `GET /orders/{public_id}`: one order with its transfer status and timeline. */
export const retrieveOrderEndpoint = partnerEndpoint('orders.retrieve', OPS.getOrder);

/** `GET /orders`: the credential's orders, filtered by status, domain and date range, cursor-paged. */
export const listOrdersEndpoint = partnerEndpoint('orders.list', OPS.listOrders);

/**
 * `POST /refunds`: refund or claw back a partner-collected order before `TRANSFER_COMPLETED`. Carries an
 * Idempotency-Key only when the caller gives one (which also makes it safe to retry after a 5xx).
 */
export const createRefundEndpoint = partnerEndpoint('refunds.create', OPS.createRefund);
