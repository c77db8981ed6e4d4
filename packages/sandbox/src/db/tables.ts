/**
 * Row types of the sandbox database, as Kysely sees them (one interface per table of migrations 0001–0005).
 * Timestamps are `timestamptz` (read back as `Date`), money is integer minor units (cents), `words` and `scopes`
 * are `text[]`.
 */
import type { OrderStatus } from '@domainkit/protocol';
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Environment, Scope } from '../scopes.ts';

/** A `timestamptz` column: read as `Date`, written as `Date` or an ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Settings the sandbox keeps for itself: demo key id, admin token, lander signing key, inventory seed. */
export interface SandboxMetaTable {
  key: string;
  value: string;
}

/** A Partner API credential (Partner API spec 5.1): the secret is stored because the server must compute the same HMAC. */
export interface CredentialTable {
  /** Public key id, `pk_test_…` or `pk_live_…`. */
  key_id: string;
  /** API secret, `sk_test_…` or `sk_live_…`. Never logged, never answered (except once, to the admin who created it). */
  secret: string;
  environment: Environment;
  /** LIVE credentials start unapproved and answer 403 until approved (Partner API spec 1 "Environments"). */
  approved: boolean;
  scopes: Scope[];
  /** The partner account the credential belongs to (events carry it as `partner_id`, Partner API spec 2.5). */
  partner_id: string;
  /** The affiliate account linked for referral and reporting (Partner API spec 1), or null. */
  affiliate_id: string | null;
  /** A free-form note from the admin who created the credential. */
  label: string | null;
  /** The shop's name a buyer sees on the hosted checkout (migration 0550), or null. */
  display_name: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** A nonce seen on a verified request (Partner API spec 5.1 "Replay protection"), tracked until `expires_at`. */
export interface NonceTable {
  key_id: string;
  nonce: string;
  expires_at: Timestamp;
}

/** One listed (or sold) domain of an environment's inventory. */
export interface DomainTable {
  environment: Environment;
  /** The full name, `coffeehouse.com`. */
  name: string;
  /** The second-level label, `coffeehouse`. */
  label: string;
  tld: string;
  /** The dictionary words the label is made of, `{coffee,house}`. */
  words: string[];
  /** Buy-now price in minor units. */
  price_cents: number;
  /** Lowest acceptable price in minor units (Partner API spec 4.1 `/pricing`). */
  floor_price_cents: number;
  currency: string;
  status: 'listed' | 'sold';
  listed_at: Timestamp;
  sold_at: Timestamp | null;
  /** A deterministic test scenario (see scenarios/scenarios.ts), or null for an ordinary listing. */
  scenario: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the `reprice_after_quote` scenario moved this domain's price. */
  repriced_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A non-MoR checkout session (Partner API spec 2.3): the hosted lander sells `domain` at `price_cents` until `expires_at`. */
export interface CheckoutSessionTable {
  /** `cs_…`, carried inside the signed `pt` token. */
  id: string;
  key_id: string;
  environment: Environment;
  domain: string;
  price_cents: number;
  currency: string;
  return_url: string | null;
  cancel_url: string | null;
  status: 'open' | 'paid';
  created_at: Timestamp;
  expires_at: Timestamp;
  paid_at: Timestamp | null;
  /** The referral link that brought the buyer (the marketplace storefront's buy button), or null. */
  link_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The language of the partner page the buyer came from (BCP 47), which the lander speaks when it can; or null. */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A completed sale, attributed to the partner credential that brought the buyer. */
export interface SaleTable {
  /** `sale_…`. */
  id: string;
  environment: Environment;
  domain: string;
  key_id: string;
  partner_id: string;
  affiliate_id: string | null;
  /** `non_mor` for lander sales; later issues add `mor` (orders) and `brokerage`. */
  payment_model: 'non_mor' | 'mor' | 'brokerage';
  checkout_session_id: string | null;
  price_cents: number;
  currency: string;
  created_at: Timestamp;
  /** The referral link the sale is attributed to, or null. */
  link_id: ColumnType<string | null, string | null | undefined, string | null>;
  buyer_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the partner (or affiliate, for a referral sale) earns from the sale, minor units. */
  commission_cents: ColumnType<number, number | undefined, number>;
  /** `COMPLETED` or `REFUNDED`. */
  status: ColumnType<'COMPLETED' | 'REFUNDED', 'COMPLETED' | 'REFUNDED' | undefined, 'COMPLETED' | 'REFUNDED'>;
  refunded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The partner payout that paid the commission of a non-referral sale. */
  payout_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A quote (Partner API spec 2.2): the price of `domain` locked for this credential until `expires_at`. */
export interface QuoteTable {
  /** `quo_…` (the wire `quote_id` is this id, signed). */
  id: string;
  key_id: string;
  environment: Environment;
  domain: string;
  price_cents: number;
  currency: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** The order that used the quote; a quote is used once. */
  order_id: string | null;
}

/** A partner-collected (MoR) order (Partner API spec 2.1, 3). */
export interface OrderTable {
  /** `ord_…`. */
  public_id: string;
  /** Creation order, for cursors. */
  seq: Generated<number>;
  key_id: string;
  partner_id: string;
  environment: Environment;
  domain: string;
  status: OrderStatus;
  sale_price_cents: number;
  currency: string;
  /** The partner's margin kept from the sale. */
  commission_cents: number;
  quote_id: string | null;
  external_payment_ref: string | null;
  buyer_email: string | null;
  buyer_name: string | null;
  buyer_country: string | null;
  return_url: string | null;
  cancel_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the domain reached the partner's registrar: the settlement clock starts. */
  transfer_completed_at: Timestamp | null;
  settled_at: Timestamp | null;
  settlement_id: string | null;
}

/** One step of an order's life. */
export interface OrderTimelineTable {
  id: Generated<number>;
  public_id: string;
  status: OrderStatus;
  event_type: string | null;
  event_id: string | null;
  note: string | null;
  at: Timestamp;
}

/** A refund or cancellation of an order before `TRANSFER_COMPLETED`. */
export interface RefundTable {
  /** `re_…`. */
  refund_id: string;
  order_id: string;
  key_id: string;
  amount_cents: number;
  currency: string;
  status: 'succeeded';
  reason: string | null;
  created_at: Timestamp;
}

/**
 * A claimed idempotency key (per credential) and the response stored for it: replays answer `response_status`
 * with `response_body`, byte for byte.
 */
export interface IdempotencyKeyTable {
  key_id: string;
  idem_key: string;
  /** SHA-256 (hex) of the endpoint and the canonical JSON of the body. */
  fingerprint: string;
  response_status: number;
  response_body: string;
  created_at: Timestamp;
}

/** An event (Partner API spec 2.5), in creation order; `payload` is the exact JSON body delivered to webhooks. */
export interface EventTable {
  seq: Generated<number>;
  key_id: string;
  partner_id: string;
  type: string;
  payload: string;
  created_at: Timestamp;
}

/** A credential's webhook endpoint (Partner API spec 2.4). */
export interface WebhookEndpointTable {
  key_id: string;
  url: string;
  /** The partner's signing secret; never answered, never logged. */
  secret: string;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One event to deliver to one endpoint (the outbox). */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  event_seq: number;
  key_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  max_attempts: number;
  next_attempt_at: Timestamp;
  /** A worker holds the delivery until then (an attempt is in flight). */
  lease_until: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  /** A copy sent on purpose by the duplicate-delivery fault. */
  duplicate: Generated<boolean>;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

/** One HTTP attempt of a delivery. */
export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  url: string;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  outcome: 'delivered' | 'failed';
}

/** A settlement statement of MoR orders for a period (Partner API spec 2.7). Sums are `bigint` (read as strings by pg). */
export interface SettlementTable {
  settlement_id: string;
  seq: Generated<number>;
  key_id: string;
  period_start: Timestamp;
  period_end: Timestamp;
  currency: string;
  gross_sold_cents: ColumnType<string | number, number, number>;
  commission_retained_cents: ColumnType<string | number, number, number>;
  amount_owed_cents: ColumnType<string | number, number, number>;
  order_count: number;
  created_at: Timestamp;
}

/** A payout to a partner (`partner`: non-MoR commissions and brokerage) or an affiliate (`referral`). */
export interface PayoutTable {
  payout_id: string;
  seq: Generated<number>;
  key_id: string;
  kind: 'partner' | 'referral';
  amount_cents: ColumnType<string | number, number, number>;
  currency: string;
  status: 'paid';
  non_mor_cents: ColumnType<string | number, number | undefined, number>;
  brokerage_cents: ColumnType<string | number, number | undefined, number>;
  referral_cents: ColumnType<string | number, number | undefined, number>;
  period_start: Timestamp;
  period_end: Timestamp;
  created_at: Timestamp;
  paid_at: Timestamp | null;
}

/** A brokerage case (Partner API spec 2.6). */
export interface BrokerageCaseTable {
  case_id: string;
  seq: Generated<number>;
  key_id: string;
  partner_id: string;
  environment: Environment;
  domain: string;
  tier: 'managed' | 'self_serve';
  buyer_email: string;
  budget_cents: number;
  currency: string;
  status: 'OPEN' | 'CONTACTING_OWNER' | 'NEGOTIATING' | 'CLOSED_DEAL' | 'CLOSED_NO_DEAL';
  /** The secret of the buyer's no-login progress page. */
  progress_token: string;
  deal_price_cents: number | null;
  commission_cents: number | null;
  payout_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
}

/** One step of a brokerage case. */
export interface BrokerageTimelineTable {
  id: Generated<number>;
  case_id: string;
  status: string;
  note: string | null;
  at: Timestamp;
}

/** A tracked referral link (Partner API spec 2.7). */
export interface ReferralLinkTable {
  link_id: string;
  seq: Generated<number>;
  key_id: string;
  affiliate_id: string;
  environment: Environment;
  kind: 'generic' | 'domain' | 'product';
  domain: string | null;
  product: string | null;
  label: string | null;
  /** The path segment of the tracked URL, `{base}/r/{code}`. */
  code: string;
  created_at: Timestamp;
}

/** One click on a tracked link. */
export interface ReferralClickTable {
  id: Generated<number>;
  link_id: string;
  at: Timestamp;
}

/** One line of an affiliate's commission ledger: `amount_cents` is signed. */
export interface CommissionLedgerTable {
  id: Generated<number>;
  affiliate_id: string;
  key_id: string;
  type: 'accrued' | 'reversed' | 'paid_out';
  /** For accruals: `pending`, `paid_out` or `reversed`; null for the other lines. */
  status: 'pending' | 'paid_out' | 'reversed' | null;
  sale_id: string | null;
  payout_id: string | null;
  amount_cents: number;
  currency: string;
  created_at: Timestamp;
}

/** A credential's fixed rate-limit window for one class (Partner API spec 8). */
export interface RateLimitTable {
  key_id: string;
  class: string;
  window_start: Timestamp;
  count: number;
}

/** The fault-injection settings (one row, id 1). */
export interface FaultSettingsTable {
  id: number;
  error_rate: number;
  latency_ms: number;
  burst_remaining: number;
  burst_retry_after: number;
  duplicate_rate: number;
  out_of_order_rate: number;
  updated_at: Timestamp;
}

/** The whole database, for `Kysely<SandboxDatabase>`. */
export interface SandboxDatabase {
  sandbox_meta: SandboxMetaTable;
  credentials: CredentialTable;
  nonces: NonceTable;
  domains: DomainTable;
  checkout_sessions: CheckoutSessionTable;
  sales: SaleTable;
  quotes: QuoteTable;
  orders: OrderTable;
  order_timeline: OrderTimelineTable;
  refunds: RefundTable;
  idempotency_keys: IdempotencyKeyTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  settlements: SettlementTable;
  payouts: PayoutTable;
  brokerage_cases: BrokerageCaseTable;
  brokerage_timeline: BrokerageTimelineTable;
  referral_links: ReferralLinkTable;
  referral_clicks: ReferralClickTable;
  commission_ledger: CommissionLedgerTable;
  rate_limits: RateLimitTable;
  fault_settings: FaultSettingsTable;
}

/** The sandbox's query builder. */
export type SandboxDb = Kysely<SandboxDatabase>;
/** A transaction of the sandbox database. */
export type SandboxTrx = Transaction<SandboxDatabase>;
/** Either: something queries can run on. */
export type SandboxExecutor = SandboxDb | SandboxTrx;

export type CredentialRow = Selectable<CredentialTable>;
export type DomainRow = Selectable<DomainTable>;
export type NewDomain = Insertable<DomainTable>;
export type CheckoutSessionRow = Selectable<CheckoutSessionTable>;
export type SaleRow = Selectable<SaleTable>;
export type QuoteRow = Selectable<QuoteTable>;
export type OrderRow = Selectable<OrderTable>;
export type OrderTimelineRow = Selectable<OrderTimelineTable>;
export type RefundRow = Selectable<RefundTable>;
export type EventRow = Selectable<EventTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;
export type SettlementRow = Selectable<SettlementTable>;
export type PayoutRow = Selectable<PayoutTable>;
export type BrokerageCaseRow = Selectable<BrokerageCaseTable>;
export type ReferralLinkRow = Selectable<ReferralLinkTable>;
export type CommissionLedgerRow = Selectable<CommissionLedgerTable>;
export type FaultSettingsRow = Selectable<FaultSettingsTable>;
