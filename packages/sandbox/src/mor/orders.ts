/**
 * MoR quotes and orders (Partner API spec 2.1, 2.2, 3): the partner collects payment from its buyer, locks the price with a
 * quote, records the sale as an order, and the service moves the order through its states, emitting an event at
 * every step (Partner API spec 6).
 *
 * The state machine (`ORDER_TRANSITIONS` of the protocol; names of the held, refunded and cancelled states and the
 * source state of each move are domainkit's choices, docs/spec-decisions.md):
 *
 * | action | from | to | event |
 * |---|---|---|---|
 * | `POST /orders` | (new) | `EXTERNALLY_PAID` | `order.recorded` |
 * | hold (admin; automatic for `always-held.com`) | `EXTERNALLY_PAID` | `HELD_FOR_REVIEW` | `order.held_for_review` |
 * | clear review (admin) | `HELD_FOR_REVIEW` | `EXTERNALLY_PAID` | `order.manual_review_cleared` |
 * | start transfer (admin) | `EXTERNALLY_PAID` | `TRANSFER_IN_PROGRESS` | `order.transfer_started` |
 * | confirm delivery (admin) | `TRANSFER_IN_PROGRESS` | `TRANSFER_COMPLETED` | `order.transfer_completed` |
 * | settlement run | `TRANSFER_COMPLETED` | `SETTLED` | `order.settled` |
 * | `POST /refunds`, refund (admin) | `EXTERNALLY_PAID`, `HELD_FOR_REVIEW`, `TRANSFER_IN_PROGRESS` | `REFUNDED` | `order.refunded` |
 * | cancel (admin) | same | `CANCELLED` | `order.refunded` |
 *
 * Anything else is refused with 409 `conflict` and a message naming the order's status and what would be allowed.
 * A refunded or cancelled order puts its domain back on sale.
 */
import { ORDER_TRANSITIONS, type ErrorCode, type EventType, type OrderStatus } from '@domainkit/protocol';
import type { CredentialRow, OrderRow, OrderTimelineRow, QuoteRow, SandboxExecutor, SandboxTrx } from '../db/tables.ts';
import { COMMISSION_BPS, shareOf } from '../economics.ts';
import { emitEvent, type WireEvent } from '../events/store.ts';
import { apiError } from '../http/api-error.ts';
import { randomId } from '../ids.ts';
import { markQuoteUsed, takeQuoteForOrder } from '../quotes/quotes.ts';
import { reservationConflict } from '../quotes/reservations.ts';

/** An order on the wire (Partner API spec 2.1), with its timeline when asked for one. */
export function toOrderWire(row: OrderRow, timeline?: readonly OrderTimelineRow[]) {
  return {
    public_id: row.public_id,
    domain: row.domain,
    status: row.status,
    sale_price_cents: row.sale_price_cents,
    currency: row.currency,
    commission_cents: row.commission_cents,
    quote_id: row.quote_id,
    external_payment_ref: row.external_payment_ref,
    buyer:
      row.buyer_email === null ? null : { email: row.buyer_email, name: row.buyer_name, country: row.buyer_country },
    return_url: row.return_url,
    cancel_url: row.cancel_url,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    transfer_completed_at: row.transfer_completed_at?.toISOString() ?? null,
    settled_at: row.settled_at?.toISOString() ?? null,
    settlement_id: row.settlement_id,
    ...(timeline
      ? {
          timeline: timeline.map((t) => ({
            status: t.status,
            at: t.at.toISOString(),
            event_type: t.event_type,
            event_id: t.event_id,
            note: t.note,
          })),
        }
      : {}),
  };
}

/** `data` of an order event (Partner API spec 2.5): `order` with `public_id`, `domain`, `status`, `sale_price_cents`, `currency`. */
export function orderEventData(row: OrderRow): { order: Record<string, unknown> } {
  return {
    order: {
      public_id: row.public_id,
      domain: row.domain,
      status: row.status,
      sale_price_cents: row.sale_price_cents,
      currency: row.currency,
    },
  };
}

