/**
 * Row types of the sandbox database, as Kysely sees them (one interface per table of migration 0001).
 * Timestamps are `timestamptz` (read back as `Date`), money is integer minor units (cents), `words` and `scopes`
 * are `text[]`.
 */
import type { ColumnType, Insertable, Kysely, Selectable } from 'kysely';
import type { Environment, Scope } from '../credentials/scopes.ts';

/** A `timestamptz` column: read as `Date`, written as `Date` or an ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Settings the sandbox keeps for itself: demo key id, admin token, lander signing key, inventory seed. */
export interface SandboxMetaTable {
  key: string;
  value: string;
}

/** A Partner API credential (spec 5.1): the secret is stored because the server must compute the same HMAC. */
export interface CredentialTable {
  /** Public key id, `pk_test_…` or `pk_live_…`. */
  key_id: string;
  /** API secret, `sk_test_…` or `sk_live_…`. Never logged, never answered (except once, to the admin who created it). */
  secret: string;
  environment: Environment;
  /** LIVE credentials start unapproved and answer 403 until approved (spec 1 "Environments"). */
  approved: boolean;
  scopes: Scope[];
  /** The partner account the credential belongs to (events carry it as `partner_id`, spec 2.5). */
  partner_id: string;
  /** The affiliate account linked for referral and reporting (spec 1), or null. */
  affiliate_id: string | null;
  /** A free-form note from the admin who created the credential. */
  label: string | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** A nonce seen on a verified request (spec 5.1 "Replay protection"), tracked until `expires_at`. */
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
  /** Lowest acceptable price in minor units (spec 4.1 `/pricing`). */
  floor_price_cents: number;
  currency: string;
  status: 'listed' | 'sold';
  listed_at: Timestamp;
  sold_at: Timestamp | null;
}

/** A non-MoR checkout session (spec 2.3): the hosted lander sells `domain` at `price_cents` until `expires_at`. */
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
}

/** The whole database, for `Kysely<SandboxDatabase>`. */
export interface SandboxDatabase {
  sandbox_meta: SandboxMetaTable;
  credentials: CredentialTable;
  nonces: NonceTable;
  domains: DomainTable;
  checkout_sessions: CheckoutSessionTable;
  sales: SaleTable;
}

/** The sandbox's query builder. */
export type SandboxDb = Kysely<SandboxDatabase>;

export type CredentialRow = Selectable<CredentialTable>;
export type DomainRow = Selectable<DomainTable>;
export type NewDomain = Insertable<DomainTable>;
export type CheckoutSessionRow = Selectable<CheckoutSessionTable>;
export type SaleRow = Selectable<SaleTable>;
