/**
 * Row types of the BFF database, as Kysely sees them (one interface per table of migration 0001). Timestamps are
 * `timestamptz` (read back as `Date`); money is minor units (cents) in `bigint` columns, read back through
 * {@link toCents} because PostgreSQL drivers hand `bigint` over as a string.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';

/** A `timestamptz` column: read as `Date`, written as `Date` or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A `bigint` amount in cents: read as string or number (driver-dependent), written as number. */
export type Cents = ColumnType<string | number | bigint, number, number>;

/** Small settings, such as the event cursor of each credential (`events_cursor:<key id>`). */
export interface MetaTable {
  key: string;
  value: string;
}

/** A quote the BFF obtained upstream (`POST /quotes`, Partner API spec 2.2): the only source of an order's price. */
export interface QuoteTable {
  quote_id: string;
  domain: string;
  price_cents: Cents;
  currency: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** What happened to an order intent so far; see `purchase/order-store.ts` for the transitions. */
export type IntentState = 'created' | 'paid' | 'recorded' | 'declined' | 'rejected' | 'abandoned';

/** See {@link OrderIntentTable.payment_phase}. */
export type PaymentPhase = 'authorized' | 'captured' | 'voided' | 'void_failed';

/**
 * An order intent: stored with its Idempotency-Key before the buyer is charged, then marked paid, then recorded
 * upstream with that same key (by the visitor's request, or later by the recovery pass).
 */
export interface OrderIntentTable {
  intent_id: string;
  /** The credential (key id) the order is recorded with; a database may serve BFFs of several credentials. */
  key_id: string;
  /** The Idempotency-Key of `POST /orders` for this logical order; never changes. */
  idempotency_key: string;
  quote_id: string;
  domain: string;
  price_cents: Cents;
  currency: string;
  /** The buyer as the visitor gave it (`{email, name?, country?}`, JSON), sent upstream with the order. */
  buyer: string;
  state: IntentState;
  /** The payment provider's reference once confirmed. */
  payment_reference: string | null;
  /** The exact JSON body of `POST /orders`, fixed when the payment succeeds, resent byte for byte on retries. */
  request_body: string | null;
  /** The marketplace order id (`public_id`) once recorded. */
  order_id: string | null;
  /**
   * SHA-256 (hex) of the first order-view token given to the visitor; the token itself is never stored. Retries add
   * more in `bff_order_view_tokens`, never replacing this one.
   */
  token_hash: string;
  /**
   * Where the money of a two-phase payment is: `authorized` (held), `captured` (taken), `voided` (released, nothing
   * taken), `void_failed` (the release failed: the hold lapses by itself); null for one-phase adapters.
   */
  payment_phase: PaymentPhase | null;
  /**
   * SHA-256 (hex) of the visitor's purchase key (`Idempotency-Key` of the widget's `POST /orders`, one per purchase
   * attempt), unique per credential; null for a request without one.
   */
  purchase_key_hash: string | null;
  /** Refund outcome for a paid intent the marketplace refused: `refunded`, `refund_failed`, `no_refund_adapter`. */
  refund_state: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  /** While in the future, one process works on the intent; recovery takes only intents whose lease has passed. */
  lease_until: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * An order-view token given to the holder of an intent's purchase key and quote on a retry (migration 0035), beside
 * the intent's first token (`token_hash`): tokens are added, never replaced.
 */
export interface OrderViewTokenTable {
  intent_id: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  created_at: Timestamp;
}

/** The BFF's view of a marketplace order, kept current by events (Partner API spec 3, 6). */
export interface OrderTable {
  order_id: string;
  domain: string;
  status: string;
  sale_price_cents: Cents;
  currency: string;
  /** Rank of `status` (see `purchase/status.ts`). */
  status_rank: number;
  /** `created_at` of the last event applied; an older event never moves the order back. */
  last_event_at: Timestamp | null;
  last_event_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A step of an order the partner's `onOrderEvent` hook was told of (purchase/order-steps.ts). */
export interface OrderStepTable {
  order_id: string;
  /** The event type of the step (`order.transfer_started`, …; Partner API spec 6). */
  event_type: string;
  /** The order status it moved the order to (Partner API spec 3). */
  status: string;
  /** The event that moved the order to it. */
  event_id: string;
  notified_at: Timestamp;
}

/** Where an event came from. */
export type EventSource = 'webhook' | 'catch_up';
/** Processing state of an inbox event. */
export type InboxState = 'pending' | 'processing' | 'done' | 'failed';

/** The webhook inbox: one row per event id, whether delivered once, twice, or fetched by catch-up. */
export interface EventTable {
  /** The credential (key id) whose event this is. */
  key_id: string;
  event_id: string;
  type: string;
  order_id: string | null;
  /** The event's own `created_at`. */
  event_created_at: Timestamp;
  /** The event JSON as received. */
  payload: string;
  source: EventSource;
  received_at: Timestamp;
  state: InboxState;
  attempts: Generated<number>;
  /** Whether the event moved its order's state, decided the first time it was applied. */
  applied: boolean | null;
  next_attempt_at: Timestamp;
  lease_until: Timestamp | null;
  processed_at: Timestamp | null;
  last_error: string | null;
}

/** A token bucket of the upstream budget (Partner API spec 8), shared by every BFF process on one PostgreSQL. */
export interface BucketTable {
  name: string;
  tokens: number;
  updated_ms: number;
  blocked_until_ms: number;
}

/** An upstream send still counting against its rate class (migration 0023, upstream/budget.ts). */
export interface BudgetSendTable {
  /** The bucket's name (`{key id}:{class}`). */
  name: string;
  id: string;
  /** Until when it counts (epoch ms). */
  until_ms: number;
}

/**
 * The credential a row of the shared search cache belongs to (migration 0030): a database may serve shops of several
 * credentials, SANDBOX and LIVE, and no row is ever read by another's.
 */
export interface SearchScopeColumns {
  /** The public key id (`pk_…`) whose upstream answer it is. */
  key_id: string;
  /** `sandbox` or `live` (environment.ts). */
  environment: string;
}

/** A search answer shared by every BFF process of one credential (migration 0030), keyed by normalised query. */
export interface SearchAnswerTable extends SearchScopeColumns {
  key: string;
  /** The upstream answer (`{domains, next_cursor}`) as JSON. */
  answer: string;
  /** The lowercased domain names the answer lists, so an eviction finds every answer naming a domain. */
  domains: string[];
  /** When it was fetched upstream, ms since the epoch. */
  stored_ms: number;
}

/** A domain whose cached answers were dropped; every process drops its in-memory copies when it reads the row. */
export interface SearchEvictionTable extends SearchScopeColumns {
  id: Generated<string | number>;
  domain: string;
  at_ms: number;
}

/** A listing seen in an upstream answer of one credential (the listing index, migration 0030). */
export interface ListingTable extends SearchScopeColumns {
  domain: string;
  available: boolean;
  price_cents: Cents;
  currency: string;
  /** Words of the queries whose answers listed it that occur in its name, each once, at most 8; space-separated. */
  terms: string;
  /** When it was last seen upstream, ms since the epoch. */
  seen_ms: number;
}

/**
 * A brokerage case a visitor asked for through the BFF (migration 0040, brokerage/case-store.ts): written `pending`
 * before `POST /brokerage` goes upstream, `opened` with the marketplace's case once it answered, `refused` when it
 * refused (the attempt may then be tried again). `brokerage.case_completed` sets `status` and the deal's amounts.
 */
export interface BrokerageCaseTable {
  key_id: string;
  /** SHA-256 (hex) of the visitor's attempt key (`Idempotency-Key`); the key itself is never stored. */
  attempt_hash: string;
  domain: string;
  buyer_email: string;
  /** Minor units of `currency`. */
  budget_cents: Cents;
  currency: string;
  tier: string;
  state: 'pending' | 'opened' | 'refused';
  case_id: string | null;
  /** The marketplace's case status (`OPEN` … `CLOSED_DEAL`). */
  status: string | null;
  progress_url: string | null;
  deal_price_cents: ColumnType<string | number | bigint | null, number | null, number | null>;
  commission_cents: ColumnType<string | number | bigint | null, number | null, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A visitor's requests in the current window of one visitor limit (migration 0025), shared by every process. */
export interface VisitorHitTable {
  /** The limit's prefix and the SHA-256 of the visitor's key (never the IP address itself). */
  key: string;
  hits: number;
  /** When the window ends and the count starts again, ms since the epoch. */
  reset_ms: number;
}

/**
 * A hosted-checkout session whose verified completion the `onCheckoutCompleted` hook was told of (migration 0036):
 * written before the hook runs, so it runs once per session across restarts and replicas.
 */
export interface CheckoutCompletionTable {
  /** The credential whose secret signed the return. */
  key_id: string;
  checkout_session_id: string;
  domain: string;
  price_cents: Cents;
  currency: string;
  /** When this BFF first verified the return (and ran the hook). */
  completed_at: Timestamp;
  /** What the hook threw, if it did (it is not run again). */
  hook_error: string | null;
}

/**
 * A console read shared by every BFF process of one credential (migration 0048, console/store.ts): what one view
 * query answered, and when it was read from the marketplace.
 */
export interface ConsoleReadTable {
  /** The credential (key id) whose marketplace records it shows. */
  key_id: string;
  /** The view and its query (`orders:{"status":"SETTLED"}`). */
  key: string;
  /** The answer as JSON. */
  value: string;
  /** What it shows (`orders`, `settlements`, …): an event or a write that changes one drops the row. */
  tags: string[];
  /** When it was read from the marketplace, ms since the epoch. */
  read_ms: number;
  /** Until when one process reads it again (migration 0049); the others serve this copy meanwhile. */
  refreshing_until_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The whole database. */
export interface BffTables {
  bff_meta: MetaTable;
  bff_quotes: QuoteTable;
  bff_order_intents: OrderIntentTable;
  bff_order_view_tokens: OrderViewTokenTable;
  bff_orders: OrderTable;
  bff_events: EventTable;
  bff_buckets: BucketTable;
  bff_budget_sends: BudgetSendTable;
  bff_search_answers: SearchAnswerTable;
  bff_search_evictions: SearchEvictionTable;
  bff_listings: ListingTable;
  bff_visitor_hits: VisitorHitTable;
  bff_checkout_completions: CheckoutCompletionTable;
  bff_brokerage_cases: BrokerageCaseTable;
  bff_order_steps: OrderStepTable;
  bff_console_reads: ConsoleReadTable;
}

/** A Kysely handle on the BFF database. */
export type BffDb = Kysely<BffTables>;

/** Reads a `bigint` cents column (string, bigint or number, depending on the driver) as a number. */
export function toCents(value: string | number | bigint): number {
  return Number(value);
}