/** An order's timeline, oldest first. */
export async function orderTimeline(db: SandboxExecutor, publicId: string): Promise<OrderTimelineRow[]> {
  return db.selectFrom('order_timeline').selectAll().where('public_id', '=', publicId).orderBy('id').execute();
}

/** A validated `POST /orders` body (protocol `createOrderRequestSchema`), with the quote's row id when one was sent. */
export interface OrderInput {
  readonly domain?: string | undefined;
  readonly quoteRowId?: string | undefined;
  readonly quoteId?: string | undefined;
  readonly expectedPrice?: number | undefined;
  readonly currency?: string | undefined;
  readonly buyer?: { email: string; name?: string | undefined; country?: string | undefined } | undefined;
  readonly returnUrl?: string | undefined;
  readonly cancelUrl?: string | undefined;
  readonly externalPaymentRef?: string | undefined;
}

/** The outcome of {@link createOrder}: the order, or a Partner API spec 7 error to answer (and to store for replays). */
export type OrderOutcome =
  | {
      readonly kind: 'created';
      readonly order: OrderRow;
      readonly timeline: OrderTimelineRow[];
      readonly events: WireEvent[];
    }
  | {
      readonly kind: 'refused';
      readonly code: ErrorCode;
      readonly message: string;
      readonly fields?: Record<string, unknown>;
    };

const refused = (code: ErrorCode, message: string, fields?: Record<string, unknown>): OrderOutcome => ({
  kind: 'refused',
  code,
  message,
  ...(fields ? { fields } : {}),
});

/**
 * Records a partner-collected sale (Partner API spec 2.1, 3): checks the quote or the expected price against the listing, marks
 * the domain sold, stores the order `EXTERNALLY_PAID` with `order.recorded` (and, for `always-held.com`, moves it
 * to `HELD_FOR_REVIEW` with `order.held_for_review`). Refusals are returned, not thrown, so the caller can store
 * them under the idempotency key.
 */
