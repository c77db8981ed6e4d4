/**
 * Order intents and orders in the BFF database (quotes are in `quote-store.ts`).
 *
 * An intent moves `created` (stored with its Idempotency-Key before the buyer is charged) → `paid` (payment
 * confirmed; the exact upstream body fixed) → `recorded` (the marketplace has the order). Side exits: `declined`
 * (the payment was declined), `rejected` (the marketplace refused the order for good; the payment is refunded),
 * `abandoned` (the payment's outcome could not be learned). Whoever works on an intent holds its lease, so the
 * recovery pass of another process leaves it alone until the lease has passed.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { sql, type ExpressionBuilder, type Selectable, type Transaction } from 'kysely';
import type { StoredQuote } from './quote-store.ts';
import { movesForward, statusRank } from './status.ts';
import {
  toCents,
  type BffDb,
  type BffTables,
  type IntentState,
  type OrderIntentTable,
  type OrderTable,
  type PaymentPhase,
} from '../db/tables.ts';

/** An intent as read. */
export type Intent = Selectable<OrderIntentTable>;
/** An order as read. */
export type StoredOrder = Selectable<OrderTable>;

/** True for PostgreSQL's unique-violation error (SQLSTATE 23505), from `pg` or PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** A new order-view token (256 random bits, base64url) and the SHA-256 hex stored in its place. */
export function newOrderToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** SHA-256 hex of an order-view token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares a presented token with a stored hash in constant time. */
export function tokenMatches(token: string | undefined, hash: string): boolean {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
  const given = Buffer.from(hashToken(token), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The live intent (created, paid or recorded) of a quote, if any. */
export async function findLiveIntentForQuote(db: BffDb, quoteId: string): Promise<Intent | undefined> {
  return db
    .selectFrom('bff_order_intents')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('state', 'in', ['created', 'paid', 'recorded'])
    .executeTakeFirst();
}

/** What a new intent holds. */
export interface NewIntent {
  /** The credential the order will be recorded with. */
  readonly keyId: string;
  readonly quote: StoredQuote;
  /** The validated buyer (`{email, name?, country?}`). */
  readonly buyer: { readonly email: string; readonly name?: string | undefined; readonly country?: string | undefined };
  readonly tokenHash: string;
  /** SHA-256 hex of the visitor's purchase key, when the request carried one. */
  readonly purchaseKeyHash?: string | undefined;
  readonly leaseUntil: Date;
  readonly now: Date;
}

/**
 * Stores a `created` intent with a fresh Idempotency-Key, before any payment.
 * @returns the intent, or `undefined` when the quote already has a live intent (a second click) or the purchase
 *   key already has an intent (a concurrent retry).
 */
export async function createIntent(db: BffDb, input: NewIntent): Promise<Intent | undefined> {
  try {
    return await db
      .insertInto('bff_order_intents')
      .values({
        intent_id: `oi_${randomBytes(12).toString('hex')}`,
        key_id: input.keyId,
        idempotency_key: randomUUID(),
        quote_id: input.quote.quote_id,
        domain: input.quote.domain,
        price_cents: toCents(input.quote.price_cents),
        currency: input.quote.currency,
        buyer: JSON.stringify(input.buyer),
        state: 'created',
        token_hash: input.tokenHash,
        purchase_key_hash: input.purchaseKeyHash ?? null,
        lease_until: input.leaseUntil,
        created_at: input.now,
        updated_at: input.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** The intent a purchase key started (per credential), whatever its state. */
export async function findIntentByPurchaseKey(
  db: BffDb,
  keyId: string,
  purchaseKeyHash: string,
): Promise<Intent | undefined> {
  return db
    .selectFrom('bff_order_intents')
    .selectAll()
    .where('key_id', '=', keyId)
    .where('purchase_key_hash', '=', purchaseKeyHash)
    .executeTakeFirst();
}

/**
 * The live intent (created, paid or recorded) a purchase key started for a domain with the given quote: a visitor
 * re-quoting a domain whose purchase is in flight gets that purchase back only by presenting both the key and the
 * quote of that attempt (the key alone is not a bearer token).
 */
export async function findLiveIntentForPurchase(
  db: BffDb,
  keyId: string,
  purchase: { readonly keyHash: string; readonly quoteId: string; readonly domain: string },
): Promise<Intent | undefined> {
  return db
    .selectFrom('bff_order_intents')
    .selectAll()
    .where('key_id', '=', keyId)
    .where('purchase_key_hash', '=', purchase.keyHash)
    .where('quote_id', '=', purchase.quoteId)
    .where('domain', '=', purchase.domain)
    .where('state', 'in', ['created', 'paid', 'recorded'])
    .executeTakeFirst();
}

/** States in which an intent's purchase is over, with no order standing and its money settled or reported. */
export const ENDED_INTENT_STATES: readonly IntentState[] = ['declined', 'rejected', 'abandoned'];

/**
 * Frees the purchase key of an intent that ended (declined, rejected, abandoned), so the same key may start a new
 * attempt with another quote. A live intent keeps its key.
 * @returns true when the key was freed.
 */
export async function releasePurchaseKey(db: BffDb, intentId: string, now: Date): Promise<boolean> {
  const released = await db
    .updateTable('bff_order_intents')
    .set({ purchase_key_hash: null, updated_at: now })
    .where('intent_id', '=', intentId)
    .where('state', 'in', [...ENDED_INTENT_STATES])
    .executeTakeFirst();
  return Number(released.numUpdatedRows) > 0;
}

/** Most order-view tokens kept per intent beside its first one; the oldest added are dropped past it. */
export const MAX_ADDED_VIEW_TOKENS = 20;

/**
 * Adds an order-view token to an intent (a retry whose answer carries a new token): the first token and the
 * {@link MAX_ADDED_VIEW_TOKENS} newest added ones keep working.
 */
export async function addViewToken(db: BffDb, intentId: string, tokenHash: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('bff_order_view_tokens')
      .values({ intent_id: intentId, token_hash: tokenHash, created_at: now })
      .onConflict((oc) => oc.columns(['intent_id', 'token_hash']).doNothing())
      .execute();
    const kept = trx
      .selectFrom('bff_order_view_tokens')
      .select('token_hash')
      .where('intent_id', '=', intentId)
      .orderBy('created_at', 'desc')
      .orderBy('token_hash')
      .limit(MAX_ADDED_VIEW_TOKENS);
    await trx
      .deleteFrom('bff_order_view_tokens')
      .where('intent_id', '=', intentId)
      .where('token_hash', 'not in', kept)
      .execute();
  });
}

/**
 * Whether `token` opens the intent's order view: its first token (compared in constant time) or one added by a
 * retry.
 */
export async function viewTokenMatches(
  db: BffDb,
  intent: Pick<Intent, 'intent_id' | 'token_hash'>,
  token: string | undefined,
): Promise<boolean> {
  if (tokenMatches(token, intent.token_hash)) return true;
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
  const added = await db
    .selectFrom('bff_order_view_tokens')
    .select('token_hash')
    .where('intent_id', '=', intent.intent_id)
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return added !== undefined;
}

/** Marks an intent paid and fixes the body its record will send, byte for byte, on every attempt. */
export async function markPaid(
  db: BffDb,
  intentId: string,
  fields: {
    reference: string;
    requestBody: string;
    leaseUntil: Date;
    now: Date;
    /** `authorized` for a two-phase payment (held, not taken); omitted for one-phase. */
    phase?: PaymentPhase | undefined;
  },
): Promise<Intent> {
  return db
    .updateTable('bff_order_intents')
    .set({
      state: 'paid',
      payment_phase: fields.phase ?? null,
      payment_reference: fields.reference,
      request_body: fields.requestBody,
      lease_until: fields.leaseUntil,
      updated_at: fields.now,
    })
    .where('intent_id', '=', intentId)
    .where('state', '=', 'created')
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Moves an intent to a final state without a standing order (`declined`, `rejected`, `abandoned`). A recorded
 * intent is closed only when its order was refunded upstream (capture failed); `phase` records the money's end.
 */
export async function markClosed(
  db: BffDb,
  intentId: string,
  state: Extract<IntentState, 'declined' | 'rejected' | 'abandoned'>,
  fields: { error?: string; refundState?: string; phase?: PaymentPhase | undefined; now: Date },
): Promise<void> {
  await db
    .updateTable('bff_order_intents')
    .set({
      state,
      last_error: fields.error?.slice(0, 500) ?? null,
      refund_state: fields.refundState ?? null,
      ...(fields.phase === undefined ? {} : { payment_phase: fields.phase }),
      updated_at: fields.now,
    })
    .where('intent_id', '=', intentId)
    .where('state', 'in', ['created', 'paid', 'recorded'])
    .execute();
}

/** Records that a two-phase payment was captured (the money is taken). */
export async function markCaptured(db: BffDb, intentId: string, now: Date): Promise<void> {
  await db
    .updateTable('bff_order_intents')
    .set({ payment_phase: 'captured', last_error: null, updated_at: now })
    .where('intent_id', '=', intentId)
    .execute();
}

/** Leaves a paid intent for the recovery pass after a failed record: counts the attempt, sets when to retry. */
export async function releaseForRetry(
  db: BffDb,
  intentId: string,
  fields: { error: string; retryAt: Date; now: Date },
): Promise<void> {
  await db
    .updateTable('bff_order_intents')
    .set({
      attempts: sql`attempts + 1`,
      last_error: fields.error.slice(0, 500),
      lease_until: fields.retryAt,
      updated_at: fields.now,
    })
    .where('intent_id', '=', intentId)
    .execute();
}

/** The order fields the marketplace answered. */
export interface UpstreamOrder {
  readonly public_id: string;
  readonly domain: string;
  readonly status: string;
  readonly sale_price_cents: number;
  readonly currency: string;
}

/** Marks an intent recorded and stores its order (unless an event already moved the order further). */
export async function markRecorded(db: BffDb, intentId: string, order: UpstreamOrder, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('bff_order_intents')
      .set({ state: 'recorded', order_id: order.public_id, last_error: null, updated_at: now })
      .where('intent_id', '=', intentId)
      .execute();
    await trx
      .insertInto('bff_orders')
      .values({
        order_id: order.public_id,
        domain: order.domain,
        status: order.status,
        sale_price_cents: order.sale_price_cents,
        currency: order.currency,
        status_rank: statusRank(order.status),
        last_event_at: null,
        last_event_id: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .execute();
  });
}

/** An unfinished intent: `created`, `paid`, or `recorded` with its two-phase payment not captured yet. */
const unfinished = (eb: ExpressionBuilder<BffTables, 'bff_order_intents'>) =>
  eb.or([
    eb('state', 'in', ['created', 'paid']),
    eb.and([eb('state', '=', 'recorded'), eb('payment_phase', '=', 'authorized')]),
  ]);

/**
 * Takes up to `limit` intents the recovery pass should finish (`paid` ones, and `created` ones whose payment
 * outcome is unknown) whose lease has passed, and leases them to the caller until `leaseUntil`.
 * @param options.ignoreLeasesBefore - also take intents created before this instant whatever their lease (embedded
 *   PGlite at start: only a dead process can hold a lease on those).
 */
export async function claimForRecovery(
  db: BffDb,
  options: { keyId: string; now: Date; leaseUntil: Date; limit: number; ignoreLeasesBefore?: Date | undefined },
): Promise<Intent[]> {
  return db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom('bff_order_intents')
      .select('intent_id')
      .where('key_id', '=', options.keyId)
      .where(unfinished)
      .orderBy('created_at')
      .limit(options.limit)
      .forUpdate()
      .skipLocked();
    const before = options.ignoreLeasesBefore;
    candidates =
      before === undefined
        ? candidates.where('lease_until', '<=', options.now)
        : candidates.where((eb) => eb.or([eb('lease_until', '<=', options.now), eb('created_at', '<', before)]));
    const ids = (await candidates.execute()).map((r) => r.intent_id);
    if (ids.length === 0) return [];
    return trx
      .updateTable('bff_order_intents')
      .set({ lease_until: options.leaseUntil })
      .where('intent_id', 'in', ids)
      .returningAll()
      .execute();
  });
}

/** How many intents of a credential are unfinished (`created` or `paid`), leased or not. */
export async function countUnfinished(db: BffDb, keyId: string): Promise<number> {
  const row = await db
    .selectFrom('bff_order_intents')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('key_id', '=', keyId)
    .where(unfinished)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The intent a visitor asks about by intent id or marketplace order id, with its order if recorded. */
export async function findIntentForView(
  db: BffDb,
  id: string,
): Promise<{ intent: Intent; order: StoredOrder | undefined } | undefined> {
  const intent = await db
    .selectFrom('bff_order_intents')
    .selectAll()
    .where((eb) => eb.or([eb('intent_id', '=', id), eb('order_id', '=', id)]))
    .where('state', '<>', 'declined')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (intent === undefined) return undefined;
  const order =
    intent.order_id === null
      ? undefined
      : await db.selectFrom('bff_orders').selectAll().where('order_id', '=', intent.order_id).executeTakeFirst();
  return { intent, order };
}

/** An order of an event (`data.order`, Partner API spec 2.5). */
export interface EventOrder extends UpstreamOrder {}

/**
 * Applies an event's order to the stored order, unless it is older than what was applied (see `movesForward`).
 * @returns true when the order moved.
 */
export async function applyOrderEvent(
  trx: Transaction<BffTables>,
  event: { id: string; createdAt: Date; order: EventOrder },
  now: Date,
): Promise<boolean> {
  const { order } = event;
  const fields = {
    domain: order.domain,
    status: order.status,
    sale_price_cents: order.sale_price_cents,
    currency: order.currency,
    status_rank: statusRank(order.status),
    last_event_at: event.createdAt,
    last_event_id: event.id,
    updated_at: now,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    const current = await trx
      .selectFrom('bff_orders')
      .selectAll()
      .where('order_id', '=', order.public_id)
      .forUpdate()
      .executeTakeFirst();
    if (current === undefined) {
      const inserted = await trx
        .insertInto('bff_orders')
        .values({ order_id: order.public_id, created_at: now, ...fields })
        .onConflict((oc) => oc.column('order_id').doNothing())
        .returning('order_id')
        .executeTakeFirst();
      if (inserted !== undefined) return true;
      continue; // another process inserted it meanwhile: read it (locked) and decide again
    }
    if (
      !movesForward(
        { status: current.status, lastEventAt: current.last_event_at },
        { status: order.status, createdAt: event.createdAt },
      )
    )
      return false;
    await trx.updateTable('bff_orders').set(fields).where('order_id', '=', order.public_id).execute();
    return true;
  }
  return false;
}

/** A stored order, or undefined. */
export async function findOrder(db: BffDb | Transaction<BffTables>, orderId: string): Promise<StoredOrder | undefined> {
  return db.selectFrom('bff_orders').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** A credential's intents counted by state (metrics: `domainkit_bff_purchase_intents`). */
export async function countIntentsByState(db: BffDb, keyId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('bff_order_intents')
    .select(['state', (eb) => eb.fn.countAll<string>().as('n')])
    .where('key_id', '=', keyId)
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}
