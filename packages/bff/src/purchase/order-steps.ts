/**
 * Each step of an MoR order, told once (Partner API spec 3, 6): when the inbox applies an order event that moved the
 * order (`order.recorded`, `order.held_for_review`, `order.manual_review_cleared`, `order.transfer_started`,
 * `order.transfer_completed`, `order.settled`, `order.refunded`), the partner's `onOrderEvent` hook gets the step,
 * with the buyer the BFF recorded the order for, so it can e-mail them. A step is noted in `bff_order_steps` (one row
 * per order and event type) once the hook returned: an event delivered twice, caught up after its webhook, or a
 * second event of the same type reaches the hook once. An older event that did not move the order is not a step.
 * A hook that throws is called again when the inbox retries the event (at least once, never twice after success).
 */
import type { MarketplaceEvent } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { BffDb } from '../db/tables.ts';
import type { StoredOrder } from './order-store.ts';

/** One step of an order, as `onOrderEvent` receives it. */
export interface OrderStep {
  /** The marketplace's order id (`public_id`, Partner API spec 2.1). */
  readonly orderId: string;
  readonly domain: string;
  /** The order status the step moved it to (`TRANSFER_IN_PROGRESS`, …; Partner API spec 3). */
  readonly status: string;
  /** The event type (`order.transfer_started`, …; Partner API spec 6). */
  readonly eventType: string;
  /** The event id (stable across redeliveries). */
  readonly eventId: string;
  /** When the marketplace emitted the event (ISO 8601 UTC). */
  readonly occurredAt: string;
  /** Sale price in minor units (cents) of `currency`. */
  readonly salePriceCents: number;
  readonly currency: string;
  /**
   * The buyer the order was placed for through this BFF (`POST /orders`): `{email, name?, country?}`; undefined for
   * an order placed elsewhere with the same credential.
   */
  readonly buyer: { readonly email: string; readonly name?: string; readonly country?: string } | undefined;
}

/** The partner's hook: called once per step of each order. A throw makes the inbox call it again later. */
export type OrderEventHook = (step: OrderStep) => void | Promise<void>;

/** What {@link orderStepHandler} uses. */
export interface OrderStepDeps {
  readonly db: () => Promise<BffDb>;
  readonly now: () => number;
  readonly logger: Logger;
  /** Told of every order an event named (wakes the buyers waiting on it). */
  readonly moved: (orderId: string) => void;
  /** Option `onOrderEvent`, if set. */
  readonly hook: OrderEventHook | undefined;
}

/** What the inbox tells a handler beside the event (webhooks/ `EventContext`). */
interface StepContext {
  readonly order: StoredOrder | undefined;
  readonly applied: boolean;
}

/** The inbox handler (`*`) that wakes waiting buyers and calls `onOrderEvent` once per step. */
export function orderStepHandler(
  deps: OrderStepDeps,
): (event: MarketplaceEvent, context: StepContext) => Promise<void> {
  return async function domainkitOrderStep(event, context) {
    const order = context.order;
    if (order === undefined) return;
    deps.moved(order.order_id);
    if (deps.hook === undefined || !context.applied || !event.type.startsWith('order.')) return;
    const status = (event.data as { order?: { status?: unknown } }).order?.status;
    const db = await deps.db();
    const told = await db
      .selectFrom('bff_order_steps')
      .select('event_id')
      .where('order_id', '=', order.order_id)
      .where('event_type', '=', event.type)
      .executeTakeFirst();
    if (told !== undefined) return;
    const intent = await db
      .selectFrom('bff_order_intents')
      .select('buyer')
      .where('order_id', '=', order.order_id)
      .executeTakeFirst();
    const step: OrderStep = {
      orderId: order.order_id,
      domain: order.domain,
      status: typeof status === 'string' ? status : order.status,
      eventType: event.type,
      eventId: event.id,
      occurredAt: event.created_at,
      salePriceCents: Number(order.sale_price_cents),
      currency: order.currency,
      buyer: intent === undefined ? undefined : (JSON.parse(intent.buyer) as OrderStep['buyer']),
    };
    await deps.hook(step);
    await db
      .insertInto('bff_order_steps')
      .values({
        order_id: step.orderId,
        event_type: step.eventType,
        status: step.status,
        event_id: step.eventId,
        notified_at: new Date(deps.now()),
      })
      .onConflict((oc) => oc.columns(['order_id', 'event_type']).doNothing())
      .execute();
    deps.logger.info({ order: step.orderId, type: step.eventType }, 'onOrderEvent told of an order step');
  };
}