export async function createOrder(
  trx: SandboxTrx,
  input: { credential: CredentialRow; order: OrderInput; now: Date },
): Promise<OrderOutcome> {
  const { credential, order, now } = input;
  let quote: QuoteRow | undefined;
  if (order.quoteRowId !== undefined) {
    const taken = await takeQuoteForOrder(trx, {
      quoteRowId: order.quoteRowId,
      keyId: credential.key_id,
      domain: order.domain,
      now,
    });
    if (taken.kind === 'refused') return refused(taken.code, taken.message);
    quote = taken.quote;
  }
  const domainName = quote?.domain ?? order.domain!;
  const domain = await trx
    .selectFrom('domains')
    .selectAll()
    .where('environment', '=', credential.environment)
    .where('name', '=', domainName)
    .forUpdate()
    .executeTakeFirst();
  if (domain === undefined) return refused('not_found', `${domainName} is not listed on the marketplace.`);
  if (domain.status !== 'listed') return refused('conflict', `${domainName} is already sold.`);
  if (quote === undefined) {
    const reserved = await reservationConflict(trx, domain, credential.key_id, now);
    if (reserved !== undefined) return refused('conflict', reserved);
  }
  const salePrice = quote?.price_cents ?? order.expectedPrice!;
  const currency = quote?.currency ?? order.currency!;
  const listing = { price_cents: domain.price_cents, currency: domain.currency };
  if (order.expectedPrice !== undefined && quote !== undefined && order.expectedPrice !== quote.price_cents) {
    return refused(
      'price_mismatch',
      `expected_price ${order.expectedPrice} differs from the quoted price ${quote.price_cents} (minor units).`,
      listing,
    );
  }
  if (order.currency !== undefined && order.currency !== domain.currency) {
    return refused('price_mismatch', `${domainName} is priced in ${domain.currency}, not ${order.currency}.`, listing);
  }
  if (salePrice !== domain.price_cents || currency !== domain.currency) {
    return refused(
      'price_mismatch',
      `The sale price ${salePrice} ${currency} differs from the current listing price ${domain.price_cents} ${domain.currency} of ${domainName} (minor units)${quote ? ': the listing was repriced after your quote' : ''}. Show the buyer the new price and ${quote ? 'quote again' : 'retry with it'}.`,
      listing,
    );
  }

  const publicId = randomId('ord_', 20);
  await trx
    .updateTable('domains')
    .set({ status: 'sold', sold_at: now })
    .where('environment', '=', domain.environment)
    .where('name', '=', domain.name)
    .execute();
  let row = await trx
    .insertInto('orders')
    .values({
      public_id: publicId,
      key_id: credential.key_id,
      partner_id: credential.partner_id,
      environment: credential.environment,
      domain: domain.name,
      status: 'EXTERNALLY_PAID',
      sale_price_cents: salePrice,
      currency,
      commission_cents: shareOf(salePrice, COMMISSION_BPS.mor),
      quote_id: order.quoteId ?? null,
      external_payment_ref: order.externalPaymentRef ?? null,
      buyer_email: order.buyer?.email ?? null,
      buyer_name: order.buyer?.name ?? null,
      buyer_country: order.buyer?.country ?? null,
      return_url: order.returnUrl ?? null,
      cancel_url: order.cancelUrl ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (quote !== undefined) await markQuoteUsed(trx, quote.id, publicId);
  const recorded = await emitEvent(trx, {
    keyId: credential.key_id,
    partnerId: credential.partner_id,
    type: 'order.recorded',
    data: orderEventData(row),
    now,
  });
  await trx
    .insertInto('order_timeline')
    .values({
      public_id: publicId,
      status: 'EXTERNALLY_PAID',
      event_type: recorded.type,
      event_id: recorded.id,
      note: 'Sale recorded: the partner collected payment.',
      at: now,
    })
    .execute();
  const events = [recorded];
  if (domain.scenario === 'always_held') {
    const held = await transitionOrder(trx, {
      publicId,
      action: 'hold',
      now,
      note: 'Held for manual review (scenario domain always-held.com).',
    });
    row = held.order;
    events.push(held.event);
  }
  return { kind: 'created', order: row, timeline: await orderTimeline(trx, publicId), events };
}

/** The moves of the state machine. */
export type OrderAction =
  | 'hold'
  | 'clear_review'
  | 'start_transfer'
  | 'confirm_delivery'
  | 'settle'
  | 'refund'
  | 'cancel';

/** Each action: its target status, its event, and how a refusal names it. */
export const ORDER_ACTIONS: Readonly<
  Record<OrderAction, { to: OrderStatus; event: EventType; verb: string; note: string }>
> = {
  hold: {
    to: 'HELD_FOR_REVIEW',
    event: 'order.held_for_review',
    verb: 'hold for manual review',
    note: 'Held for manual review.',
  },
  clear_review: {
    to: 'EXTERNALLY_PAID',
    event: 'order.manual_review_cleared',
    verb: 'clear the manual review of',
    note: 'Manual review cleared: the transfer may proceed.',
  },
  start_transfer: {
    to: 'TRANSFER_IN_PROGRESS',
    event: 'order.transfer_started',
    verb: 'start the transfer of',
    note: 'Domain push to the partner registrar started.',
  },
  confirm_delivery: {
    to: 'TRANSFER_COMPLETED',
    event: 'order.transfer_completed',
    verb: 'confirm delivery of',
    note: 'Domain delivered to the partner registrar: the settlement clock starts.',
  },
  settle: { to: 'SETTLED', event: 'order.settled', verb: 'settle', note: 'Settled.' },
  refund: { to: 'REFUNDED', event: 'order.refunded', verb: 'refund', note: 'Refunded.' },
  cancel: { to: 'CANCELLED', event: 'order.refunded', verb: 'cancel', note: 'Cancelled by the marketplace.' },
};

function refusal(order: OrderRow, action: OrderAction): string {
  const { verb, to } = ORDER_ACTIONS[action];
  const base = `Cannot ${verb} order ${order.public_id}: it is ${order.status}`;
  const allowedFrom = (Object.keys(ORDER_TRANSITIONS) as OrderStatus[]).filter((s) =>
    ORDER_TRANSITIONS[s].includes(to),
  );
  if (
    (action === 'refund' || action === 'cancel') &&
    (order.status === 'TRANSFER_COMPLETED' || order.status === 'SETTLED')
  ) {
    return `${base}. Refunds and cancellations are only possible before TRANSFER_COMPLETED.`;
  }
  if (action === 'start_transfer' && order.status === 'HELD_FOR_REVIEW')
    return `${base}: clear the manual review first.`;
  if (order.status === to) return `${base} already.`;
  return `${base}; this is possible from ${allowedFrom.join(' or ')} only.`;
}

/**
 * Moves an order (see the module table), emits the action's event and extends the timeline.
 * @param input.keyId - when given, only that credential's order is found (partner calls); admin calls omit it.
 * @param input.extra - columns set with the move (the settlement run sets `settlement_id`).
 * @throws {ProtocolError} `not_found` (no such order for the caller), `conflict` (an illegal move, with a message
 *   naming the status and what is allowed).
 */
export async function transitionOrder(
  trx: SandboxTrx,
  input: {
    publicId: string;
    action: OrderAction;
    now: Date;
    keyId?: string;
    note?: string;
    reason?: string | null;
    settlementId?: string;
  },
): Promise<{ order: OrderRow; event: WireEvent; refundId?: string }> {
  const { publicId, action, now } = input;
  let query = trx.selectFrom('orders').selectAll().where('public_id', '=', publicId);
  if (input.keyId !== undefined) query = query.where('key_id', '=', input.keyId);
  const order = await query.forUpdate().executeTakeFirst();
  if (order === undefined)
    throw apiError('not_found', `No order ${publicId}${input.keyId !== undefined ? ' for this credential' : ''}.`);
  const { to, event: type } = ORDER_ACTIONS[action];
  if (!ORDER_TRANSITIONS[order.status].includes(to)) throw apiError('conflict', refusal(order, action));

  const updated = await trx
    .updateTable('orders')
    .set({
      status: to,
      updated_at: now,
      ...(action === 'confirm_delivery' ? { transfer_completed_at: now } : {}),
      ...(action === 'settle' ? { settled_at: now, settlement_id: input.settlementId ?? null } : {}),
    })
    .where('public_id', '=', publicId)
    .returningAll()
    .executeTakeFirstOrThrow();
  let refundId: string | undefined;
  const data: Record<string, unknown> = orderEventData(updated);
  if (action === 'refund' || action === 'cancel') {
    refundId = randomId('re_', 20);
    const reason = input.reason ?? (action === 'cancel' ? 'cancelled by the marketplace' : null);
    await trx
      .insertInto('refunds')
      .values({
        refund_id: refundId,
        order_id: publicId,
        key_id: order.key_id,
        amount_cents: order.sale_price_cents,
        currency: order.currency,
        status: 'succeeded',
        reason,
        created_at: now,
      })
      .execute();
    // The sale is undone: the domain goes back on sale.
    await trx
      .updateTable('domains')
      .set({ status: 'listed', sold_at: null })
      .where('environment', '=', order.environment)
      .where('name', '=', order.domain)
      .execute();
    data.refund = { refund_id: refundId, amount_cents: order.sale_price_cents, currency: order.currency, reason };
  }
  const event = await emitEvent(trx, { keyId: order.key_id, partnerId: order.partner_id, type, data, now });
  await trx
    .insertInto('order_timeline')
    .values({
      public_id: publicId,
      status: to,
      event_type: type,
      event_id: event.id,
      note:
        input.note ??
        (input.reason ? `${ORDER_ACTIONS[action].note} Reason: ${input.reason}` : ORDER_ACTIONS[action].note),
      at: now,
    })
    .execute();
  return { order: updated, event, ...(refundId !== undefined ? { refundId } : {}) };
}
