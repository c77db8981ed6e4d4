/**
 * The MoR order routes (docs/architecture.md "The widget ↔ BFF API"):
 *
 * - `POST /orders` with `{"quote_id", "buyer": {"email", "name"?, "country"?}, "payment": {…}}` and, from the
 *   widget, an `Idempotency-Key` header (the purchase key: one random key per purchase attempt) → 201 with the
 *   recorded order and its `order_token`, or 202 `PROCESSING` when the payment went through and the record is
 *   still being retried; 422 `quote_expired` / `price_mismatch` (with `price_cents`), 402 `payment_declined`,
 *   503 `busy`. The price always comes from the stored quote. A retry with the same key and quote is answered from
 *   the intent it started (its status and one more `order_token`; earlier ones keep working), never with a second
 *   payment step; the key with another quote gets 409 `conflict` revealing nothing (unless its attempt ended:
 *   then it starts a new one); a request without the key for a quote whose order is in flight gets 409
 *   `order_in_progress` with that order's `order_id` and `status`.
 * - `GET /orders/:id` with header `X-Order-Token` → 200 `{"order_id", "status", "domain", "sale_price_cents",
 *   "currency", "updated_at"}`; 404 when the order is unknown or the token does not match (the same answer, so
 *   an order's existence is not revealed).
 */
import { named } from '../http/widget.ts';
import { buyerSchema, widgetOrderRequestSchema, type WidgetMoney, type WidgetOrderStatus } from '@domainkit/protocol';
import { z } from 'zod';
import { toCents } from '../db/tables.ts';
import {
  BffHttpError,
  busyAnswer,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  UpstreamBusyError,
} from '../errors.ts';
import { PaymentInputError } from './payments.ts';
import type { BffDb } from '../db/tables.ts';
import type { OrderFlowDeps } from './deps.ts';
import { placeOrder } from './flow.ts';
import { intentMoney, intentStatus } from './views.ts';
import { findIntentForView, viewTokenMatches } from './order-store.ts';
import { type BffRequest, JSON_BODY_LIMIT_BYTES, json, readJson, type RouteHandler } from '../http/index.ts';
import { noQuerySchema, parseInput } from '../validate.ts';
import { purchaseKeyOf } from './purchase-key.ts';

/** The order-view token header. */
export const ORDER_TOKEN_HEADER = 'X-Order-Token';

const HELP = {
  quote_id: { label: '`quote_id`', hint: 'the quote from POST /quotes', example: 'qt_…' },
  buyer: { label: '`buyer`', hint: 'the buyer: {"email", "name"?, "country"?}', example: '' },
  payment: { label: '`payment`', hint: 'the payment provider payload', example: '' },
};

/** What the order placement route uses. */
export interface PlaceOrderRouteDeps {
  /** What the order flow needs. @throws {BffHttpError} 503 `unavailable` when the database is not available. */
  readonly orderFlow: () => Promise<OrderFlowDeps>;
}
/** The order placement route (`POST /orders`; the cross-site and visitor-limit checks run before it). */
export function placeOrderRoute(route: PlaceOrderRouteDeps): RouteHandler {
  return async function domainkitBffPlaceOrder(req: BffRequest): Promise<Response> {
    // The body checks first (415, 413, 400 for unreadable JSON): their answers carry no `money` field.
    const sent = await readJson(req, JSON_BODY_LIMIT_BYTES);
    // Whether a payment step may have run: before the intent is stored, nothing can have been charged.
    let started = false;
    let answer: Awaited<ReturnType<typeof placeOrder>>;
    try {
      parseInput(noQuerySchema, req.query, 'query');
      const purchaseKey = purchaseKeyOf(req);
      const input = parseInput(widgetOrderRequestSchema, sent, 'body', HELP);
      const deps = await route.orderFlow();
      const payment = deps.payments.parsePayment ? deps.payments.parsePayment(input.payment) : input.payment;
      answer = await placeOrder(deps, {
        quoteId: input.quote_id,
        buyer: buyerSchema.parse(input.buyer),
        payment,
        purchaseKey,
        onStarted: (processing) => {
          started = true;
          // Past the request's deadline the visitor gets the purchase's status; the purchase goes on.
          req.onDeadline(() => ({ status: 202, body: processing }));
        },
      });
    } catch (error) {
      throw withMoney(error, started ? 'unknown' : 'not_charged');
    }
    return json(answer.body, answer.status);
  };
}

/**
 * `error` with the `money` field every failed `POST /orders` carries: its own when the order flow set one, else
 * `fallback` (`not_charged` when no payment step ran, `unknown` otherwise); a database out of reach is 503
 * `unavailable` with it (the payment may have been taken before the cut). Errors that are not answers yet (a defect)
 * are left to the error handler.
 */
function withMoney(error: unknown, fallback: WidgetMoney): unknown {
  const answer =
    error instanceof UpstreamBusyError
      ? busyAnswer(error)
      : error instanceof PaymentInputError
        ? new BffHttpError('validation_error', error.message)
        : isDatabaseUnavailable(error)
          ? new BffHttpError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, { cause: error })
          : error;
  if (!(answer instanceof BffHttpError) || answer.extra?.money !== undefined) return answer;
  return new BffHttpError(answer.code, answer.message, {
    retryAfter: answer.retryAfter,
    cause: answer.cause ?? error,
    extra: { ...answer.extra, money: fallback },
  });
}

const paramsSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an order id such as "ord_…"'),
});
const NOT_FOUND = 'No such order for this order token.';

/** What the order view route uses. */
export interface OrderStatusRouteDeps {
  /** The open database. @throws {BffHttpError} 503 `unavailable` when it is not available. */
  readonly db: () => Promise<BffDb>;
}

/** The order view route (`GET /orders/:id`). */
export function orderStatusRoute(deps: OrderStatusRouteDeps): RouteHandler {
  return async function domainkitBffOrderStatus(req: BffRequest): Promise<Response> {
    parseInput(noQuerySchema, req.query, 'query');
    const { id } = parseInput(paramsSchema, { id: req.params.id }, 'path', {
      id: { label: 'The order id in the path', hint: 'the order_id from POST /orders', example: 'ord_…' },
    });
    const token = req.header(ORDER_TOKEN_HEADER);
    const db = await deps.db();
    const found = await findIntentForView(db, id);
    if (found === undefined || !(await viewTokenMatches(db, found.intent, token)))
      throw new BffHttpError('not_found', NOT_FOUND);
    const { intent, order } = found;
    const body: WidgetOrderStatus = {
      order_id: intent.order_id ?? intent.intent_id,
      status: order?.status ?? intentStatus(intent),
      ...named(order?.domain ?? intent.domain),
      sale_price_cents: toCents(order?.sale_price_cents ?? intent.price_cents),
      currency: order?.currency ?? intent.currency,
      updated_at: new Date(Math.max(intent.updated_at.getTime(), order?.updated_at.getTime() ?? 0)).toISOString(),
    };
    const money = order === undefined ? intentMoney(intent) : undefined;
    if (money !== undefined) body.money = money;
    return json(body, 200);
  };
}
