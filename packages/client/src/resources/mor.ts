/**
 * Merchant of Record (Partner API spec 2.1, 2.2, 3, 4.1 "MoR", "Settlement, history, refunds"; scope `buy`): quotes lock a
 * price for 10 minutes, orders record a sale the partner has already been paid for, refunds undo one before
 * `TRANSFER_COMPLETED`. Quotes and orders are write endpoints (20 requests per minute per credential, Partner API spec 8).
 */
import {
  createOrderRequestSchema,
  listOrdersParamsSchema,
  orderListSchema,
  orderSchema,
  quoteRequestSchema,
  quoteSchema,
  refundRequestSchema,
  refundSchema,
} from '@domainkit/protocol';
import { z } from 'zod';
import { PARTNER_API_PREFIX, defineEndpoint } from '../endpoint.ts';

/** `POST /quotes`: the buy-now price locked for 10 minutes under a signed `quote_id` (Partner API spec 2.2). */
export const createQuoteEndpoint = defineEndpoint({
  name: 'quotes.create',
  method: 'POST',
  path: `${PARTNER_API_PREFIX}/quotes`,
  input: quoteRequestSchema,
  response: quoteSchema,
  rateClass: 'write',
});

/**
 * `POST /orders`: records a partner-collected sale (`EXTERNALLY_PAID`). Requires an Idempotency-Key: one per
 * logical order, generated once when the caller gives none and reused across retries, so the order is safe to
 * retry after a network error or a 5xx (Partner API spec 4.1 "Idempotency on POST /orders").
 */
export const createOrderEndpoint = defineEndpoint({
  name: 'orders.create',
  method: 'POST',
  path: `${PARTNER_API_PREFIX}/orders`,
  input: createOrderRequestSchema,
  response: orderSchema,
  idempotencyKey: 'required',
  rateClass: 'write',
});

/** `GET /orders/{public_id}`: one order with its transfer status and timeline. */
export const retrieveOrderEndpoint = defineEndpoint({
  name: 'orders.retrieve',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/orders/{public_id}`,
  input: z.strictObject({
    public_id: z.string().trim().min(1, 'public_id is required (the order id, such as "ord_…")').max(100),
  }),
  response: orderSchema,
  rateClass: 'read',
});

/** `GET /orders`: the credential's orders, filtered by status, domain and date range, cursor-paged. */
export const listOrdersEndpoint = defineEndpoint({
  name: 'orders.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/orders`,
  input: listOrdersParamsSchema,
  response: orderListSchema,
  rateClass: 'read',
});

/**
 * `POST /refunds`: refund or claw back a partner-collected order before `TRANSFER_COMPLETED`. Carries an
 * Idempotency-Key only when the caller gives one (which also makes it safe to retry after a 5xx).
 */
export const createRefundEndpoint = defineEndpoint({
  name: 'refunds.create',
  method: 'POST',
  path: `${PARTNER_API_PREFIX}/refunds`,
  input: refundRequestSchema,
  response: refundSchema,
  rateClass: 'write',
});
