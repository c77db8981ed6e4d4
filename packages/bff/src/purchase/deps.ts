/**
 * What the MoR order flow and its recovery pass run with: the database, the credential, the client, the payment
 * adapter and budget, and their timings (ms).
 */
import type { Logger } from 'pino';
import type { BffDb } from '../db/tables.ts';
import type { BffUpstreamBudget } from '../upstream/budget.ts';
import type { LearnedPrice } from '../upstream/domain-changes.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import type { PaymentAdapter } from './payments.ts';
import type { FailedOrderReport } from './settle.ts';

/** Timings of the MoR order flow and its recovery pass (ms). */
export interface OrderTimings {
  /** How long one process may work on an intent before recovery may take it over; option `background.leaseSeconds`, default 60 s. */
  readonly leaseMs: number;
  /** A quote must have at least this long left to be paid for (the record must reach upstream in time); default 30 s. */
  readonly quoteMarginMs: number;
  /** Longest wait for the upstream write token reserved before charging the buyer; `upstreamBudget.maxWaitMs` when longer, else 3 s. */
  readonly reserveWaitMs: number;
  /** Longest budget wait of the record sent during the visitor's request; default 5 s. */
  readonly recordWaitMs: number;
  /** Longest budget wait of a record sent by the recovery pass; default 10 s. */
  readonly recoveryRecordWaitMs: number;
  /** Longest budget wait of the price lookup after a `price_mismatch` refusal; default 2 s. */
  readonly priceLookupWaitMs: number;
  /** First back-off of a record that failed (then doubled per attempt); default 5 s. */
  readonly retryBaseMs: number;
  /** Longest back-off of a record that failed; default 10 minutes. */
  readonly retryMaxMs: number;
  /** A `created` intent whose payment outcome stays unknown this long is abandoned; default 1 hour. */
  readonly abandonAfterMs: number;
  /** Most intents per recovery pass; default 25. */
  readonly recoveryBatch: number;
  /**
   * How long after its intent was created an order may still be recorded; past it the recovery pass gives up, voids
   * (or refunds) the payment and reports the intent; option `orderDeadlineSeconds`, default 30 s.
   */
  readonly recordDeadlineMs: number;
}

/** What the order flow and the recovery pass need. */
export interface OrderFlowDeps {
  readonly db: BffDb;
  /** The credential's key id: intents are recorded, and recovered, per credential. */
  readonly keyId: string;
  readonly client: MarketplaceApi;
  readonly payments: PaymentAdapter;
  readonly budget: BffUpstreamBudget;
  readonly logger: Logger;
  /** Clock, ms since the epoch. */
  readonly now: () => number;
  /** Leases, waits, back-off and the quote margin (ms). */
  readonly timings: OrderTimings;
  /** Told the domain of an order recorded, or refused as sold or unlisted, upstream (drops cached searches). */
  readonly domainChanged?: ((domain: string) => void) | undefined;
  /** Told the new price of an order refused with `price_mismatch` (corrects cached searches). */
  readonly priceLearned?: ((price: LearnedPrice) => void) | undefined;
  /** Told of every order whose payment was unwound (voided or refunded); see {@link FailedOrderReport}. */
  readonly onOrderFailed?: ((report: FailedOrderReport) => void | Promise<void>) | undefined;
}

/** Default of the record deadline (option `orderDeadlineSeconds`): 30 s after the intent was created. */
export const RECORD_DEADLINE_MS = 30_000;
